use super::util::{fails_with, json};

#[test]
fn count_json_has_the_contract_keys() {
    let v = json(&["queens", "count", "8", "--json"]);
    assert_eq!(v["n"], 8);
    assert_eq!(v["total"], 92);
    assert_eq!(v["unique"], 12);
    assert!(v["seconds"].as_f64().is_some());
}

#[test]
fn count_rejects_bad_sizes() {
    for bad in [
        ["queens", "count", "0"],
        ["queens", "count", "33"],
        ["queens", "count", "-3"],
        ["queens", "count", "x"],
    ] {
        fails_with(&bad, 2);
    }
}

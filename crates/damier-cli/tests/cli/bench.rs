//! `damier bench`: the whole performance report, at toy sizes (the `DAMIER_TEST_BENCH_TINY`
//! hook of debug builds; a release build runs the real quick suite). Only the report's shape
//! and the sign of its figures are checked: never a timing value.

use super::util::hooked;

const TINY: [(&str, &str); 1] = [("DAMIER_TEST_BENCH_TINY", "1")];

/// Every problem of the summary has a row.
const GROUPS: [&str; 7] =
    ["queens count", "queens cost", "queens local", "automaton", "lights", "walk", "factor"];

#[test]
fn bench_json_has_the_machine_the_date_the_commit_and_positive_figures() {
    let out = hooked(&TINY).args(["bench", "--quick", "--json"]).output().expect("runs");
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    // A run of minutes says on stderr, piped too, when it starts and ends (issue 38, section 6:
    // it printed nothing off a terminal); --quiet silences it.
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.len() == 2
            && lines[0].starts_with("damier: bench: ")
            && lines[1].starts_with("damier: bench: ended after "),
        "{err}"
    );
    let quiet = hooked(&TINY).args(["bench", "--quick", "--json", "--quiet"]).output().expect("runs");
    assert!(quiet.status.success() && quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let suite = v["suite"].as_str().expect("suite");
    assert!(suite == "tiny" || (suite == "quick" && !cfg!(debug_assertions)), "{suite}");
    let commit = v["commit"].as_str().expect("commit");
    assert!(!commit.is_empty() && !commit.contains('\n'), "{commit:?}");
    // RFC 3339 in UTC, to the second: 2026-11-25T14:22:58Z.
    let date = v["date"].as_str().expect("date");
    let shape: String = date.chars().map(|c| if c.is_ascii_digit() { 'd' } else { c }).collect();
    assert_eq!(shape, "dddd-dd-ddTdd:dd:ddZ", "{date}");
    let m = &v["machine"];
    assert!(!m["cpu"].as_str().expect("cpu").is_empty());
    assert!(m["cores"].as_u64().expect("cores") >= 1);
    assert!(m["memory_bytes"].is_null() || m["memory_bytes"].as_u64().is_some_and(|b| b > 0));
    let units = m["vector_units"].as_array().expect("vector units");
    assert_eq!(units.first().and_then(|u| u.as_str()), Some("portable"));
    for load in [&m["load_average"], &v["load_average_end"]] {
        assert!(load.is_null() || load.as_array().is_some_and(|l| l.len() == 3), "{load}");
    }
    assert!(v["seconds"].as_f64().is_some_and(|s| s >= 0.0));
    let rows = v["rows"].as_array().expect("rows");
    for group in GROUPS {
        assert!(rows.iter().any(|r| r["group"] == group), "no {group} row");
    }
    for r in rows {
        for key in ["group", "task", "command", "unit", "detail"] {
            assert!(r[key].as_str().is_some_and(|s| !s.is_empty()), "{key} in {r}");
        }
        assert!(r["command"].as_str().is_some_and(|c| c.starts_with("damier ")), "{r}");
        let value = r["value"].as_f64().expect("value");
        assert!(value > 0.0 && value.is_finite(), "{r}");
        assert!(r["higher_is_better"].is_boolean(), "{r}");
        // A ratio exactly when there is a target, both positive.
        match (r["target"].as_f64(), r["ratio"].as_f64()) {
            (Some(t), Some(x)) => assert!(t > 0.0 && x > 0.0, "{r}"),
            (None, None) => assert!(r["target"].is_null() && r["ratio"].is_null(), "{r}"),
            _ => panic!("a target without a ratio or the other way round: {r}"),
        }
    }
}

#[test]
fn bench_text_names_the_machine_and_every_row() {
    let out = hooked(&TINY).args(["bench", "--quick"]).output().expect("runs");
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut lines = text.lines();
    let head = lines.next().expect("a first line");
    assert!(
        head.starts_with("damier bench, ") && head.contains("commit ") && head.contains("(UTC)"),
        "{head}"
    );
    assert!(lines.next().is_some_and(|l| l.starts_with("machine: ") && l.contains(" cores")), "{text}");
    for expected in
        ["task", "q(", "cost per solution", "local search", "automaton", "Lights Out", "walk", "factor"]
    {
        assert!(text.contains(expected), "no {expected:?} in:\n{text}");
    }
    assert!(text.contains("damier queens bench "), "the commands of each row are listed:\n{text}");
}

#[test]
fn bench_refuses_unknown_options() {
    super::util::fails_with(&["bench", "--fast"], 2);
}

//! `damier queens speed`: the speed figure from a CSV of hand measurements.

use super::util::{damier, fails_with, json};

const HEADER: &str = "program,isa,n,metric,value,source,date,build,command\n";

fn table(dir: &tempfile::TempDir, body: &str) -> String {
    let path = dir.path().join("speed.csv");
    std::fs::write(&path, format!("{HEADER}{body}")).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn the_figure_is_drawn_with_the_ratios_to_the_other_counter() {
    let dir = tempfile::tempdir().unwrap();
    let csv = table(
        &dir,
        "damier,avx512,18,cpu_seconds,1.5,measured,2026-11-25,abc,damier queens count 18\n\
         damier,avx2,18,cpu_seconds,2.0,measured,2026-11-25,abc,damier queens count 18\n\
         anchor,native,18,cpu_seconds,5.0,measured,2026-11-25,g++,nq 1\n\
         anchor,haswell,18,cpu_seconds,4.0,measured,2026-11-25,g++,nq 1\n\
         damier,avx512,19,cpu_seconds,9.0,measured,2026-11-25,abc,damier queens count 19\n\
         damier,avx512,22,cpu_seconds,3000,estimate,2026-11-25,abc,damier queens estimate 22\n\
         damier,avx512,27,ns_per_solution,2.3,estimate,2026-11-25,abc,damier queens estimate 27\n",
    );
    let v = json(&["queens", "speed", &csv, "--json"]);
    assert_eq!(v["rows"].as_array().unwrap().len(), 7);
    // Against the other program's fastest build at the same n, only where both measured a
    // whole count (no anchor at 19, an estimate at 22).
    let ratios = v["ratios"].as_array().unwrap();
    assert_eq!(ratios.len(), 2, "{ratios:?}");
    assert_eq!((ratios[0]["n"].as_u64(), ratios[0]["isa"].as_str()), (Some(18), Some("avx2")));
    assert!((ratios[0]["ratio"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert!((ratios[1]["ratio"].as_f64().unwrap() - 0.375).abs() < 1e-12);
    assert_eq!(ratios[1]["other"].as_str(), Some("anchor haswell"));
    let svg = dir.path().join("speed.svg");
    let out = damier().args(["queens", "speed", &csv, "--plot", svg.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("0.375x  (fastest other counter (C++), built for AVX2)"), "{text}");
    // Issue 38, section 3: the table printed "anchor native" too (the CSV's names); the CSV
    // keeps them, the JSON too, the text says what the other counter is.
    assert!(!text.contains("anchor"), "no project jargon in the table:\n{text}");
    assert!(text.contains("built for this CPU") && text.contains("N-Queens-Count-Sol"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("CPU time per solution"), "both panels");
    assert!(picture.contains("estimated from timed tasks"), "estimates marked as such");
    // Issue 38, section 3: the subtitle named the CSV by its absolute path, and the legend
    // said "anchor native", a term only docs/performance.md defined.
    assert!(picture.contains("(see speed.csv)") && !picture.contains(&csv), "the file's name only");
    assert!(!picture.contains("anchor native") && !picture.contains("anchor haswell"), "no project jargon");
    assert!(picture.contains("fastest other counter (C++), built for this CPU"), "the legend in words");
    assert!(picture.contains("N-Queens-Count-Sol"), "the other counter named");
}

#[test]
fn a_wrong_table_is_refused_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (body, want) in [
        ("damier,avx512,40,cpu_seconds,1,measured,2026-11-25,a,c\n", "line 2, column n"),
        ("damier,avx512,18,cpu_seconds,-1,measured,2026-11-25,a,c\n", "line 2, column value"),
        ("damier,avx512,18,seconds,1,measured,2026-11-25,a,c\n", "line 2, column metric"),
        ("damier,avx512,18,cpu_seconds,1,guessed,2026-11-25,a,c\n", "line 2, column source"),
        ("damier,avx512,18,cpu_seconds,1,measured,25/11/2026,a,c\n", "line 2, column date"),
        ("", "no measurement"),
    ] {
        let csv = table(&dir, body);
        let err = fails_with(&["queens", "speed", &csv], 2);
        assert!(err.contains(want) && err.lines().count() == 1, "{body}: {err}");
    }
    let err = fails_with(&["queens", "speed", "/nonexistent/speed.csv"], 2);
    assert!(err.contains("/nonexistent/speed.csv"), "{err}");
}

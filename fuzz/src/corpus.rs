//! Every committed corpus input (`corpus/<target>/*`) through its target's check, as an
//! ordinary test (`cargo test --lib`, which links no libFuzzer): the fuzzers' findings and
//! seeds are checked on the stable compiler, in CI.

use std::path::Path;

type Check = fn(&[u8]);

const TARGETS: &[(&str, Check)] = &[
    ("board_text", crate::board_text::check),
    ("journal", crate::journal::check),
    ("moves", crate::moves::check),
    ("pbm", crate::pbm::check),
    ("placement", crate::placement::check),
    ("position", crate::position::check),
    ("share", crate::share::check),
];

#[test]
fn every_corpus_input_passes_its_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut failed = Vec::new();
    for (target, check) in TARGETS {
        let dir = root.join(target);
        let mut inputs: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        inputs.sort();
        assert!(!inputs.is_empty(), "{target}: empty corpus");
        for input in &inputs {
            let data = std::fs::read(input).unwrap();
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                failed.push(input.display().to_string());
            }
        }
        println!("{target}: {} inputs", inputs.len());
    }
    assert!(failed.is_empty(), "inputs that fail their check: {failed:?}");
}

/// Every target has a corpus folder and every corpus folder a target.
#[test]
fn corpora_and_targets_match() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut dirs: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let targets: Vec<&str> = TARGETS.iter().map(|t| t.0).collect();
    assert_eq!(dirs, targets);
}

//! Every public module of the library opens with a runnable example: its module doc (the
//! leading `//!` lines) holds a code block, which `cargo test --doc` runs.

use std::path::{Path, PathBuf};

/// The file of module `name` declared in `file` (`name.rs` or `name/mod.rs` beside it, or
/// below the folder of a non-`mod.rs` file).
fn module_file(file: &Path, name: &str) -> PathBuf {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap();
    let dir = match stem {
        "lib" | "mod" => file.parent().unwrap().to_path_buf(),
        _ => file.with_extension(""),
    };
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() { flat } else { dir.join(name).join("mod.rs") }
}

/// Appends to `missing` the public modules below `file` (named from `path`) whose module doc
/// has no code block; returns how many modules it read.
fn check(file: &Path, path: &str, missing: &mut Vec<String>) -> usize {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let doc: Vec<&str> = text.lines().filter(|l| l.starts_with("//!")).collect();
    if !doc.iter().any(|l| l.trim_start_matches("//!").trim_start().starts_with("```")) {
        missing.push(path.to_string());
    }
    let mut read = 1;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("pub mod ").and_then(|r| r.strip_suffix(';')) {
            read += check(&module_file(file, name), &format!("{path}::{name}"), missing);
        }
    }
    read
}

#[test]
fn every_public_module_opens_with_an_example() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let mut missing = Vec::new();
    let read = check(&lib, "damier", &mut missing);
    // The walk follows the `pub mod` declarations: the library has some fifty public modules.
    assert!(read >= 50, "only {read} modules read");
    assert!(missing.is_empty(), "public modules without a runnable example: {missing:?}");
}

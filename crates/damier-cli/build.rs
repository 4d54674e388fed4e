//! Embeds the commit the binary was built from (`git describe --always --dirty`) as the
//! environment variable `DAMIER_COMMIT`, which `damier bench` prints beside its figures.
//! Without git, or outside a repository (a source archive), it is `unknown`: the build never
//! fails for want of it.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn main() {
    let commit = git(&["describe", "--always", "--dirty"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=DAMIER_COMMIT={commit}");
    // Rerun when the checked-out commit changes (a commit, a checkout, a rebase), not when the
    // index does: `git status` rewrites the index, and the CLI (minutes to build) must not
    // rebuild for it. "-dirty" is therefore as of the last build of this crate (its sources
    // changing rebuild it too); the report says which commit it ran, not a promise about
    // every file.
    let mut watched = Vec::new();
    for path in ["HEAD", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            watched.push(PathBuf::from(p));
        }
    }
    if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &head_ref])
    {
        watched.push(PathBuf::from(p));
    }
    for p in &watched {
        // `git rev-parse --git-path` answers relative to the current directory (this crate's).
        if p.exists() {
            println!("cargo:rerun-if-changed={}", p.display());
        }
    }
    // Without git there is nothing to watch but this script and the crate's sources.
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
}

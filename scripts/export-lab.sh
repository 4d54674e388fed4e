#!/usr/bin/env bash
# Exports the web lab as a static site into DIR: HTML, CSS, JavaScript and one WebAssembly
# module, no server code (docs/web.md, "The lab without a server"). Host the folder anywhere
# static: `python3 -m http.server --bind 127.0.0.1 -d DIR`, a university web space, a Git host's pages.
#
#   scripts/export-lab.sh DIR
#
# Needs the wasm32-unknown-unknown target (`rustup target add wasm32-unknown-unknown`) and
# nothing else: the module has no generated glue (crates/damier-wasm/src/abi.rs).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/export-lab.sh DIR" >&2; exit 2; }
dir=$(realpath -m "$1")
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
cargo build -p damier-wasm --lib --release --target wasm32-unknown-unknown
cargo run -p damier-wasm --bin damier-lab-export --quiet -- "$dir" "$target/wasm32-unknown-unknown/release/damier_wasm.wasm"

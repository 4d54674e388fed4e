//! `damier-lab-export DIR WASM`: writes the web lab as a static site into DIR (created if
//! missing): the pages (crates/damier-web/assets, links made relative, each marked to answer
//! its calls in the browser), their scripts and styles, and the WebAssembly module WASM as
//! `damier.wasm`. `scripts/export-lab.sh DIR` builds the module and runs this.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, wasm] = &args[..] else {
        eprintln!("usage: damier-lab-export DIR WASM (scripts/export-lab.sh builds WASM and runs this)");
        return ExitCode::from(2);
    };
    match export(&PathBuf::from(dir), &PathBuf::from(wasm)) {
        Ok(n) => {
            println!("wrote {n} files to {dir}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("damier-lab-export: {e}");
            ExitCode::from(74)
        }
    }
}

fn export(dir: &std::path::Path, wasm: &std::path::Path) -> Result<usize, String> {
    let module = std::fs::read(wasm).map_err(|e| format!("cannot read {}: {e}", wasm.display()))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let site = damier_web::assets::static_site();
    for (name, body) in &site {
        let path = dir.join(name);
        std::fs::write(&path, body).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let path = dir.join("damier.wasm");
    std::fs::write(&path, module).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(site.len() + 1)
}

//! `damier serve`: the API against the router, and the pages in a real (headless) browser.

mod api;
mod browser;
mod faults;
mod numbers;
mod serve;
mod static_pages;
mod static_site;
mod stopping;
mod trust;

/// The commands the server serves, as `damier __api --served` prints them: the request
/// layer's paths (`damier_api::PATHS`), read once.
pub fn served() -> Vec<(String, String)> {
    static SERVED: std::sync::LazyLock<Vec<(String, String)>> = std::sync::LazyLock::new(|| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_damier"))
            .args(["__api", "--served"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let list: Vec<(String, String)> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let (g, c) = l.split_once(' ').unwrap();
                (g.to_string(), c.to_string())
            })
            .collect();
        assert!(list.len() > 10, "{list:?}");
        list
    });
    SERVED.clone()
}

/// The settings of `damier serve` for the executable `exe` (the real one, or a stand-in),
/// serving the CLI's commands.
pub fn settings_for(exe: impl Into<std::path::PathBuf>) -> damier_web::Settings {
    let mut s = damier_web::Settings::new(exe.into());
    s.served = served();
    s
}

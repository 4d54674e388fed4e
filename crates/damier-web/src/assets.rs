//! The pages, embedded in the binary: plain HTML, CSS and JavaScript modules, no build step,
//! nothing fetched from elsewhere (no CDN, no web font).
//!
//! Every page is one template (`assets/layout.html`: the head, the navigation, the footer)
//! around the page's own content (`assets/<page>.html`, what goes in `<main>`), put together
//! once: [`PAGES`] lists them, and the navigation, the home page's cards and the scripts
//! served are made from that list (a new page is one entry there and its files).

use std::borrow::Cow;
use std::sync::LazyLock;

#[cfg(feature = "server")]
use axum::http::{HeaderValue, StatusCode, Uri, header};
#[cfg(feature = "server")]
use axum::response::{IntoResponse, Response};

/// One embedded file: the URL path, its content type and its bytes.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its content (a page: put together from the template).
    pub body: Cow<'static, str>,
}

/// One page of the lab.
pub struct Page {
    /// The path it is served at.
    pub path: &'static str,
    /// Its name in the navigation.
    pub name: &'static str,
    /// Its title, before ` · damier lab`.
    pub title: Option<&'static str>,
    /// The footer's line.
    pub footer: &'static str,
    /// Its JavaScript module, if any: the path it is served at.
    pub script: Option<&'static str>,
    /// That module's source.
    pub script_source: Option<&'static str>,
    /// The page's file: its card on the home page, if any (up to [`CARD_END`]), then what goes
    /// in `<main>`; a page with an explanation of its problem holds it in a panel
    /// `id="about"`, which the footer links to.
    pub content: &'static str,
}

/// The line that ends a page's card, at the top of its file.
pub const CARD_END: &str = "<!-- /card -->\n";

/// Where the home page takes the cards of every page, in [`PAGES`]' order.
pub const CARDS: &str = "<!-- cards -->\n";

impl Page {
    /// The page's card on the home page (an `<a class="card">` to it), if its file has one.
    pub fn card(&self) -> Option<&'static str> {
        self.content.split_once(CARD_END).map(|(card, _)| card)
    }

    /// What goes in `<main>`: the file after its card, the cards of every page in place of
    /// [`CARDS`].
    pub fn main(&self) -> Cow<'static, str> {
        let main = self.content.split_once(CARD_END).map_or(self.content, |(_, main)| main);
        if main.contains(CARDS) {
            let cards: String = PAGES.iter().filter_map(Page::card).collect();
            Cow::Owned(main.replacen(CARDS, &cards, 1))
        } else {
            Cow::Borrowed(main)
        }
    }
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// The one template of every page.
const LAYOUT: &str = include_str!("../assets/layout.html");

macro_rules! page {
    ($path:literal, $file:literal, $name:literal, $title:expr, $footer:literal) => {
        Page {
            path: $path,
            name: $name,
            title: $title,
            footer: $footer,
            script: None,
            script_source: None,
            content: include_str!(concat!("../assets/", $file)),
        }
    };
    ($path:literal, $file:literal, $name:literal, $title:expr, $footer:literal, $script:literal) => {
        Page {
            script: Some(concat!("/", $script)),
            script_source: Some(include_str!(concat!("../assets/", $script))),
            ..page!($path, $file, $name, $title, $footer)
        }
    };
}

/// The pages, in the navigation's order.
pub const PAGES: &[Page] = &[
    page!("/", "index.html", "Home", None, "damier · runs locally, fetches nothing from the internet"),
    page!(
        "/lights",
        "lights.html",
        "Lights Out",
        Some("Lights Out"),
        "damier · Lights Out over GF(2)",
        "lights.js"
    ),
    page!(
        "/walk",
        "walk.html",
        "The walk",
        Some("The walk"),
        "damier · the pawn walk (\"promenade binaire\")",
        "walk.js"
    ),
    page!(
        "/automaton",
        "automaton.html",
        "Queens automaton",
        Some("Queens automaton"),
        "damier · the queens cellular automaton",
        "automaton.js"
    ),
    page!("/queens", "queens.html", "n queens", Some("n queens"), "damier · n queens", "queens.js"),
    page!(
        "/factor",
        "factor.html",
        "Factoring",
        Some("Factoring automaton"),
        "damier · the factoring automaton",
        "factor.js"
    ),
    page!("/big", "big.html", "Huge boards", Some("Huge boards"), "damier · huge boards", "big.js"),
    page!("/count", "count.html", "Counting", Some("Counting"), "damier · counting", "count.js"),
];

macro_rules! asset {
    ($path:literal, $file:literal, $type:expr) => {
        Asset {
            path: $path,
            content_type: $type,
            body: Cow::Borrowed(include_str!(concat!("../assets/", $file))),
        }
    };
}

/// Every embedded file: the pages, put together, then the styles, the scripts (the shared
/// one, then each page's) and icon.
pub static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    let pages = PAGES.iter().map(|p| Asset { path: p.path, content_type: HTML, body: Cow::Owned(render(p)) });
    let scripts = PAGES.iter().filter_map(|p| {
        Some(Asset { path: p.script?, content_type: JS, body: Cow::Borrowed(p.script_source?) })
    });
    pages
        .chain([
            asset!("/style.css", "style.css", "text/css; charset=utf-8"),
            asset!("/common.js", "common.js", JS),
            // The one number format of the pages (the library's, in JavaScript).
            asset!("/number.js", "number.js", JS),
            // The static site's (crates/damier-wasm): loaded only by the exported pages.
            asset!("/local.js", "local.js", JS),
            asset!("/worker.js", "worker.js", JS),
        ])
        .chain(scripts)
        .chain([asset!("/favicon.svg", "favicon.svg", "image/svg+xml")])
        .collect()
});

/// `page` in the template: its title, the navigation (the current page marked), its content,
/// its footer (with a link to the explanation of its problem, when it has one) and its script.
fn render(page: &Page) -> String {
    let nav: String = PAGES
        .iter()
        .map(|p| {
            let current = if p.path == page.path { r#" aria-current="page""# } else { "" };
            format!(r#"<a href="{}"{current}>{}</a>"#, p.path, p.name)
        })
        .collect();
    let title = page.title.map_or("damier lab".to_string(), |t| format!("{t} · damier lab"));
    let footer = if page.main().contains(r#"id="about""#) {
        format!(r##"{} · <a href="#about">the problem, explained</a>"##, page.footer)
    } else {
        page.footer.to_string()
    };
    let script =
        page.script.map_or(String::new(), |s| format!("<script type=\"module\" src=\"{s}\"></script>\n"));
    // The content last: nothing in it is read as a placeholder.
    LAYOUT
        .replacen("{{title}}", &title, 1)
        .replacen("{{nav}}", &nav, 1)
        .replacen("{{footer}}", &footer, 1)
        .replacen("{{script}}", &script, 1)
        .replacen("{{main}}", &page.main(), 1)
}

/// The mark of an exported page: its calls go to the library in a Web Worker (`local.js`),
/// which the head starts at once, so that it fetches and compiles the module while the page
/// loads (the page's scripts come at the end of the body: starting it from `local.js`
/// answered the first call about 0.3 s later on a first visit, measured on the project
/// machine).
/// Its style offers only what the static build can do: `.server-only` (an estimate, a
/// journal) hidden, `.static-only` (their words for this build) shown.
const LOCAL_MARK: &str = r#"<meta name="damier-local" content="worker">
<style>.server-only { display: none !important; } .static-only { display: revert !important; }</style>
<script>globalThis.damierWorker = new Worker('worker.js');</script>"#;

/// The file of `path` in the static site: `/` is `index.html`, `/lights` is `lights.html`,
/// `/style.css` stays `style.css`.
fn static_name(path: &str) -> String {
    match path {
        "/" => "index.html".to_string(),
        p if PAGES.iter().any(|page| page.path == p) => format!("{}.html", &p[1..]),
        p => p.trim_start_matches('/').to_string(),
    }
}

/// The lab as a static site (crates/damier-wasm, `scripts/export-lab.sh`): every page and
/// asset as `(file name, content)`, the links relative (so the folder works at any address of
/// any static host), each page marked to answer its calls in the browser (`LOCAL_MARK`).
/// The WebAssembly module (`damier.wasm`) is the export's to add.
pub fn static_site() -> Vec<(String, String)> {
    ASSETS
        .iter()
        .map(|a| {
            let mut body = a.body.to_string();
            if a.content_type == HTML {
                body = body.replacen(
                    "<meta charset=\"utf-8\">",
                    &format!("<meta charset=\"utf-8\">\n{LOCAL_MARK}"),
                    1,
                );
                // Longest paths first, so that `/` is rewritten last and alone.
                let mut paths: Vec<&str> = ASSETS.iter().map(|x| x.path).collect();
                paths.sort_by_key(|p| std::cmp::Reverse(p.len()));
                for p in paths {
                    let name = static_name(p);
                    body = body.replace(&format!("href=\"{p}\""), &format!("href=\"{name}\""));
                    body = body.replace(&format!("src=\"{p}\""), &format!("src=\"{name}\""));
                }
            }
            (static_name(a.path), body)
        })
        .collect()
}

/// The embedded file at `uri`'s path, or a 404 page.
#[cfg(feature = "server")]
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path();
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    let path = if path == "/favicon.ico" { "/favicon.svg" } else { path };
    match ASSETS.iter().find(|a| a.path == path) {
        Some(a) => {
            let mut r = a.body.to_string().into_response();
            r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(a.content_type));
            r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            r
        }
        None => {
            let mut r = (
                StatusCode::NOT_FOUND,
                "<!doctype html><title>not found</title><p>No such page. <a href=\"/\">Home</a>",
            )
                .into_response();
            r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(HTML));
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_site_links_its_own_files_only() {
        let site = static_site();
        let names: Vec<&str> = site.iter().map(|(n, _)| n.as_str()).collect();
        for (name, body) in &site {
            if !name.ends_with(".html") {
                continue;
            }
            assert!(body.contains(LOCAL_MARK), "{name}: not marked");
            // Every link and script is a file of the site (or a fragment): none absolute.
            for attr in ["href=\"", "src=\""] {
                for part in body.split(attr).skip(1) {
                    let target = &part[..part.find('"').unwrap()];
                    assert!(
                        target.starts_with('#') || names.contains(&target),
                        "{name} links {target}, not a file of the site"
                    );
                }
            }
        }
        assert!(names.contains(&"index.html") && names.contains(&"worker.js"));
    }

    #[test]
    fn every_page_is_the_template_around_its_content() {
        for page in PAGES {
            let html = render(page);
            assert!(
                html.starts_with("<!doctype html>") && html.trim_end().ends_with("</html>"),
                "{}",
                page.path
            );
            assert!(!html.contains("{{"), "{}: a placeholder left", page.path);
            assert!(html.contains(&*page.main()), "{}", page.path);
            // The navigation names every page and marks this one only.
            assert_eq!(html.matches(r#"aria-current="page""#).count(), 1, "{}", page.path);
            assert!(
                html.contains(&format!(r#"<a href="{}" aria-current="page">"#, page.path)),
                "{}",
                page.path
            );
            for other in PAGES {
                assert!(
                    html.contains(&format!(r#"href="{}""#, other.path)),
                    "{} links {}",
                    page.path,
                    other.path
                );
            }
            // Every problem's page explains its problem, and links to the explanation.
            if page.path != "/" {
                assert!(page.main().contains(r#"id="about""#), "{}: no explanation", page.path);
                assert!(html.contains(r##"href="#about""##), "{}", page.path);
            }
            // The script is one of the embedded files.
            if let Some(s) = page.script {
                assert!(ASSETS.iter().any(|a| a.path == s), "{s}");
            }
        }
    }

    /// Issue 38: the pages wrote numbers with toFixed and toLocaleString ("0.00 s", "14,200",
    /// "1 presses"); every script writes them through number.js (the library's format, tested
    /// against it in the CLI's web tests), the only one that may call JavaScript's formatters.
    #[test]
    fn the_pages_write_numbers_through_number_js_only() {
        let scripts: Vec<&Asset> = ASSETS.iter().filter(|a| a.path.ends_with(".js")).collect();
        assert!(scripts.iter().any(|a| a.path == "/number.js"));
        for a in scripts.iter().filter(|a| a.path != "/number.js") {
            for call in ["toFixed(", "toPrecision(", "toExponential(", "toLocaleString(", "Intl."] {
                assert!(!a.body.contains(call), "{}: writes a number with {call}", a.path);
            }
            // A page that shows a number imports the format.
            if a.body.contains("textContent") || a.body.contains("say(") {
                assert!(a.body.contains("from './number.js'"), "{}: does not import number.js", a.path);
            }
        }
    }

    /// Every home card, as the static build shows it (its `.server-only` paragraphs hidden by
    /// [`LOCAL_MARK`]), offers nothing that build lacks: no estimate, journal or server (issue
    /// 52 §6: the Counting card offered an estimate the browser's build refuses); a card with
    /// words for the server has words of its own for the static build.
    #[test]
    fn the_cards_of_the_static_build_offer_only_what_it_does() {
        for page in &PAGES[1..] {
            let card = page.card().unwrap_or_else(|| panic!("{}: no card", page.path));
            let (mut shown, mut rest, mut server_only) = (String::new(), card, false);
            while let Some(at) = rest.find(r#"<p class="server-only">"#) {
                shown.push_str(&rest[..at]);
                let end = rest[at..].find("</p>").unwrap_or_else(|| panic!("{}: unclosed", page.path));
                rest = &rest[at + end + 4..];
                server_only = true;
            }
            shown.push_str(rest);
            let words = shown.to_lowercase();
            for lacking in ["estimate", "journal", "server", "damier serve"] {
                assert!(!words.contains(lacking), "{}: the static card says {lacking:?}: {shown}", page.path);
            }
            assert!(!server_only || shown.contains(r#"class="static-only""#), "{}: {shown}", page.path);
        }
    }

    /// The home page shows a card for every problem's page, in the navigation's order, and
    /// no page shows its own card in its content.
    #[test]
    fn the_home_page_has_every_page_s_card() {
        let home = render(&PAGES[0]);
        let mut at = 0;
        for page in &PAGES[1..] {
            let card = page.card().unwrap_or_else(|| panic!("{}: no card", page.path));
            assert!(
                card.trim_start().starts_with(&format!(r#"<a class="card" href="{}">"#, page.path)),
                "{card}"
            );
            let found = home[at..]
                .find(card)
                .unwrap_or_else(|| panic!("{}: not on the home page, in order", page.path));
            at += found + card.len();
            assert!(!render(page).contains(card), "{}", page.path);
        }
        assert!(!home.contains("<!--"), "no marker left");
    }
}

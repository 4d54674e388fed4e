//! The pages, embedded in the binary: plain HTML, CSS and JavaScript modules, no build step,
//! nothing fetched from elsewhere (no CDN, no web font).
//!
//! Every page is one template (`assets/layout.html`: the head, the navigation, the footer)
//! around the page's own content (`assets/<page>.html`, what goes in `<main>`), put together
//! once: [`PAGES`] lists them, and the navigation is made from that list.

use std::borrow::Cow;
use std::sync::LazyLock;

use axum::http::{HeaderValue, StatusCode, Uri, header};
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
    /// Its JavaScript module, if any.
    pub script: Option<&'static str>,
    /// What goes in `<main>`; a page with an explanation of its problem holds it in a panel
    /// `id="about"`, which the footer links to.
    pub content: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// The one template of every page.
const LAYOUT: &str = include_str!("../assets/layout.html");

macro_rules! page {
    ($path:literal, $file:literal, $name:literal, $title:expr, $footer:literal, $script:expr) => {
        Page {
            path: $path,
            name: $name,
            title: $title,
            footer: $footer,
            script: $script,
            content: include_str!(concat!("../assets/", $file)),
        }
    };
}

/// The pages, in the navigation's order.
pub const PAGES: &[Page] = &[
    page!("/", "index.html", "Home", None, "damier · runs locally, fetches nothing from the internet", None),
    page!(
        "/lights",
        "lights.html",
        "Lights Out",
        Some("Lights Out"),
        "damier · Lights Out over GF(2)",
        Some("/lights.js")
    ),
    page!(
        "/walk",
        "walk.html",
        "The walk",
        Some("The walk"),
        "damier · the pawn walk (\"promenade binaire\")",
        Some("/walk.js")
    ),
    page!(
        "/automaton",
        "automaton.html",
        "Queens automaton",
        Some("Queens automaton"),
        "damier · the queens cellular automaton",
        Some("/automaton.js")
    ),
    page!("/queens", "queens.html", "n queens", Some("n queens"), "damier · n queens", Some("/queens.js")),
    page!(
        "/factor",
        "factor.html",
        "Factoring",
        Some("Factoring automaton"),
        "damier · the factoring automaton",
        Some("/factor.js")
    ),
    page!("/big", "big.html", "Huge boards", Some("Huge boards"), "damier · huge boards", Some("/big.js")),
    page!("/count", "count.html", "Counting", Some("Counting"), "damier · counting", Some("/count.js")),
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

/// Every embedded file: the pages, put together, then the styles, scripts and icon.
pub static ASSETS: LazyLock<Vec<Asset>> = LazyLock::new(|| {
    let pages = PAGES.iter().map(|p| Asset { path: p.path, content_type: HTML, body: Cow::Owned(render(p)) });
    pages
        .chain([
            asset!("/style.css", "style.css", "text/css; charset=utf-8"),
            asset!("/common.js", "common.js", JS),
            asset!("/lights.js", "lights.js", JS),
            asset!("/walk.js", "walk.js", JS),
            asset!("/automaton.js", "automaton.js", JS),
            asset!("/queens.js", "queens.js", JS),
            asset!("/factor.js", "factor.js", JS),
            asset!("/big.js", "big.js", JS),
            asset!("/count.js", "count.js", JS),
            asset!("/favicon.svg", "favicon.svg", "image/svg+xml"),
        ])
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
    let footer = if page.content.contains(r#"id="about""#) {
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
        .replacen("{{main}}", page.content, 1)
}

/// The embedded file at `uri`'s path, or a 404 page.
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
    fn every_page_is_the_template_around_its_content() {
        for page in PAGES {
            let html = render(page);
            assert!(
                html.starts_with("<!doctype html>") && html.trim_end().ends_with("</html>"),
                "{}",
                page.path
            );
            assert!(!html.contains("{{"), "{}: a placeholder left", page.path);
            assert!(html.contains(page.content), "{}", page.path);
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
                assert!(page.content.contains(r#"id="about""#), "{}: no explanation", page.path);
                assert!(html.contains(r##"href="#about""##), "{}", page.path);
            }
            // The script is one of the embedded files.
            if let Some(s) = page.script {
                assert!(ASSETS.iter().any(|a| a.path == s), "{s}");
            }
        }
    }
}

//! The pages, embedded in the binary: plain HTML, CSS and JavaScript modules, no build step,
//! nothing fetched from elsewhere (no CDN, no web font).

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// One embedded file: the URL path, its content type and its bytes.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its content.
    pub body: &'static str,
}

macro_rules! asset {
    ($path:literal, $file:literal, $type:expr) => {
        Asset { path: $path, content_type: $type, body: include_str!(concat!("../assets/", $file)) }
    };
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// Every embedded file.
pub const ASSETS: &[Asset] = &[
    asset!("/", "index.html", HTML),
    asset!("/lights", "lights.html", HTML),
    asset!("/walk", "walk.html", HTML),
    asset!("/automaton", "automaton.html", HTML),
    asset!("/queens", "queens.html", HTML),
    asset!("/factor", "factor.html", HTML),
    asset!("/big", "big.html", HTML),
    asset!("/count", "count.html", HTML),
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
];

/// The embedded file at `uri`'s path, or a 404 page.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path();
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    let path = if path == "/favicon.ico" { "/favicon.svg" } else { path };
    match ASSETS.iter().find(|a| a.path == path) {
        Some(a) => {
            let mut r = a.body.into_response();
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

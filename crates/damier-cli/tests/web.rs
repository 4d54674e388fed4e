//! `damier serve`: the API against the router, and the pages in a real (headless) browser.

#[path = "web/api.rs"]
mod api;

#[path = "web/browser.rs"]
mod browser;

#[path = "web/faults.rs"]
mod faults;

#[path = "web/serve.rs"]
mod serve;

#[path = "web/trust.rs"]
mod trust;

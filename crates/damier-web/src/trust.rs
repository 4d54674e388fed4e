//! The lab's trust rules for who may drive the server; the threat model they implement is in
//! docs/web.md.
//!
//! **Only the lab's own pages drive it** ([`guard`]): every request must name the server's own
//! address in `Host`, or a name the person who started it allowed ([`Hosts::names`], `damier
//! serve --allow-host NAME`); 421 otherwise: a DNS-rebinding page names its own domain. A
//! request target in absolute form (`http://name:port/path`) names a host too, checked the same
//! way. An API
//! call must carry a JSON body (`content-type: application/json`, 415 otherwise: the one type a
//! page on another site cannot send without a preflight the server never grants), and an
//! `Origin`, when there is one, must be the server's own (403 otherwise).
//!
//! What a request can make the server do is the request layer's to rule (`damier-api`, read by
//! the `__api` child): no field that writes or names a file on the server, input files as
//! content, and bounds on the values that will run.

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, Method, StatusCode, header};

/// Why a request is refused before it reaches a handler.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No `Host` header, or one that does not parse.
    #[error("the request has no valid Host header")]
    NoHost,
    /// `Host` names another address than the server's.
    #[error("Host `{0}` is not this server's address")]
    WrongHost(String),
    /// `Origin` names another origin than the server's.
    #[error("requests from {0} are not accepted: only the lab's own pages call the API")]
    ForeignOrigin(String),
    /// An API call without a JSON body.
    #[error("the API takes a JSON body: send content-type: application/json")]
    NotJson,
}

impl Refusal {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::NoHost => StatusCode::BAD_REQUEST,
            Refusal::WrongHost(_) => StatusCode::MISDIRECTED_REQUEST,
            Refusal::ForeignOrigin(_) => StatusCode::FORBIDDEN,
            Refusal::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        }
    }
}

/// The names a request may give in `Host`.
#[derive(Debug, Clone, Copy)]
pub struct Hosts<'a> {
    /// The addresses the server listens on: each as an IP literal with its port, and
    /// `localhost` for the loopback and unspecified addresses.
    pub listen: &'a [SocketAddr],
    /// Host names also accepted (with a listening port), as given to `damier serve
    /// --allow-host`: compared without case and without a final dot.
    pub names: &'a [String],
}

/// A request's target: its path, and the authority (`name:port`) it names when it is in
/// absolute form (`POST http://name:port/api/...`) or authority form.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// The path.
    pub path: &'a str,
    /// The target's authority, if it has one.
    pub authority: Option<&'a str>,
}

/// Checks a request against the server's names (`hosts`): the `Host` and the authority of the
/// target (when it names one) for every request, and for API calls (`POST /api/...`) every
/// `Origin`, every `Sec-Fetch-Site` and the content type.
pub fn guard(
    hosts: &Hosts<'_>,
    method: &Method,
    target: &Target<'_>,
    headers: &HeaderMap,
) -> Result<(), Refusal> {
    // One Host: a second one (which HTTP/1.1 forbids) is refused rather than guessed at.
    let mut given = headers.get_all(header::HOST).iter();
    let (Some(host), None) = (given.next(), given.next()) else { return Err(Refusal::NoHost) };
    let host = host.to_str().map_err(|_| Refusal::NoHost)?;
    // The target's authority is what HTTP/1.1 says the request is for, whatever `Host` says:
    // both are checked.
    for name in std::iter::once(host).chain(target.authority) {
        if !hosts.listen.iter().any(|&l| host_is_ours(l, hosts.names, name)) {
            return Err(Refusal::WrongHost(name.chars().take(100).collect()));
        }
    }
    let path = target.path;
    if !(path.starts_with("/api/") && method == Method::POST) {
        return Ok(());
    }
    // Same origin: the page was served by this server under the name the request uses. Every
    // `Origin` header is checked, not only the first.
    for origin in headers.get_all(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if origin != format!("http://{host}") {
            return Err(Refusal::ForeignOrigin(origin.chars().take(100).collect()));
        }
    }
    // Header values are compared as the browser's tokens, whatever their case.
    let cross_site = headers
        .get_all("sec-fetch-site")
        .iter()
        .any(|s| s.to_str().is_ok_and(|s| s.trim().eq_ignore_ascii_case("cross-site")));
    if cross_site {
        return Err(Refusal::ForeignOrigin("another site".into()));
    }
    let mut types = headers.get_all(header::CONTENT_TYPE).iter();
    let json = match (types.next(), types.next()) {
        (Some(c), None) => c
            .to_str()
            .ok()
            .and_then(|c| c.split(';').next())
            .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json")),
        _ => false,
    };
    if !json {
        return Err(Refusal::NotJson);
    }
    Ok(())
}

/// Whether `host` (a `Host` header: `name[:port]`) is an address the server listens on:
/// `localhost` (or its fully qualified form `localhost.`), an IP literal the socket answers
/// on, or one of the allowed `names`, with the socket's port. Any other domain name is never
/// ours: that is what stops DNS rebinding.
fn host_is_ours(listen: SocketAddr, names: &[String], host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        // `[v6]:port` or `name:port`; a bare v6 literal has colons but no brackets.
        Some((name, port)) if !name.contains(':') || name.ends_with(']') => (name, port.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    if port != Some(listen.port()) {
        return false;
    }
    let name = name.trim_start_matches('[').trim_end_matches(']');
    let local = name.strip_suffix('.').unwrap_or(name);
    if local.eq_ignore_ascii_case("localhost") {
        return listen.ip().is_loopback() || listen.ip().is_unspecified();
    }
    if !local.is_empty() && names.iter().any(|n| n.strip_suffix('.').unwrap_or(n).eq_ignore_ascii_case(local))
    {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) if listen.ip().is_unspecified() => !ip.is_unspecified(),
        Ok(ip) => ip == listen.ip(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    const LOCAL: &str = "127.0.0.1:8080";

    /// `guard` for a server listening on `listen`, with no allowed name.
    fn guard_on(listen: &[SocketAddr], method: &Method, path: &str, h: &HeaderMap) -> Result<(), Refusal> {
        guard(&Hosts { listen, names: &[] }, method, &Target { path, authority: None }, h)
    }

    fn api(pairs: &[(&'static str, &str)]) -> Result<(), Refusal> {
        guard_on(&[LOCAL.parse().unwrap()], &Method::POST, "/api/queens/count", &headers(pairs))
    }

    #[test]
    fn hosts_are_the_listening_address_only() {
        let l: SocketAddr = LOCAL.parse().unwrap();
        for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "localhost.:8080"] {
            assert!(host_is_ours(l, &[], ok), "{ok}");
        }
        for bad in [
            "127.0.0.1:8081",
            "127.0.0.2:8080",
            "evil.example:8080",
            "127.0.0.1",
            "localhost",
            "",
            "localhost..:8080",
            "127.0.0.1.:8080",
            "localhost.evil.example:8080",
        ] {
            assert!(!host_is_ours(l, &[], bad), "{bad}");
        }
        let any: SocketAddr = "0.0.0.0:80".parse().unwrap();
        for ok in ["192.168.1.5", "10.0.0.1:80", "[::1]:80", "localhost"] {
            assert!(host_is_ours(any, &[], ok), "{ok}");
        }
        assert!(!host_is_ours(any, &[], "rebind.example"));
        let v6: SocketAddr = "[::1]:9000".parse().unwrap();
        assert!(host_is_ours(v6, &[], "[::1]:9000") && host_is_ours(v6, &[], "localhost:9000"));
        assert!(!host_is_ours(v6, &[], "[::2]:9000") && !host_is_ours(v6, &[], "::1"));
    }

    #[test]
    fn allowed_names_are_accepted_and_no_other() {
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let names = ["lab.school".to_string(), "Salle-12.".to_string()];
        for ok in ["lab.school:8080", "LAB.SCHOOL:8080", "lab.school.:8080", "salle-12:8080", "10.0.0.1:8080"]
        {
            assert!(host_is_ours(any, &names, ok), "{ok}");
        }
        for bad in [
            "lab.school:8081",
            "lab.school",
            "evil.lab.school:8080",
            "lab.school.evil.example:8080",
            "lab.schoo:8080",
            ":8080",
            ".:8080",
            "rebind.example:8080",
        ] {
            assert!(!host_is_ours(any, &names, bad), "{bad}");
        }
        // The page's origin under that name is its own; a foreign one is still refused.
        let hosts = Hosts { listen: &[any], names: &names };
        let json = ("content-type", "application/json");
        let call = |pairs: &[(&'static str, &str)]| {
            guard(
                &hosts,
                &Method::POST,
                &Target { path: "/api/queens/count", authority: None },
                &headers(pairs),
            )
        };
        assert_eq!(call(&[("host", "lab.school:8080"), json, ("origin", "http://lab.school:8080")]), Ok(()));
        let e = call(&[("host", "lab.school:8080"), json, ("origin", "http://evil.example")]).unwrap_err();
        assert_eq!(e.status(), StatusCode::FORBIDDEN);
        let e = call(&[("host", "other.school:8080"), json]).unwrap_err();
        assert_eq!(e.status(), StatusCode::MISDIRECTED_REQUEST);
    }

    #[test]
    fn api_calls_need_json_and_their_own_origin() {
        let json = ("content-type", "application/json");
        assert_eq!(api(&[("host", LOCAL), json]), Ok(()));
        assert_eq!(api(&[("host", LOCAL), ("content-type", "application/json; charset=utf-8")]), Ok(()));
        assert_eq!(api(&[("host", LOCAL), json, ("origin", "http://127.0.0.1:8080")]), Ok(()));
        assert_eq!(api(&[("host", LOCAL), ("content-type", "text/plain")]), Err(Refusal::NotJson));
        assert_eq!(api(&[("host", LOCAL)]), Err(Refusal::NotJson));
        for origin in ["http://evil.example", "null", "http://127.0.0.1:8081", "https://127.0.0.1:8080"] {
            let e = api(&[("host", LOCAL), json, ("origin", origin)]).unwrap_err();
            assert_eq!(e.status(), StatusCode::FORBIDDEN, "{origin}");
        }
        for site in ["cross-site", "Cross-Site", "CROSS-SITE", " cross-site"] {
            let e = api(&[("host", LOCAL), json, ("sec-fetch-site", site)]).unwrap_err();
            assert_eq!(e.status(), StatusCode::FORBIDDEN, "{site}");
        }
        assert_eq!(api(&[("host", LOCAL), json, ("sec-fetch-site", "same-origin")]), Ok(()));
        // Every Origin is checked, not only the first; so is every Sec-Fetch-Site.
        let same = ("origin", "http://127.0.0.1:8080");
        let e = api(&[("host", LOCAL), json, same, ("origin", "http://evil.example")]).unwrap_err();
        assert_eq!(e.status(), StatusCode::FORBIDDEN);
        let two_sites =
            [("host", LOCAL), json, ("sec-fetch-site", "same-origin"), ("sec-fetch-site", "cross-site")];
        assert_eq!(api(&two_sites).unwrap_err().status(), StatusCode::FORBIDDEN);
        // A second Host or content type is not guessed at.
        assert_eq!(api(&[("host", LOCAL), ("host", "evil.example:8080"), json]), Err(Refusal::NoHost));
        assert_eq!(api(&[("host", LOCAL), json, ("content-type", "text/plain")]), Err(Refusal::NotJson));
        // The fully qualified `localhost.`, and its own origin.
        let dotted = [("host", "localhost.:8080"), json, ("origin", "http://localhost.:8080")];
        assert_eq!(api(&dotted), Ok(()));
        assert_eq!(api(&[json]), Err(Refusal::NoHost));
        assert_eq!(
            api(&[("host", "evil.example:8080"), json]).unwrap_err().status(),
            StatusCode::MISDIRECTED_REQUEST
        );
        // Pages need only the right Host.
        let page = guard_on(&[LOCAL.parse().unwrap()], &Method::GET, "/", &headers(&[("host", LOCAL)]));
        assert_eq!(page, Ok(()));
        // Several listening addresses (`--host localhost`: 127.0.0.1 and ::1): any of them.
        let both = [LOCAL.parse().unwrap(), "[::1]:8080".parse().unwrap()];
        for host in [LOCAL, "[::1]:8080", "localhost:8080"] {
            assert_eq!(guard_on(&both, &Method::GET, "/", &headers(&[("host", host)])), Ok(()), "{host}");
        }
        let other = guard_on(&both, &Method::GET, "/", &headers(&[("host", "[::2]:8080")]));
        assert_eq!(other.unwrap_err().status(), StatusCode::MISDIRECTED_REQUEST);
    }

    #[test]
    fn a_target_in_absolute_form_names_a_host_checked_as_host_is() {
        let listen = [LOCAL.parse().unwrap()];
        let hosts = Hosts { listen: &listen, names: &[] };
        let h = headers(&[("host", LOCAL), ("content-type", "application/json")]);
        let at = |authority| {
            let target = Target { path: "/api/queens/count", authority: Some(authority) };
            guard(&hosts, &Method::POST, &target, &h)
        };
        for other in ["other.example:8080", "127.0.0.2:8080", "127.0.0.1:8081", "user@127.0.0.1:8080", ""] {
            assert_eq!(at(other), Err(Refusal::WrongHost(other.to_string())), "{other}");
        }
        for ours in ["127.0.0.1:8080", "localhost:8080"] {
            assert_eq!(at(ours), Ok(()), "{ours}");
        }
        // Pages too.
        let page =
            guard(&hosts, &Method::GET, &Target { path: "/", authority: Some("other.example:8080") }, &h);
        assert_eq!(page.unwrap_err().status(), StatusCode::MISDIRECTED_REQUEST);
    }
}

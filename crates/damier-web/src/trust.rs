//! The lab's trust rules, in one place: who may drive the server, and what a request can make
//! it do. The threat model they implement is in docs/web.md.
//!
//! 1. **Only the lab's own pages drive it** ([`guard`]): every request must name the server's
//!    own address in `Host` (421 otherwise: a DNS-rebinding page names its own domain); an API
//!    call must carry a JSON body (`content-type: application/json`, 415 otherwise: the one
//!    type a page on another site cannot send without a preflight the server never grants),
//!    and an `Origin`, when there is one, must be the server's own (403 otherwise).
//! 2. **No request names a file the server writes** ([`ArgRule`]): what an argument may carry
//!    is read from its type in the CLI's own clap definition, not from its name. An argument
//!    typed [`OutputPath`] writes, creates or appends to a file, and an argument typed with a
//!    bare path (`PathBuf`, `OsString`) might: both are refused. An [`InputFile`] takes the
//!    file's content, which goes to a private temporary folder. So a new option that writes a
//!    file is refused over HTTP the day it is added, if it is declared as what it is.
//! 3. **Bounds apply to what will run**: [`crate::limits`] reads the values clap parsed from
//!    the argument vector the request was mapped to, the same values the command then runs on.

use std::ffi::OsString;
use std::net::{IpAddr, SocketAddr};
use std::ops::Deref;
use std::path::{Path, PathBuf};

use axum::http::{HeaderMap, Method, StatusCode, header};

/// A path type for clap arguments: parsed from the command line as it is, read as a `Path`.
/// The two types differ only by what they tell [`ArgRule::of`].
macro_rules! path_argument {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name(PathBuf);

        impl From<OsString> for $name {
            fn from(path: OsString) -> $name {
                $name(path.into())
            }
        }

        impl Deref for $name {
            type Target = Path;
            fn deref(&self) -> &Path {
                &self.0
            }
        }

        impl AsRef<Path> for $name {
            fn as_ref(&self) -> &Path {
                &self.0
            }
        }
    };
}

path_argument!(
    /// A path the command writes, creates or appends to (`--out`, `--csv`, `--journal`, ...).
    ///
    /// Declaring an argument with this type is what keeps it off the web: [`ArgRule::of`]
    /// refuses it over HTTP.
    OutputPath
);

path_argument!(
    /// A file the command only reads (`-` for stdin where the command says so). Over HTTP the
    /// request gives the file's content, written to a private temporary folder.
    InputFile
);

/// What a request may give for one argument of a served command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgRule {
    /// A flag: JSON `true` sets it, `false` or `null` leaves it out.
    Flag,
    /// One value: a JSON number or string.
    One,
    /// Several values: a JSON array of numbers or strings (or one of them).
    Many,
    /// An input file: its content, as one JSON string.
    Content,
    /// Not available over HTTP, and why.
    Refused(&'static str),
}

impl ArgRule {
    /// The rule of `arg`, from its action, arity and value type.
    pub fn of(arg: &clap::Arg) -> ArgRule {
        use std::any::TypeId;
        let parser = arg.get_value_parser();
        let is = |t: TypeId| parser.type_id() == t;
        if is(TypeId::of::<OutputPath>()) {
            return ArgRule::Refused("writes a file on the server");
        }
        if is(TypeId::of::<PathBuf>()) || is(TypeId::of::<OsString>()) {
            return ArgRule::Refused("names a file on the server");
        }
        let many = matches!(arg.get_action(), clap::ArgAction::Append)
            || arg.get_num_args().is_some_and(|r| r.max_values() > 1);
        if is(TypeId::of::<InputFile>()) {
            return if many {
                ArgRule::Refused("names several files on the server")
            } else {
                ArgRule::Content
            };
        }
        match arg.get_action() {
            clap::ArgAction::SetTrue | clap::ArgAction::SetFalse | clap::ArgAction::Count => ArgRule::Flag,
            clap::ArgAction::Set | clap::ArgAction::Append if many => ArgRule::Many,
            clap::ArgAction::Set => ArgRule::One,
            _ => ArgRule::Refused("is not an option of the command"),
        }
    }

    /// The rule of `arg` as an argument of `command`: [`ArgRule::of`], except that an
    /// argument the command declares in conflict with `--json` (a choice among text forms,
    /// such as `--columns`) is refused, since every API call runs with `--json`.
    pub fn in_command(command: &clap::Command, arg: &clap::Arg) -> ArgRule {
        let is_json = |a: &clap::Arg| a.get_id() == JSON;
        let json = command.get_arguments().find(|a| is_json(a));
        let excludes_json = json.is_some_and(|json| {
            !is_json(arg)
                && (command.get_arg_conflicts_with(arg).into_iter().any(is_json)
                    || command.get_arg_conflicts_with(json).into_iter().any(|a| a.get_id() == arg.get_id()))
        });
        if excludes_json {
            ArgRule::Refused("chooses a text form, and the API always answers JSON")
        } else {
            ArgRule::of(arg)
        }
    }
}

/// The id of the argument every API call adds (`--json`).
pub const JSON: &str = "json";

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

/// Checks a request's headers against the addresses the server listens on (`listen`): the
/// `Host` for every request, and for API calls (`POST /api/...`) every `Origin`, every
/// `Sec-Fetch-Site` and the content type.
pub fn guard(listen: &[SocketAddr], method: &Method, path: &str, headers: &HeaderMap) -> Result<(), Refusal> {
    // One Host: a second one (which HTTP/1.1 forbids) is refused rather than guessed at.
    let mut hosts = headers.get_all(header::HOST).iter();
    let (Some(host), None) = (hosts.next(), hosts.next()) else { return Err(Refusal::NoHost) };
    let host = host.to_str().map_err(|_| Refusal::NoHost)?;
    if !listen.iter().any(|&l| host_is_ours(l, host)) {
        return Err(Refusal::WrongHost(host.chars().take(100).collect()));
    }
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
/// `localhost` (or its fully qualified form `localhost.`) or an IP literal the socket answers
/// on, with the socket's port. A domain name is never ours: that is what stops DNS rebinding.
fn host_is_ours(listen: SocketAddr, host: &str) -> bool {
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

    fn api(pairs: &[(&'static str, &str)]) -> Result<(), Refusal> {
        guard(&[LOCAL.parse().unwrap()], &Method::POST, "/api/queens/count", &headers(pairs))
    }

    #[test]
    fn hosts_are_the_listening_address_only() {
        let l: SocketAddr = LOCAL.parse().unwrap();
        for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "localhost.:8080"] {
            assert!(host_is_ours(l, ok), "{ok}");
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
            assert!(!host_is_ours(l, bad), "{bad}");
        }
        let any: SocketAddr = "0.0.0.0:80".parse().unwrap();
        for ok in ["192.168.1.5", "10.0.0.1:80", "[::1]:80", "localhost"] {
            assert!(host_is_ours(any, ok), "{ok}");
        }
        assert!(!host_is_ours(any, "rebind.example"));
        let v6: SocketAddr = "[::1]:9000".parse().unwrap();
        assert!(host_is_ours(v6, "[::1]:9000") && host_is_ours(v6, "localhost:9000"));
        assert!(!host_is_ours(v6, "[::2]:9000") && !host_is_ours(v6, "::1"));
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
        let page = guard(&[LOCAL.parse().unwrap()], &Method::GET, "/", &headers(&[("host", LOCAL)]));
        assert_eq!(page, Ok(()));
        // Several listening addresses (`--host localhost`: 127.0.0.1 and ::1): any of them.
        let both = [LOCAL.parse().unwrap(), "[::1]:8080".parse().unwrap()];
        for host in [LOCAL, "[::1]:8080", "localhost:8080"] {
            assert_eq!(guard(&both, &Method::GET, "/", &headers(&[("host", host)])), Ok(()), "{host}");
        }
        let other = guard(&both, &Method::GET, "/", &headers(&[("host", "[::2]:8080")]));
        assert_eq!(other.unwrap_err().status(), StatusCode::MISDIRECTED_REQUEST);
    }

    #[test]
    fn argument_rules_follow_the_type() {
        use clap::{Arg, ArgAction, value_parser};
        let rule = |a: Arg| ArgRule::of(&a);
        assert_eq!(
            rule(Arg::new("out").long("out").value_parser(value_parser!(OutputPath))),
            ArgRule::Refused("writes a file on the server")
        );
        assert!(matches!(
            rule(Arg::new("x").long("x").value_parser(value_parser!(PathBuf))),
            ArgRule::Refused(_)
        ));
        assert!(matches!(
            rule(Arg::new("x").long("x").value_parser(value_parser!(OsString))),
            ArgRule::Refused(_)
        ));
        assert_eq!(rule(Arg::new("f").value_parser(value_parser!(InputFile))), ArgRule::Content);
        assert_eq!(rule(Arg::new("j").long("j").action(ArgAction::SetTrue)), ArgRule::Flag);
        assert_eq!(rule(Arg::new("n").value_parser(value_parser!(u32))), ArgRule::One);
        assert_eq!(rule(Arg::new("c").num_args(0..).value_parser(value_parser!(u32))), ArgRule::Many);
        assert_eq!(rule(Arg::new("s").long("s").action(ArgAction::Append)), ArgRule::Many);
    }

    #[test]
    fn an_argument_in_conflict_with_json_is_refused() {
        use clap::{Arg, ArgAction, Command};
        let flag = |id: &'static str| Arg::new(id).long(id).action(ArgAction::SetTrue);
        let command = Command::new("first")
            .arg(flag("json"))
            .arg(flag("columns").conflicts_with("json"))
            .arg(flag("boards"))
            .arg(flag("plain"))
            .arg(flag("terse").conflicts_with("plain"));
        let command =
            Command::new("damier").subcommand(command.mut_arg("json", |a| a.conflicts_with("boards")));
        let command = command.find_subcommand("first").unwrap();
        let rule = |id: &str| {
            ArgRule::in_command(command, command.get_arguments().find(|a| a.get_id() == id).unwrap())
        };
        // Declared on either side of the conflict.
        assert!(matches!(rule("columns"), ArgRule::Refused(why) if why.contains("JSON")));
        assert!(matches!(rule("boards"), ArgRule::Refused(_)));
        for id in ["json", "plain", "terse"] {
            assert_eq!(rule(id), ArgRule::Flag, "{id}");
        }
    }
}

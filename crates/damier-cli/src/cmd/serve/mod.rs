//! `damier serve`: the web lab ([`damier_web`]); and the hidden `damier __api GROUP COMMAND`,
//! the child the server runs for one API call (the JSON object on stdin), read as a typed
//! request of the request layer ([`damier_api`]), bounded and run there ([`request`]): no
//! command line is built and clap parses nothing of a request.
//!
//! The web crate keeps HTTP, trust, jobs and the live views; the request layer holds every
//! served command's request, bounds and record.

mod request;

use std::io::Read;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use crate::util::output::{errln, outln};
use crate::util::{interrupt, output};

/// Arguments of `damier serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address or host name to bind (`localhost`: every address it resolves to, 127.0.0.1 and
    /// ::1); the default serves this machine only, 0.0.0.0 the whole network.
    #[arg(long, default_value = "127.0.0.1", value_parser = parse_host)]
    host: Host,
    /// Open the lab in the default browser.
    #[arg(long)]
    open: bool,
    /// Lift the per-request bounds (counts above n = 18, boards above 2000 x 2000, ...).
    #[arg(long)]
    allow_heavy: bool,
    /// Most commands running at once; more requests wait [default: one per core].
    #[arg(long, value_parser = crate::util::ranged::<u32>(1, 256))]
    jobs: Option<u32>,
    /// Time limit of one request in seconds, waiting included [range: 1 to 86400].
    #[arg(long, default_value_t = 60, value_parser = crate::util::ranged::<u64>(1, 86_400))]
    timeout: u64,
    /// A long count's journal (`queens count --journal FILE`) for the counting page to show,
    /// read-only; the only file the lab reads besides its own executable.
    #[arg(long, value_name = "FILE")]
    journal: Option<crate::util::InputFile>,
    /// A host name requests may use besides this machine's addresses (repeatable: once per
    /// name), e.g. `--allow-host lab.local` with `--host 0.0.0.0`; any other name is refused
    /// (421), which stops DNS rebinding.
    #[arg(long, value_name = "NAME", value_parser = parse_host_name)]
    allow_host: Vec<String>,
}

/// Arguments of the hidden `damier __api` (run by the server, never by a request: its flags
/// are the server's settings).
#[derive(Debug, clap::Args)]
pub struct ApiArgs {
    /// Print the served commands (`group command`, one a line) and exit: the list the server
    /// derives from the request layer's ([`served`]), for the tests that drive the router.
    #[arg(long, exclusive = true)]
    served: bool,
    /// The server was started with --allow-heavy: skip the per-request bounds.
    #[arg(long)]
    allow_heavy: bool,
    /// The command group (queens, automaton, lights, walk).
    #[arg(required_unless_present = "served")]
    group: Option<String>,
    /// The command.
    #[arg(required_unless_present = "served")]
    command: Option<String>,
}

/// The addresses `--host` names: one IP address, or every address a host name resolves to.
#[derive(Debug, Clone)]
struct Host(Vec<IpAddr>);

impl Host {
    /// The first address, the one the printed URL and the warning name (IPv4 first).
    fn first(&self) -> IpAddr {
        self.0.first().copied().unwrap_or(IpAddr::from([127, 0, 0, 1]))
    }
}

/// An IP address, or a host name resolved by the system: all its addresses, IPv4 first, each
/// once. `localhost` is both loopback addresses (127.0.0.1 and ::1) whatever the system's
/// hosts file lists, as RFC 6761 reserves it (many list only 127.0.0.1).
fn parse_host(text: &str) -> Result<Host, String> {
    use std::net::ToSocketAddrs;
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Ok(Host(vec![ip]));
    }
    let name = text.strip_suffix('.').unwrap_or(text);
    if name.eq_ignore_ascii_case("localhost") {
        return Ok(Host(vec![IpAddr::from([127, 0, 0, 1]), IpAddr::from(std::net::Ipv6Addr::LOCALHOST)]));
    }
    let mut addrs: Vec<IpAddr> = (text, 0)
        .to_socket_addrs()
        .map_err(|e| {
            format!("{text:?} is neither an IP address nor a host name this machine resolves ({e})")
        })?
        .map(|a| a.ip())
        .collect();
    addrs.sort_by_key(|ip| ip.is_ipv6());
    addrs.dedup();
    if addrs.is_empty() {
        return Err(format!("{text:?} resolves to no address"));
    }
    Ok(Host(addrs))
}

/// A name for `--allow-host`: a DNS host name (letters, digits, `-`, `_`, dot-separated
/// labels, a final dot allowed), kept as given; no port, scheme, path or wildcard.
fn parse_host_name(text: &str) -> Result<String, String> {
    let name = text.strip_suffix('.').unwrap_or(text);
    let label_ok = |l: &str| {
        !l.is_empty() && l.len() <= 63 && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    if name.len() > 253 || !name.split('.').all(label_ok) {
        return Err(format!(
            "{text:?} is not a host name (letters, digits, `-` and dots, no port: --allow-host lab.local)"
        ));
    }
    Ok(text.to_string())
}

/// Listens on every address of `host` at `port` (0: a free port, then the same port on the
/// other addresses). An address this machine does not have (::1 without IPv6) is skipped when
/// another one listens; any other failure is an error.
async fn listen(host: &Host, port: u16) -> anyhow::Result<Vec<tokio::net::TcpListener>> {
    let mut listeners: Vec<tokio::net::TcpListener> = Vec::new();
    let mut port = port;
    for (i, &ip) in host.0.iter().enumerate() {
        match tokio::net::TcpListener::bind(SocketAddr::new(ip, port)).await {
            Ok(l) => {
                port = l.local_addr()?.port();
                listeners.push(l);
            }
            Err(e)
                if i > 0
                    && !listeners.is_empty()
                    && matches!(
                        e.kind(),
                        std::io::ErrorKind::AddrNotAvailable | std::io::ErrorKind::Unsupported
                    ) =>
            {
                errln!("damier: warning: cannot listen on {ip}:{port} ({e}); serving the other addresses");
            }
            Err(e) => return Err(anyhow::anyhow!("cannot listen on {ip}:{port}: {e}")),
        }
    }
    Ok(listeners)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // SIGTERM and SIGHUP stop the server as Ctrl-C does: its jobs killed.
    interrupt::install_stop_signals();
    let exe = std::env::current_exe().context("cannot find the damier executable")?;
    let mut settings = damier_web::Settings::new(exe);
    settings.served = served();
    settings.allowed_hosts = a.allow_host.clone();
    settings.allow_heavy = a.allow_heavy;
    settings.timeout = Duration::from_secs(a.timeout);
    if let Some(j) = a.jobs {
        settings.max_jobs = j as usize;
    }
    settings.journal = a.journal.map(|f| f.as_ref().to_path_buf());
    let panic_after = crate::util::test_hooks::read()?.server_panic_ms.map(Duration::from_millis);
    // Whatever ends `block_on` (the stop signals, an error, a panic) drops the runtime, and with
    // it every running job's guard: the jobs are killed and their folders removed.
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listeners = listen(&a.host, a.port).await?;
        let addr = listeners.first().context("no address to listen on")?.local_addr()?;
        if let Some(open) = a.host.0.iter().find(|ip| !ip.is_loopback()) {
            errln!(
                "damier: warning: listening on {}: anyone who can reach this machine on port {} can \
                 use the lab and run its commands on your cores ({} at once, {} s each{}); it never \
                 writes files for them",
                open,
                addr.port(),
                settings.max_jobs,
                a.timeout,
                if a.allow_heavy {
                    ", with no size bounds: --allow-heavy"
                } else {
                    ", within the size bounds"
                }
            );
            errln!("{}", host_advice(&a.allow_host, addr.port()));
        }
        let shown = if a.host.first().is_unspecified() {
            SocketAddr::new([127, 0, 0, 1].into(), addr.port())
        } else {
            addr
        };
        let url = format!("http://{shown}/");
        outln!("damier lab at {url} (Ctrl-C stops)")?;
        output::flush_stdout()?;
        if a.open {
            open_browser(&url);
        }
        let shutdown = async {
            while !interrupt::control().cancelled() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        };
        let serving = damier_web::serve(listeners, settings, shutdown);
        match panic_after {
            None => serving.await,
            Some(after) => tokio::select! {
                served = serving => served,
                () = tokio::time::sleep(after) => panic!("DAMIER_TEST_SERVER_PANIC_MS: the server fails"),
            },
        }
        .context("the server stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// What the warning of a non-loopback host says about the names pages may use: only this
/// machine's IP addresses and the names of `--allow-host`.
fn host_advice(allowed: &[String], port: u16) -> String {
    let rule = "other names are refused (421), which stops DNS rebinding";
    if allowed.is_empty() {
        format!(
            "damier: note: open the lab by this machine's IP address (http://IP:{port}/); to let \
             people use its name, add --allow-host NAME (once per name, e.g. --allow-host \
             lab.local): {rule}"
        )
    } else {
        let names: Vec<String> = allowed.iter().map(|n| format!("http://{n}:{port}/")).collect();
        format!(
            "damier: note: the lab answers at this machine's IP addresses and at {}; {rule}",
            names.join(", ")
        )
    }
}

/// Starts the desktop's browser on `url`; a failure is a warning only.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        errln!("damier: warning: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}

/// The served commands as `(group, command)`, for `damier_web::Settings::served`: the request
/// layer's paths ([`damier_api::PATHS`]). Benchmarks, timings, exports and the multi-machine
/// `sum` are not served: they measure the machine or write files.
pub fn served() -> Vec<(String, String)> {
    let paths = damier_api::PATHS.iter().filter_map(|p| p.split_once('/'));
    paths.map(|(g, c)| (g.to_string(), c.to_string())).collect()
}

/// `damier __api GROUP COMMAND`: reads the JSON object on stdin as the request of `group
/// command` and answers it ([`request::answer`]).
pub fn api(a: ApiArgs) -> anyhow::Result<ExitCode> {
    let (Some(group), Some(command)) = (a.group, a.command) else {
        for (group, command) in served() {
            outln!("{group} {command}")?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    let mut body = String::new();
    crate::util::input::stdin()
        .take(damier_web::MAX_BODY as u64 + 1)
        .read_to_string(&mut body)
        .context("cannot read the request")?;
    anyhow::ensure!(
        body.len() <= damier_web::MAX_BODY,
        "the request is larger than {} bytes",
        damier_web::MAX_BODY
    );
    let fields: serde_json::Value = if body.trim().is_empty() {
        serde_json::json!({})
    } else {
        serde_json::from_str(&body).context("malformed JSON")?
    };
    request::answer(&format!("{group}/{command}"), &fields, a.allow_heavy)
}

#[cfg(test)]
mod tests;

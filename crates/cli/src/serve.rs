//! `madang serve`: the web app's server (`crates/server`, protocol in `docs/api.md`).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use madang_server::{Config, Server, Synchronous};

/// Options of `madang serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Folder for the SQLite database and the cookie signing key [default: the user's data
    /// directory, e.g. ~/.local/share/madang].
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Database URL: sqlite://PATH or postgres://USER:PASSWORD@HOST/DB [default:
    /// sqlite://<data-dir>/madang.db].
    #[arg(long)]
    database: Option<String>,
    /// Let clients fix a game's seed (for tests; off by default).
    #[arg(long)]
    allow_fixed_seed: bool,
    /// SQLite durability: `normal` survives a crash of the server process, `full` also power
    /// loss (an fsync per command).
    #[arg(long, default_value = "normal", value_parser = parse_synchronous)]
    synchronous: Synchronous,
    /// The address people reach this server at (e.g. https://madang.example.org), for room
    /// invite links and the origins allowed to open WebSockets [default: the request's host].
    #[arg(long, value_parser = parse_public_url)]
    public_url: Option<String>,
    /// Run as one node of a cluster: how the other nodes reach this one (http://HOST:PORT, on
    /// a private network). Needs --database postgres://…, shared by every node; see
    /// docs/server.md, "Running several nodes".
    #[arg(long, value_parser = parse_node_url)]
    node_url: Option<String>,
    /// With --node-url: seconds after which a node that stopped renewing (paused, cut off)
    /// counts as dead and its games and rooms may be taken over (a killed process counts as
    /// dead at once).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..=300), requires = "node_url")]
    lease_seconds: u64,
}

fn parse_node_url(text: &str) -> Result<String, String> {
    madang_server::cluster::authority(text)?;
    Ok(text.trim_end_matches('/').to_owned())
}

fn parse_synchronous(text: &str) -> Result<Synchronous, String> {
    text.parse()
}

fn parse_public_url(text: &str) -> Result<String, String> {
    let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.starts_with('/') => Ok(text.trim_end_matches('/').to_owned()),
        _ => Err(format!("expected http://HOST[:PORT] or https://HOST[:PORT], got {text:?}")),
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let data_dir = match args.data_dir {
        Some(dir) => dir,
        None => dirs::data_dir().context("no user data directory is known here: pass --data-dir")?.join("madang"),
    };
    let config = Config {
        bind: args.bind,
        data_dir,
        database: args.database,
        allow_fixed_seed: args.allow_fixed_seed,
        synchronous: args.synchronous,
        public_url: args.public_url,
        rooms: madang_server::rooms::RoomConfig::default(),
        limits: madang_server::Limits::default(),
        files: Some(files),
        cluster: args.node_url.map(|url| {
            let lease = std::time::Duration::from_secs(args.lease_seconds);
            madang_server::cluster::ClusterConfig { node_url: url, lease, heartbeat: lease / 5 }
        }),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        let addr = server.local_addr()?;
        // One line: whoever waits for it may stop reading after it.
        let node = match server.node() {
            Some((url, node)) => format!("; node {node} of a cluster, reached by the other nodes at {url}"),
            None => String::new(),
        };
        outln!("madang is serving on http://{addr}/ (API: http://{addr}/api, see docs/api.md){node}")?;
        server.run(madang_server::shutdown_signal()).await?;
        anyhow::Ok(())
    })
}

/// The browser client's files (`madang-web`), as the server serves them.
fn files(path: &str) -> Option<madang_server::web::StaticFile> {
    madang_web::get(path).map(|f| madang_server::web::StaticFile { data: f.data, mime: f.mime, etag: f.etag })
}

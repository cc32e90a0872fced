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
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        let addr = server.local_addr()?;
        println!("madang is serving on http://{addr}/ (API: http://{addr}/api, see docs/api.md)");
        server.run(madang_server::shutdown_signal()).await?;
        anyhow::Ok(())
    })
}

/// The browser client's files (`madang-web`), as the server serves them.
fn files(path: &str) -> Option<madang_server::web::StaticFile> {
    madang_web::get(path).map(|f| madang_server::web::StaticFile { data: f.data, mime: f.mime, etag: f.etag })
}

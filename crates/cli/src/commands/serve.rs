//! `eloworld serve`: the live web dashboard over a store (see the `eloworld-serve` crate).

use anyhow::Context;
use eloworld_serve::{ServeConfig, Server, Token, DEFAULT_BIND};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Serve a live, read-only web dashboard of the tournaments in a store.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The store: an SQLite file or a PostgreSQL URL.
    #[arg(long)]
    db: String,
    /// The address to listen on; anything but a loopback address needs --token-file.
    #[arg(long, default_value = DEFAULT_BIND)]
    bind: SocketAddr,
    /// A file whose first line is the token every request must carry (`Authorization: Bearer
    /// TOKEN`, or a first visit with `?token=TOKEN`).
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// Seconds between two reads of the store.
    #[arg(long, default_value_t = 1.0)]
    poll: f64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(args.poll.is_finite() && (0.05..=60.0).contains(&args.poll)) {
        anyhow::bail!("--poll {}: expected seconds between 0.05 and 60", args.poll);
    }
    let token = match &args.token_file {
        Some(path) => Some(Token::from_file(path)?),
        None => None,
    };
    let config = ServeConfig {
        store: args.db.clone(),
        bind: args.bind,
        token,
        poll: Duration::from_secs_f64(args.poll),
    };
    config.check()?;
    let stop = crate::interrupt::stop_on_ctrl_c(None);
    let server = Server::start(config).with_context(|| format!("serving {}", args.db))?;
    eprintln!(
        "serving {} at http://{}/ (read-only{}); Ctrl-C stops",
        eloworld_tournament::store::redact(&args.db),
        server.addr(),
        if args.token_file.is_some() {
            ", token required"
        } else {
            ""
        }
    );
    while !stop.load(Ordering::SeqCst) && !server.finished() {
        std::thread::sleep(Duration::from_millis(100));
    }
    server.stop()?;
    Ok(ExitCode::SUCCESS)
}

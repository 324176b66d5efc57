//! The live web dashboard of eloworld (`eloworld serve`): one page per tournament of a store,
//! updated while games are stored, and a game viewer — read-only over the store.
//!
//! A poller thread follows the store incrementally (only games stored since the last read,
//! [`eloworld_tournament::Store::results_since`]) and keeps each tournament's counts and
//! ratings in memory; pages are rendered from that state, and open pages receive the parts
//! that changed as server-sent events. Pictures and the report's tables come from
//! `eloworld-report`, the same code as the static HTML report.
//!
//! Security: no route writes to the store; the server binds to the loopback address unless
//! told otherwise, and refuses a non-loopback address without a token; with a token, every
//! request must carry it (`Authorization: Bearer`, or the cookie set by a first visit with
//! `?token=`), compared in constant time. Every string from the store is escaped (maud escapes
//! by default; the report's sections escape their own).
#![deny(missing_docs)]

mod auth;
mod bracket_page;
mod error;
mod game_page;
mod live;
mod pages;
mod poller;
mod rating;
mod routes;

pub use auth::Token;
pub use error::ServeError;

use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The address the server binds to unless told otherwise.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The store's location (`--db`: an SQLite file or a PostgreSQL URL).
    pub store: String,
    /// The address to listen on.
    pub bind: SocketAddr,
    /// The token every request must carry (required for a non-loopback address).
    pub token: Option<Token>,
    /// How often the store is asked for new games.
    pub poll: Duration,
}

impl ServeConfig {
    /// Returns a configuration for `store` on the default address, polling every second.
    ///
    /// # Panics
    /// Never: the default address is a valid literal.
    #[must_use]
    pub fn new(store: &str) -> ServeConfig {
        ServeConfig {
            store: store.to_owned(),
            #[expect(clippy::unwrap_used, reason = "a constant that parses")]
            bind: DEFAULT_BIND.parse().unwrap(),
            token: None,
            poll: Duration::from_secs(1),
        }
    }

    /// Checks that the configuration is safe to start: a non-loopback address needs a token.
    ///
    /// # Errors
    /// [`ServeError::TokenRequired`].
    pub fn check(&self) -> Result<(), ServeError> {
        if !self.bind.ip().is_loopback() && self.token.is_none() {
            return Err(ServeError::TokenRequired { bind: self.bind });
        }
        Ok(())
    }
}

/// A store followed and its pages rendered, without serving them: what the server does on
/// each poll, for callers that drive it themselves (benchmarks, tests).
pub struct Dashboard {
    hub: Arc<poller::Hub>,
    poller: poller::Poller,
}

impl Dashboard {
    /// Opens the store and reads what it holds.
    ///
    /// # Errors
    /// Store errors naming the store.
    pub fn open(store: &str) -> Result<Dashboard, ServeError> {
        let follow = eloworld_tournament::open_store(store, false)?;
        let stop = Arc::new(AtomicBool::new(false));
        let (hub, poller) = poller::Poller::new(follow, &stop)?;
        Ok(Dashboard { hub, poller })
    }

    /// Reads what was stored since the last read and renders what changed: one update.
    ///
    /// # Errors
    /// Store errors.
    pub fn refresh(&mut self) -> Result<(), ServeError> {
        self.poller.round(false)
    }

    /// Returns a tournament's page as the server would send it.
    #[must_use]
    pub fn tournament_page(&self, name: &str) -> Option<String> {
        let view = self.hub.tournament(name)?.borrow().clone();
        Some(pages::tournament_page(&view).into_string())
    }

    /// Returns the version of a tournament's page (it increases on every change).
    #[must_use]
    pub fn tournament_version(&self, name: &str) -> Option<u64> {
        Some(self.hub.tournament(name)?.borrow().version)
    }
}

/// A running server: its address, and the threads to stop.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    http: Option<JoinHandle<Result<(), ServeError>>>,
    poller: Option<JoinHandle<()>>,
}

impl Server {
    /// Opens the store, reads what it holds, binds the address and starts serving.
    ///
    /// # Errors
    /// [`ServeError::TokenRequired`] for a non-loopback address without a token; store errors
    /// naming the store; [`ServeError::Bind`] when the address cannot be bound.
    pub fn start(config: ServeConfig) -> Result<Server, ServeError> {
        config.check()?;
        let follow = eloworld_tournament::open_store(&config.store, false)?;
        let reader = eloworld_tournament::open_store(&config.store, false)?;
        let stop = Arc::new(AtomicBool::new(false));
        let (hub, mut poller) = poller::Poller::new(follow, &stop)?;
        let listener = TcpListener::bind(config.bind).map_err(|source| ServeError::Bind {
            addr: config.bind,
            source,
        })?;
        let addr = listener.local_addr().map_err(|source| ServeError::Bind {
            addr: config.bind,
            source,
        })?;
        listener
            .set_nonblocking(true)
            .map_err(|source| ServeError::Bind {
                addr: config.bind,
                source,
            })?;
        let state = routes::AppState::new(hub, reader, config.token.clone());
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(4)
            .thread_name("eloworld-serve")
            .enable_all()
            .build()
            .map_err(ServeError::Runtime)?;
        let (shutdown, on_shutdown) = tokio::sync::oneshot::channel::<()>();
        let app = routes::router(state);
        let http = std::thread::Builder::new()
            .name("eloworld-serve-http".to_owned())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener =
                        tokio::net::TcpListener::from_std(listener).map_err(ServeError::Runtime)?;
                    axum::serve(listener, app)
                        .with_graceful_shutdown(async move {
                            let _ = on_shutdown.await;
                        })
                        .await
                        .map_err(ServeError::Runtime)
                })?;
                runtime.shutdown_timeout(Duration::from_secs(1));
                Ok(())
            })
            .map_err(ServeError::Runtime)?;
        let poll = config.poll;
        let poller = std::thread::Builder::new()
            .name("eloworld-serve-poller".to_owned())
            .spawn(move || poller.run(poll))
            .map_err(ServeError::Runtime)?;
        Ok(Server {
            addr,
            stop,
            shutdown: Some(shutdown),
            http: Some(http),
            poller: Some(poller),
        })
    }

    /// Returns the address the server listens on (with the port chosen when `:0` was asked).
    #[must_use]
    pub const fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Returns whether the server has stopped by itself (an error in the HTTP thread).
    #[must_use]
    pub fn finished(&self) -> bool {
        self.http.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Stops serving (open event streams are closed) and waits for the threads.
    ///
    /// # Errors
    /// The HTTP server's error, if it failed.
    pub fn stop(mut self) -> Result<(), ServeError> {
        self.halt()
    }

    fn halt(&mut self) -> Result<(), ServeError> {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
        if let Some(p) = self.poller.take() {
            let _ = p.join();
        }
        match self.http.take() {
            Some(h) => h
                .join()
                .unwrap_or_else(|_| Err(ServeError::Internal("the HTTP thread panicked".into()))),
            None => Ok(()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.halt();
    }
}

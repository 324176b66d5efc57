//! What can stop the dashboard from starting or serving.

use std::net::SocketAddr;

/// An error of the dashboard server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A non-loopback address was asked for without a token.
    #[error(
        "refusing to listen on {bind} without a token: anyone who can reach it could read the store; \
         give --token-file FILE (every request then needs it), or bind to 127.0.0.1"
    )]
    TokenRequired {
        /// The address asked for.
        bind: SocketAddr,
    },
    /// The token file is unusable.
    #[error("token file {path}: {why}")]
    Token {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The store cannot be read.
    #[error(transparent)]
    Store(#[from] eloworld_tournament::StoreError),
    /// The runtime or a thread could not start, or the server failed.
    #[error("server: {0}")]
    Runtime(std::io::Error),
    /// Something that should not happen.
    #[error("internal error: {0}")]
    Internal(String),
}

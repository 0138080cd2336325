//! `bailab serve`: a local web app to watch records step by step, play against the agents and
//! read runs (docs/serve.md). An axum server on tokio answers a JSON API over the crate's engines
//! and seat views (the browser only draws what it is sent), and serves the app's files, built
//! into the binary. The games in play are bounded in number and dropped when idle; files are
//! read only from the paths given on the command line.

pub mod assets;
pub mod catalog;
pub mod create;
pub mod error;
pub mod files;
pub mod hints;
pub mod live;
pub mod records;
pub mod routes;
pub mod runs;
pub mod steps;
pub mod store;
pub mod view;

use files::Files;
use routes::{router, App};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::Store;

/// How the server is started.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (loopback by default).
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// The record files, run folders, deal files and agents' files it may read.
    pub paths: Vec<PathBuf>,
    /// The most games in play at once.
    pub max_games: usize,
    /// How long a game may stay unused before it is dropped.
    pub idle: Duration,
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A path given cannot be read.
    #[error(transparent)]
    Path(#[from] files::PathError),
    /// The address cannot be listened on.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        error: std::io::Error,
    },
    /// The server failed while running.
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Serves until Ctrl-C (or SIGTERM); `ready` is told the address listened on once it listens.
pub fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let files = Files::new(&config.paths)?;
    let app = Arc::new(App {
        files,
        store: Store::new(config.max_games, config.idle),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let addr = format!("{}:{}", config.host, config.port);
        let listener = tokio::net::TcpListener::bind(&addr)
            .await
            .map_err(|error| ServeError::Listen { addr, error })?;
        ready(listener.local_addr()?);
        let sweeper = Arc::clone(&app);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(60)).await;
                sweeper.store.expire();
            }
        });
        axum::serve(listener, router(app))
            .with_graceful_shutdown(stopped())
            .await?;
        Ok(())
    })
}

/// Resolves on Ctrl-C or SIGTERM.
async fn stopped() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

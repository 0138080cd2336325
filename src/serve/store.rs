//! The games in play, by random id: bounded in number, and a game left idle past the expiry is
//! dropped. Each game has its own lock, so many tabs play at once.

use super::error::ApiError;
use super::live::Live;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A game in play, locked while a request uses it.
pub type Shared = Arc<Mutex<Box<dyn Live>>>;

/// One game and when a request last used it.
struct Slot {
    game: Shared,
    used: Instant,
}

/// The games in play.
pub struct Store {
    games: Mutex<HashMap<String, Slot>>,
    /// The most games in play at once.
    cap: usize,
    /// How long a game may stay unused before it is dropped.
    idle: Duration,
    /// Ids made so far (mixed into the next).
    made: AtomicU64,
    /// A per-process random key (std's randomly keyed hasher).
    key: std::collections::hash_map::RandomState,
}

impl Store {
    /// An empty store of at most `cap` games, each dropped after `idle` unused.
    pub fn new(cap: usize, idle: Duration) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            cap,
            idle,
            made: AtomicU64::new(0),
            key: std::collections::hash_map::RandomState::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Slot>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new unguessable id: 128 bits from the process's random hasher key, a counter and the
    /// time.
    fn new_id(&self) -> String {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let half = |salt: u64| {
            let mut h = self.key.build_hasher();
            h.write_u64(salt);
            h.write_u64(n);
            h.write_u64(nanos);
            h.finish()
        };
        format!("{:016x}{:016x}", half(1), half(2))
    }

    /// Keeps `game` under a new id; when the store is full even after dropping idle games, 503.
    pub fn insert(&self, game: Box<dyn Live>) -> Result<String, ApiError> {
        let mut games = self.lock();
        let idle = self.idle;
        games.retain(|_, s| s.used.elapsed() < idle);
        if games.len() >= self.cap {
            return Err(ApiError::Full(format!(
                "{} games are in play, the most this server keeps: finish or leave one (idle \
                 games are dropped after {} min)",
                self.cap,
                self.idle.as_secs() / 60
            )));
        }
        let id = self.new_id();
        let slot = Slot {
            game: Arc::new(Mutex::new(game)),
            used: Instant::now(),
        };
        games.insert(id.clone(), slot);
        Ok(id)
    }

    /// The game `id`, marked as used now.
    pub fn get(&self, id: &str) -> Result<Shared, ApiError> {
        let mut games = self.lock();
        match games.get_mut(id) {
            Some(slot) if slot.used.elapsed() < self.idle => {
                slot.used = Instant::now();
                Ok(Arc::clone(&slot.game))
            }
            _ => Err(ApiError::NotFound(format!(
                "no game {id} (never made, or dropped after {} min idle)",
                self.idle.as_secs() / 60
            ))),
        }
    }

    /// Drops the games idle past the expiry; returns how many remain.
    pub fn expire(&self) -> usize {
        let mut games = self.lock();
        let idle = self.idle;
        games.retain(|_, s| s.used.elapsed() < idle);
        games.len()
    }
}

/// Locks a game (a request that panicked while holding it leaves it as it was).
pub fn lock(game: &Shared) -> MutexGuard<'_, Box<dyn Live>> {
    game.lock().unwrap_or_else(|e| e.into_inner())
}

//! Position files: one seat's view of a game in progress, written by hand as TOML, from which
//! full states are dealt by resampling the hidden cards (`bailab equity`, docs/equity.md).
//!
//! Each game reads its own keys (`src/games/<game>/position.rs`) into a [`Position`]: a full
//! state consistent with the view (the hidden cards filled in once), from which every sample is
//! dealt by the game's own [`SeatView::determinize`]. This module holds what the games share:
//! the [`Position`] value and a strict reader of TOML tables (`Keys`) whose errors name the
//! key at fault and reject unknown keys.

use crate::game::{GameState, Seat, SeatView};
use crate::notation::CardListError;
use crate::rng::GameRng;
use std::fmt::Display;

/// A position read from a file: the seat whose view it is (the seat to decide) and a full state
/// consistent with that view.
#[derive(Clone, Debug)]
pub struct Position<S> {
    /// The seat whose view the file gives; it is to move in `state`.
    pub seat: Seat,
    /// A state consistent with the view (its hidden cards are one arbitrary filling).
    pub state: S,
}

impl<S: GameState> Position<S> {
    /// A full state with the hidden cards dealt at random from what the seat has not seen
    /// (the game's determinization of the seat's view).
    pub fn deal(&self, rng: &mut GameRng) -> S {
        self.state.view(self.seat).determinize(rng)
    }
}

/// A key of a position file that does not read; each names the key in full (`seats.2.public`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// A value of the wrong type (`found`: its type, or the value itself for numbers and flags).
    #[error("'{key}' must be {expected}, not {found}")]
    WrongType {
        /// The key.
        key: String,
        /// What it must be (`a string`).
        expected: &'static str,
        /// What it is.
        found: String,
    },
    /// A list with an entry that is not a string.
    #[error("'{key}' must be a list of strings")]
    NotStrings {
        /// The key.
        key: String,
    },
    /// A seat number outside the table.
    #[error("'{key}' = {seat} is not a seat of {players} (seats 0 to {})", players - 1)]
    NotASeat {
        /// The key.
        key: String,
        /// The number given.
        seat: u64,
        /// The seats at the table.
        players: usize,
    },
    /// A list of seats that is not one, or names a seat outside the table.
    #[error("'{key}' must be a list of seats below {players}, e.g. [1, 2]")]
    NotSeats {
        /// The key.
        key: String,
        /// The seats at the table.
        players: usize,
    },
    /// A key the table does not know.
    #[error("unknown key '{key}' (known here: {known})")]
    Unknown {
        /// The key.
        key: String,
        /// The keys the table knows, comma-separated.
        known: String,
    },
}

/// Why a position file does not read: the keys every game shares (each variant names the key,
/// card or seat), or what one game's own keys refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Text that is not TOML (the message names the file, line and column).
    #[error("{0}")]
    Toml(String),
    /// A key of the wrong type, an unknown key, a seat outside the table.
    #[error(transparent)]
    Key(#[from] KeyError),
    /// A `[seats.N]` table whose name is not a seat of the table.
    #[error(
        "'seats.{key}': a seat table is named by a seat number below {players}, e.g. [seats.1]"
    )]
    SeatTableName {
        /// The name after `seats.`.
        key: String,
        /// The seats at the table.
        players: usize,
    },
    /// A `seats.N` entry that is not a table.
    #[error("'seats.{key}' must be a table")]
    SeatNotTable {
        /// The name after `seats.`.
        key: String,
    },
    /// A `game` key naming another game.
    #[error("'game' = \"{found}\", but this is a {game} position (--game {game})")]
    WrongGame {
        /// The game the file names.
        found: String,
        /// The game being read.
        game: String,
    },
    /// A player count the game does not seat.
    #[error("'players' = {players}: {game} seats {lo} to {hi}")]
    Players {
        /// The count given.
        players: usize,
        /// The game's name.
        game: String,
        /// The fewest seats.
        lo: usize,
        /// The most seats.
        hi: usize,
    },
    /// No `seat` key.
    #[error("'seat' is missing: the seat whose view this is (and who is to decide)")]
    MissingSeat,
    /// A `turn` that is not the view's seat.
    #[error(
        "'turn' = {turn}: the decision is seat {turn}'s, not seat {seat}'s (the view's seat); \
         equity is estimated for the seat to move, so write the position from seat {turn}'s \
         view"
    )]
    TurnNotSeat {
        /// The seat to move, as given.
        turn: Seat,
        /// The view's seat.
        seat: Seat,
    },
    /// More copies of a card than the deck holds.
    #[error("too many copies of {card}: {count} seen ({places}), but the deck holds {copies}")]
    TooManyCopies {
        /// The card.
        card: String,
        /// The copies seen.
        count: u8,
        /// The keys where they were seen, comma-separated.
        places: String,
        /// The copies in the deck.
        copies: u8,
    },
    /// A game without position files.
    #[error("{game} has no position files yet")]
    Unsupported {
        /// The game's name.
        game: &'static str,
    },
    /// No `hand` key.
    #[error("'hand' is missing: {holds}")]
    MissingHand {
        /// What the hand holds, in the game's words (`the seat's cards`).
        holds: &'static str,
    },
    /// A card list that does not read.
    #[error("'{key}': {error}")]
    Cards {
        /// The key (with its table's path).
        key: String,
        /// Why the list does not read.
        error: CardListError,
    },
    /// One item of a list of card lists (a set, a meld) that does not read.
    #[error("'{key}' {item} {index}: {error}")]
    CardsAt {
        /// The key (with its table's path).
        key: String,
        /// What each item is (`set`, `meld`).
        item: &'static str,
        /// The item's 1-based position.
        index: usize,
        /// Why its cards do not read.
        error: CardListError,
    },
    /// A `phase` the game does not know.
    #[error("'phase' = \"{phase}\": write {write}")]
    Phase {
        /// The phase given.
        phase: String,
        /// The phases the game knows, with what each means.
        write: &'static str,
    },
    /// What a game's own keys refuse (the message names the key, card or seat).
    #[error("{0}")]
    Game(String),
}

/// A TOML table being read: every key read is marked, and [`Keys::finish`] rejects the rest.
pub(crate) struct Keys<'a> {
    /// Where the table is, for messages (`""` for the top level, `seats.2` for a seat's table).
    path: String,
    table: &'a toml::Table,
    known: Vec<&'static str>,
}

/// Reads the text of a position file as a TOML table; errors give the line.
pub(crate) fn parse_toml(text: &str, origin: &str) -> Result<toml::Table, PositionError> {
    toml::from_str::<toml::Table>(text).map_err(|e| {
        PositionError::Toml(crate::text::toml_error(
            text,
            origin,
            &e,
            crate::input::POSITION.what,
        ))
    })
}

impl<'a> Keys<'a> {
    /// Starts reading `table`, found at `path`.
    pub(crate) fn new(path: &str, table: &'a toml::Table) -> Keys<'a> {
        Keys {
            path: path.to_string(),
            table,
            known: Vec::new(),
        }
    }

    /// The full name of `key` (`seats.2.public`).
    pub(crate) fn name(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    /// The error for `key` holding `found` where `expected` belongs.
    fn wrong(&self, key: &str, expected: &'static str, found: impl Display) -> KeyError {
        KeyError::WrongType {
            key: self.name(key),
            expected,
            found: found.to_string(),
        }
    }

    fn get(&mut self, key: &'static str) -> Option<&'a toml::Value> {
        self.known.push(key);
        self.table.get(key)
    }

    /// A string value, if given.
    pub(crate) fn str(&mut self, key: &'static str) -> Result<Option<&'a str>, KeyError> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s.as_str())),
            Some(v) => Err(self.wrong(key, "a string", v.type_str())),
        }
    }

    /// A non-negative integer value, if given.
    pub(crate) fn uint(&mut self, key: &'static str) -> Result<Option<u64>, KeyError> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Integer(i)) if *i >= 0 => Ok(Some(*i as u64)),
            Some(v) => Err(self.wrong(key, "a non-negative integer", v)),
        }
    }

    /// A boolean value, if given.
    pub(crate) fn bool(&mut self, key: &'static str) -> Result<Option<bool>, KeyError> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Boolean(b)) => Ok(Some(*b)),
            Some(v) => Err(self.wrong(key, "true or false", v)),
        }
    }

    /// A seat number below `players`, if given.
    pub(crate) fn seat(
        &mut self,
        key: &'static str,
        players: usize,
    ) -> Result<Option<Seat>, KeyError> {
        match self.uint(key)? {
            Some(s) if s < players as u64 => Ok(Some(s as Seat)),
            Some(seat) => Err(KeyError::NotASeat {
                key: self.name(key),
                seat,
                players,
            }),
            None => Ok(None),
        }
    }

    /// A list of seats below `players` (empty when not given).
    pub(crate) fn seats(
        &mut self,
        key: &'static str,
        players: usize,
    ) -> Result<Vec<Seat>, KeyError> {
        let name = self.name(key);
        let Some(v) = self.get(key) else {
            return Ok(Vec::new());
        };
        let bad = || KeyError::NotSeats {
            key: name.clone(),
            players,
        };
        let list = v.as_array().ok_or_else(bad)?;
        list.iter()
            .map(|x| {
                x.as_integer()
                    .filter(|&s| (0..players as i64).contains(&s))
                    .map(|s| s as Seat)
                    .ok_or_else(bad)
            })
            .collect()
    }

    /// A list of strings; a single string counts as a list of one (empty when not given).
    pub(crate) fn strings(&mut self, key: &'static str) -> Result<Vec<&'a str>, KeyError> {
        let name = self.name(key);
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(toml::Value::String(s)) => Ok(vec![s.as_str()]),
            Some(toml::Value::Array(a)) => a
                .iter()
                .map(|x| {
                    x.as_str()
                        .ok_or_else(|| KeyError::NotStrings { key: name.clone() })
                })
                .collect(),
            Some(v) => Err(self.wrong(key, "a list of strings", v.type_str())),
        }
    }

    /// The sub-table `key`, if given.
    pub(crate) fn table(&mut self, key: &'static str) -> Result<Option<&'a toml::Table>, KeyError> {
        match self.get(key) {
            None => Ok(None),
            Some(toml::Value::Table(t)) => Ok(Some(t)),
            Some(v) => Err(self.wrong(key, "a table", v.type_str())),
        }
    }

    /// Rejects every key not read, naming it and the keys this table knows.
    pub(crate) fn finish(self) -> Result<(), KeyError> {
        for key in self.table.keys() {
            if !self.known.contains(&key.as_str()) {
                let mut known = self.known.clone();
                known.sort_unstable();
                known.dedup();
                return Err(KeyError::Unknown {
                    key: self.name(key),
                    known: known.join(", "),
                });
            }
        }
        Ok(())
    }
}

/// The per-seat tables `[seats.N]` of a position: each key must be a seat number below
/// `players`. Returns `(seat, table)` pairs in seat order.
pub(crate) fn seat_tables(
    seats: Option<&toml::Table>,
    players: usize,
) -> Result<Vec<(Seat, &toml::Table)>, PositionError> {
    let Some(seats) = seats else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (key, value) in seats {
        let seat = key
            .parse::<usize>()
            .ok()
            .filter(|&s| s < players)
            .ok_or_else(|| PositionError::SeatTableName {
                key: key.clone(),
                players,
            })?;
        let table = value
            .as_table()
            .ok_or_else(|| PositionError::SeatNotTable { key: key.clone() })?;
        out.push((seat as Seat, table));
    }
    out.sort_by_key(|&(s, _)| s);
    Ok(out)
}

/// The keys every position file shares, read from the top level: the game (checked), the
/// number of players, the seat whose view it is and, if given, whose turn it is (which must be
/// that seat).
pub(crate) struct Common {
    /// Number of players.
    pub players: usize,
    /// The seat whose view this is; it decides.
    pub seat: Seat,
}

impl Common {
    /// Reads `game`, `players` (default `default_players`, within `seats`), `seat` (required)
    /// and `turn` (optional, must equal `seat`).
    pub(crate) fn read(
        keys: &mut Keys<'_>,
        game: &str,
        default_players: usize,
        seats: (usize, usize),
    ) -> Result<Common, PositionError> {
        if let Some(g) = keys.str("game")? {
            if g != game {
                return Err(PositionError::WrongGame {
                    found: g.to_string(),
                    game: game.to_string(),
                });
            }
        }
        let players = keys.uint("players")?.unwrap_or(default_players as u64) as usize;
        if !(seats.0..=seats.1).contains(&players) {
            return Err(PositionError::Players {
                players,
                game: game.to_string(),
                lo: seats.0,
                hi: seats.1,
            });
        }
        let seat = keys
            .seat("seat", players)?
            .ok_or(PositionError::MissingSeat)?;
        if let Some(turn) = keys.seat("turn", players)? {
            if turn != seat {
                return Err(PositionError::TurnNotSeat { turn, seat });
            }
        }
        Ok(Common { players, seat })
    }
}

/// Copies of each card type seen so far, with where they were seen, for the "too many copies"
/// error: `add` counts a card and fails once a type passes its copies.
pub(crate) struct CopyCount<const TYPES: usize> {
    counts: [u8; TYPES],
    copies: u8,
    places: Vec<(usize, String)>,
}

impl<const TYPES: usize> CopyCount<TYPES> {
    /// No card seen yet; `copies` of each type exist.
    pub(crate) fn new(copies: u8) -> Self {
        CopyCount {
            counts: [0; TYPES],
            copies,
            places: Vec::new(),
        }
    }

    /// Counts one card of type index `index` (written `card`), seen at `place` (a key name).
    pub(crate) fn add(
        &mut self,
        index: usize,
        card: &str,
        place: &str,
    ) -> Result<(), PositionError> {
        self.counts[index] += 1;
        self.places.push((index, place.to_string()));
        if self.counts[index] > self.copies {
            let mut at: Vec<&str> = self
                .places
                .iter()
                .filter(|(i, _)| *i == index)
                .map(|(_, p)| p.as_str())
                .collect();
            at.dedup();
            return Err(PositionError::TooManyCopies {
                card: card.to_string(),
                count: self.counts[index],
                places: at.join(", "),
                copies: self.copies,
            });
        }
        Ok(())
    }

    /// The copies counted of each type.
    pub(crate) fn counts(&self) -> &[u8; TYPES] {
        &self.counts
    }

    /// Total cards counted.
    pub(crate) fn total(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }
}

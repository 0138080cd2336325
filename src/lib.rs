//! bailab: a Monte Carlo simulator and AI research toolkit for Vietnamese card games.
//!
//! # Layers
//!
//! The modules stand in layers, bottom to top. A module uses only what lies below it or in its
//! own layer, never what lies above; no two files import each other, even through others, a
//! parent and its child included (a parent declares and re-exports its children; what they share
//! lives in a child). `tests/machinery/layers/` checks both on the source, following every path
//! (`use` trees, inline paths, macro bodies and invocations, re-exports to the module defining
//! the name), with this same table:
//!
//! 0. `fixed`, `cache`, `rng`, `notation`, `text`, `input`: fixed-size containers, the hash cache,
//!    seeded randomness, card notation, small text helpers and the bounded reader of every file
//! 1. `game`, `agent`: the contracts: a game, its state and a seat's view; an agent, its spec,
//!    features and greedy weights
//! 2. `record`, `deal_spec`: building blocks shared by games and the runner: the record format and
//!    partial deals
//! 3. `games`: the games, the `GameKind` trait and the registry
//! 4. `generic_agents`: the generic agents and the catalogue: random, first, ismcts, rules, net
//! 5. `sim`: the seeded game loop, the runner, records of play, statistics and output
//! 6. `study`, `learn`, `train`: studies of deals, equity and tuning; learning rule lists;
//!    training networks
//! 7. `serve`: the local web app: its JSON API over the engines and seat views, and its files
//! 8. `cli`: the commands
//!
//! A game is a folder of [`games`] implementing the contracts of [`game`] and [`agent`] plus
//! [`games::kind::GameKind`], and one entry in the registry ([`games::with_game`]); everything
//! above it is written once for every game. Randomness is derived by [`rng`].
#![warn(unreachable_pub)]

pub mod agent;
pub(crate) mod cache;
pub mod cli;
pub mod deal_spec;
pub mod fixed;
pub mod game;
pub mod games;
pub mod generic_agents;
pub mod input;
pub mod learn;
pub mod notation;
pub mod record;
pub mod rng;
#[cfg(feature = "serve")]
pub mod serve;
pub mod sim;
pub mod study;
pub mod text;
#[cfg(feature = "train")]
pub(crate) mod train;
/// Training a value network for luck-corrected estimates (`docs/variance.md`).
#[cfg(feature = "train")]
pub use train::value::{fit_value_net, ValueFit, ValueTraining};

pub use game::{ActionBuffer, Game, GameState, Outcome, Seat, MAX_SEATS};

//! The games made object-safe for Python: [`Engine`] (a built game), [`Table`] (a game in
//! progress) and [`Seen`] (what one seat sees of it), implemented for every game of the registry
//! by [`GameEngine`], [`GameTable`] and [`SeenBy`], monomorphised through [`with_game`] by
//! [`Build`], so Python reaches each game's own engine with no game named here. A table and a
//! seat's view make each other (a table shows a seat its view; a view determinizes into a
//! table), so they live together.
//!
//! [`SeenBy`] reads the engines' [`OwnedView`], the seat's view only. `bailab.View` holds one,
//! and so does every decision a Python agent is asked.

use bailab::agent::features::{all_features, FeatureRow, MAX_FEATURES};
use bailab::deal_spec::{DealFileError, DealSpec, DealSpecError};
use bailab::game::{ActionBuffer, Decision, GameId, GameState, OwnedView, RuleMap, Seat, SeatView};
use bailab::games::kind::{check_players, GameError, GameKind};
use bailab::games::observe::{layout_len, Segment};
use bailab::games::{with_game, GameVisitor};
use bailab::generic_agents::rules::{feature_rows, greedy};
use bailab::rng::{stream_rng, GameRng};
use bailab::sim::deal::seeds::{seeded_deal, Opening};
use bailab::sim::recorder::Recorder;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::PyErr;
use std::any::Any;
use std::sync::Arc;

/// The stream of the RNG a seed given from Python seeds (`determinize(seed)`, feature rows).
const PYTHON_STREAM: u64 = 0x5059_7468_6f6e;

/// The RNG a seed given from Python stands for.
pub fn python_rng(seed: u64) -> GameRng {
    stream_rng(seed, 0, PYTHON_STREAM)
}

/// A built game (variant, players, rules), whatever the game.
pub trait Engine: Send + Sync {
    /// Deals game `index` of master seed `seed`, exactly as `bailab play --seed S --index I`.
    fn deal(&self, seed: u64, index: u64) -> Box<dyn Table>;
    /// Deals the deck text `deck` (the spec's dealing order), as `bailab play --deck`, with the
    /// record setup facts `setup` (none: the defaults).
    fn deal_from_deck(&self, deck: &str, setup: &RuleMap) -> Result<Box<dyn Table>, EngineError>;
    /// Deals deal `index` of seed `seed` from a deal specification (TOML text, docs/deals-spec.md),
    /// as `bailab play --deal FILE --seed S --index I`.
    fn deal_partial(
        &self,
        spec: &str,
        seed: u64,
        index: u64,
    ) -> Result<Box<dyn Table>, EngineError>;
    /// The game's name, variant and seats.
    fn describe(&self) -> (&'static str, &'static str, usize);
    /// The rule options in force, as a JSON object.
    fn rules(&self) -> RuleMap;
    /// The layout of a view's tensor.
    fn tensor_layout(&self) -> Vec<Segment>;
    /// The layout of an action's vector.
    fn action_layout(&self) -> Vec<Segment>;
    /// The names of the rule-learner's features, in row order.
    fn feature_names(&self) -> Vec<&'static str>;
    /// The most legal actions a decision can have.
    fn max_actions(&self) -> usize;
    /// The payout scale of the table: what a network's targets are payouts over.
    fn payout_scale(&self) -> f64;
    /// The game as [`Any`], for code that knows its type.
    fn as_any(&self) -> &dyn Any;
}

/// Why a game cannot be built or dealt as asked (`ValueError` in Python, whatever the kind); the
/// text is the message.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A game name the registry does not know, or a variant, player count, rule option or
    /// recorded deck the game refuses.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A deal specification that does not read as TOML or mixes its layouts.
    #[error(transparent)]
    DealFile(#[from] DealFileError),
    /// A deal specification the game refuses (naming the key, seat or card).
    #[error(transparent)]
    DealSpec(#[from] DealSpecError),
}

impl From<EngineError> for PyErr {
    fn from(error: EngineError) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}

/// What a game in progress refuses: an action when the game is over or of an index out of range
/// (`IndexError` in Python), a record of a game that cannot have one (`ValueError`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// An action after the end.
    #[error("the game is over")]
    Over,
    /// An action index beyond the legal actions.
    #[error("action index {index} out of range: seat {seat} has {legal} legal actions")]
    OutOfRange {
        /// The index given.
        index: usize,
        /// The seat to decide.
        seat: Seat,
        /// Its number of legal actions.
        legal: usize,
    },
    /// A record of a determinized state.
    #[error("a determinized state has no record (it starts mid-game)")]
    Determinized,
    /// A record of a game not over.
    #[error("the game is not over: a record is of a finished game")]
    NotOver,
    /// The record could not be written as JSON (serde's message).
    #[error("{0}")]
    Json(String),
}

impl From<TableError> for PyErr {
    fn from(error: TableError) -> PyErr {
        match error {
            TableError::Over | TableError::OutOfRange { .. } => {
                PyIndexError::new_err(error.to_string())
            }
            TableError::Determinized | TableError::NotOver | TableError::Json(_) => {
                PyValueError::new_err(error.to_string())
            }
        }
    }
}

/// A game in progress, whatever the game.
pub trait Table: Send {
    /// The seat to decide, or `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// The legal actions of the seat to decide, in the game's notation and canonical order.
    fn legal(&self) -> Vec<String>;
    /// Applies the legal action of index `index` (then every forced move that follows).
    fn apply(&mut self, index: usize) -> Result<(), TableError>;
    /// A copy.
    fn boxed(&self) -> Box<dyn Table>;
    /// Every seat's payout, once the game is over.
    fn payouts(&self) -> Option<Vec<i64>>;
    /// The game's record (the JSON `bailab play --json` writes and `bailab check` reads).
    fn record(&self, agents: &[String]) -> Result<String, TableError>;
    /// What seat `seat` sees now (a copy).
    fn seen(&self, seat: Seat) -> Box<dyn Seen>;
    /// The table as [`Any`], for code that knows its game.
    fn as_any(&self) -> &dyn Any;
}

/// [`Engine`] for the game `G`.
pub struct GameEngine<G: GameKind> {
    /// The game.
    pub game: Arc<G>,
}

/// [`Table`] for the game `G`: the deal, the decisions taken since, and the state now.
pub struct GameTable<G: GameKind> {
    /// The game.
    pub game: Arc<G>,
    /// Which game of which seed (for the record).
    id: GameId,
    /// The state dealt, or `None` for a determinized state (which has no record).
    start: Option<G::State>,
    /// The state now.
    pub state: G::State,
    /// Every decision taken since the deal.
    decisions: Vec<(Decision, <G::State as GameState>::Action)>,
}

impl<G: GameKind> Clone for GameTable<G> {
    fn clone(&self) -> Self {
        GameTable {
            game: Arc::clone(&self.game),
            id: self.id,
            start: self.start.clone(),
            state: self.state.clone(),
            decisions: self.decisions.clone(),
        }
    }
}

impl<G: GameKind> GameEngine<G> {
    fn table(&self, id: GameId, start: G::State) -> Box<dyn Table> {
        Box::new(GameTable {
            game: Arc::clone(&self.game),
            id,
            state: start.clone(),
            start: Some(start),
            decisions: Vec::new(),
        })
    }
}

impl<G: GameKind + Send + Sync> Engine for GameEngine<G> {
    fn deal(&self, seed: u64, index: u64) -> Box<dyn Table> {
        let start = seeded_deal(&*self.game, seed, index);
        self.table(game_id(seed, index), start)
    }
    fn deal_from_deck(&self, deck: &str, setup: &RuleMap) -> Result<Box<dyn Table>, EngineError> {
        let start = self.game.deal_recorded(deck, setup)?;
        Ok(self.table(game_id(0, 0), start))
    }
    fn deal_partial(
        &self,
        spec: &str,
        seed: u64,
        index: u64,
    ) -> Result<Box<dyn Table>, EngineError> {
        let plan = DealSpec::parse(spec, "the deal specification")?.check(&*self.game)?;
        let start = Opening::Plan(&plan).deal(&*self.game, seed, index);
        Ok(self.table(game_id(seed, index), start))
    }
    fn describe(&self) -> (&'static str, &'static str, usize) {
        (G::INFO.name, self.game.variant(), self.game.seats())
    }
    fn rules(&self) -> RuleMap {
        self.game.rules()
    }
    fn tensor_layout(&self) -> Vec<Segment> {
        self.game.tensor_layout()
    }
    fn action_layout(&self) -> Vec<Segment> {
        self.game.action_layout()
    }
    fn feature_names(&self) -> Vec<&'static str> {
        all_features(G::FEATURES).map(|f| f.name).collect()
    }
    fn max_actions(&self) -> usize {
        <<G::State as GameState>::Actions as ActionBuffer<_>>::CAPACITY
    }
    fn payout_scale(&self) -> f64 {
        bailab::generic_agents::net::payout_scale(&*self.game)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The id of game `index` of seed `seed`, unrotated.
fn game_id(seed: u64, index: u64) -> GameId {
    GameId {
        master: seed,
        deal: index,
        rotation: 0,
    }
}

impl<G: GameKind + Send + Sync> GameTable<G> {
    /// A table of a determinized state: no deal, so no record.
    pub fn determinized(game: Arc<G>, state: G::State) -> Self {
        GameTable {
            game,
            id: game_id(0, 0),
            start: None,
            state,
            decisions: Vec::new(),
        }
    }
    /// The legal actions of the seat to decide (none once the game is over).
    pub fn legal_actions(&self) -> <G::State as GameState>::Actions {
        let mut out = <G::State as GameState>::Actions::default();
        if self.state.to_move().is_some() {
            self.state.legal_actions(&mut out);
        }
        out
    }
}

impl<G: GameKind + Send + Sync> Table for GameTable<G> {
    fn to_move(&self) -> Option<Seat> {
        self.state.to_move()
    }
    fn legal(&self) -> Vec<String> {
        let legal = self.legal_actions();
        legal.as_slice().iter().map(|a| a.to_string()).collect()
    }
    fn apply(&mut self, index: usize) -> Result<(), TableError> {
        let seat = self.state.to_move().ok_or(TableError::Over)?;
        let legal = self.legal_actions();
        let actions = legal.as_slice();
        let &action = actions.get(index).ok_or(TableError::OutOfRange {
            index,
            seat,
            legal: actions.len(),
        })?;
        self.state.apply(action);
        let decision = Decision {
            seat,
            legal: actions.len(),
            chosen: index,
        };
        self.decisions.push((decision, action));
        Ok(())
    }
    fn boxed(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn payouts(&self) -> Option<Vec<i64>> {
        self.state.outcome().map(|o| o.payouts().to_vec())
    }
    fn record(&self, agents: &[String]) -> Result<String, TableError> {
        let Some(start) = &self.start else {
            return Err(TableError::Determinized);
        };
        if self.state.to_move().is_some() {
            return Err(TableError::NotOver);
        }
        let mut recorder = Recorder::<G>::default();
        let mut state = start.clone();
        recorder.observe(&state, None);
        for &(decision, action) in &self.decisions {
            state.apply(action);
            recorder.observe(&state, Some((decision, action)));
        }
        let python = vec!["python".to_string(); self.game.seats()];
        let agents = if agents.is_empty() {
            &python[..]
        } else {
            agents
        };
        let record = recorder.finish(&self.game, start, &state, agents, Some(self.id));
        serde_json::to_string(&record).map_err(|e| TableError::Json(e.to_string()))
    }
    fn seen(&self, seat: Seat) -> Box<dyn Seen> {
        Box::new(SeenBy {
            game: Arc::clone(&self.game),
            owned: OwnedView::new(self.state.clone(), seat),
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Builds a game by its name through the registry.
pub struct Build<'a> {
    /// The variant.
    pub variant: &'a str,
    /// The number of players.
    pub players: usize,
    /// The rule options.
    pub rules: &'a RuleMap,
}

impl GameVisitor for Build<'_> {
    type Output = Result<Arc<dyn Engine>, EngineError>;
    fn visit<G: GameKind>(self) -> Self::Output {
        check_players(&G::INFO, self.players).map_err(GameError::from)?;
        let game = G::build(self.variant, self.players, self.rules)?;
        Ok(Arc::new(GameEngine {
            game: Arc::new(game),
        }))
    }
}

/// Builds the engine of game `name`.
pub fn build_engine(
    name: &str,
    variant: &str,
    players: usize,
    rules: &RuleMap,
) -> Result<Arc<dyn Engine>, EngineError> {
    let build = Build {
        variant,
        players,
        rules,
    };
    with_game(name, build)?
}

/// One seat's view, whatever the game.
pub trait Seen: Send {
    /// The seat whose view this is.
    fn seat(&self) -> Seat;
    /// Whether this seat is the one to decide.
    fn deciding(&self) -> bool;
    /// The legal actions when this seat decides (else none), in the game's notation.
    fn legal(&self) -> Vec<String>;
    /// The observation (JSON).
    fn observation(&self) -> serde_json::Value;
    /// Writes the tensor into `out` (the tensor layout's length).
    fn tensor(&self, out: &mut [f32]);
    /// Writes the vector of every legal action into `out`, row after row, and returns the rows.
    fn action_vectors(&self, out: &mut Vec<f32>) -> usize;
    /// The rule-learner's feature rows of the legal actions.
    fn feature_rows(&self) -> Vec<FeatureRow>;
    /// A whole state consistent with this view, hidden cards resampled with `seed`'s RNG.
    fn determinize(&self, seed: u64) -> Box<dyn Table>;
    /// The view as [`Any`], for code that knows its game.
    fn as_any(&self) -> &dyn Any;
}

/// [`Seen`] for the game `G`.
pub struct SeenBy<G: GameKind> {
    /// The game.
    pub game: Arc<G>,
    /// The seat's view, owning its copy of the state.
    pub owned: OwnedView<G::State>,
}

impl<G: GameKind> SeenBy<G> {
    /// The legal actions when this seat decides (else none).
    pub fn legal_actions(&self) -> <G::State as GameState>::Actions {
        let mut out = <G::State as GameState>::Actions::default();
        self.owned.legal_actions(&mut out);
        out
    }
}

impl<G: GameKind + Send + Sync> Seen for SeenBy<G> {
    fn seat(&self) -> Seat {
        self.owned.seat()
    }
    fn deciding(&self) -> bool {
        self.owned.deciding()
    }
    fn legal(&self) -> Vec<String> {
        let legal = self.legal_actions();
        legal.as_slice().iter().map(|a| a.to_string()).collect()
    }
    fn observation(&self) -> serde_json::Value {
        self.game.observation(&self.owned.view())
    }
    fn tensor(&self, out: &mut [f32]) {
        self.game.tensor(&self.owned.view(), out)
    }
    fn action_vectors(&self, out: &mut Vec<f32>) -> usize {
        let width = layout_len(&self.game.action_layout());
        let legal = self.legal_actions();
        out.clear();
        out.resize(width * legal.as_slice().len(), 0.0);
        let view = self.owned.view();
        for (row, &action) in out.chunks_mut(width.max(1)).zip(legal.as_slice()) {
            self.game.action_vector(&view, action, row);
        }
        legal.as_slice().len()
    }
    fn feature_rows(&self) -> Vec<FeatureRow> {
        let legal = self.legal_actions();
        let mut rows = vec![[0; MAX_FEATURES]; legal.as_slice().len()];
        if !rows.is_empty() {
            let mut teacher = greedy::<G>();
            let view = self.owned.view();
            let (legal, rng) = (legal.as_slice(), &mut python_rng(0));
            feature_rows::<G>(&view, legal, &mut *teacher, &mut rows, rng);
        }
        rows
    }
    fn determinize(&self, seed: u64) -> Box<dyn Table> {
        let state = self.owned.view().determinize(&mut python_rng(seed));
        Box::new(GameTable::determinized(Arc::clone(&self.game), state))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

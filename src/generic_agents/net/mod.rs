//! The learned agent `net:FILE`: the legal action of highest Q under an action-value network
//! ([`qnet`]) read from a file ([`file`](mod@file)) that `bailab train` (or
//! `examples/train_dmc.py`) wrote. It reads the seat's view only, through the game's view tensor
//! and action vectors (`docs/observations.md`), and allocates nothing per decision. With `eps=` it
//! plays a uniform legal action with that probability, with `temperature=` it samples from the
//! softmax of Q; both draw from the seat's own stream. With `margin=` it keeps greedy's move unless
//! the network expects more than that many points from another (without it, the margin the file's
//! header names, if any). With `search=N` a one-step lookahead (as `ismcts`'s) keeps the network's
//! move unless another is clearly better over N greedy playouts (`deviate=`), the network's own Q
//! differences counted as `prior=` playouts of each action (without them, the lookahead the file's
//! header names, if any); with `leaf=q` each playout stops at the seat's next choice, valued by the
//! network there; with `playout=own` or `all` the network plays the seat's own later choices (the
//! first `horizon=` of them), or every seat's, in the playouts.

#[cfg(feature = "train")]
pub(crate) mod ensemble;
pub mod file;
pub(crate) mod playout;
pub mod qnet;

use self::file::{
    layout_text, read_net, NetFile, NetHeader, DEFAULT_DEVIATE, FEATURE_VERSION, MAX_DEVIATE,
    MAX_PRIOR, MAX_SEARCH,
};
use self::playout::{Playouts, RolloutPolicy};
use self::qnet::{QNet, Scratch};
use crate::agent::features::{all_features, FeatureRow, MAX_FEATURES};
use crate::agent::net_file::NetError;
use crate::agent::spec::AgentSpec;
use crate::agent::{number, uniform_index, Agent, AgentError, AgentInfo, ParamInfo};
use crate::game::{ActionBuffer, GameState, RuleMap, Seat};
use crate::games::kind::GameKind;
use crate::games::observe::{layout_len, ActionOf, ViewOf};
use crate::generic_agents::ismcts::{Ismcts, IsmctsParams, LeafValue};
use crate::generic_agents::ismcts_spec::ismcts_params;
use crate::generic_agents::rules::feature_rows;
use crate::rng::GameRng;
use rand::Rng;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The catalogue entry of `net`.
pub(crate) const NET_INFO: AgentInfo = AgentInfo {
    name: "net",
    games: "all",
    about: "a learned action-value network from a file (`net:PATH`, e.g. \
            net:agents/tienlen-south.safetensors, written by `bailab train`): the legal action of highest \
            Q from the seat's view tensor and each action's vector (docs/train.md)",
    params: &[
        ParamInfo {
            name: "path",
            default: "(required)",
            about: "the network file, written first, without `path=`; a network for another \
                    game, variant, seat count, rule options or feature version is refused",
        },
        ParamInfo {
            name: "eps",
            default: "0",
            about: "the chance of a uniform legal action instead (0 to 1)",
        },
        ParamInfo {
            name: "temperature",
            default: "0",
            about: "sample from the softmax of Q / temperature (Q in payouts over the game's \
                    payout scale; 0 = the highest Q, ties to the first)",
        },
        ParamInfo {
            name: "margin",
            default: "the file's",
            about: "with M > 0, play greedy's action unless the network's best action has a Q \
                    higher by more than M points of payout (a network that leaves greedy only \
                    where it is sure); 0 = the highest Q. Without it, the margin the file was \
                    shipped with (its header's `margin`, else 0)",
        },
        ParamInfo {
            name: "search",
            default: "the file's",
            about: "with N > 0, check the network's move by the one-step lookahead of \
                    `ismcts:iters=N` (N playouts to the end by greedy, each determinization played \
                    through every legal action) and keep it unless another gains by a paired \
                    t-statistic above `deviate`; 0 = the network alone (up to 10,000,000). \
                    Without it, the lookahead the file was shipped with (its header's `search`, \
                    else 0)",
        },
        ParamInfo {
            name: "deviate",
            default: "the file's, else 2.5",
            about: "with `search=`, the paired t-statistic another action's gain over the \
                    network's move must exceed (0 to 100)",
        },
        ParamInfo {
            name: "prior",
            default: "the file's, else 0",
            about: "with `search=`, the network's own view of each action's gain over its move \
                    (its Q difference in points) counts as this many of the search's \
                    determinizations of the action, and each gain is their weighted mean; 0 = \
                    the search's gains alone",
        },
        ParamInfo {
            name: "leaf",
            default: "end",
            about: "with `search=`, where each playout stops: `end` plays greedy to the end of \
                    the game; `q` only until the seat's next choice, valued by the network \
                    (its highest Q there, from the seat's view in that determinization)",
        },
        ParamInfo {
            name: "playout",
            default: "greedy",
            about: "with `search=`, who plays the playouts after each action: `greedy` every \
                    seat; `own` the network (its highest Q) at the searching seat's later \
                    choices and greedy at the others'; `all` the network at every seat. The \
                    network costs more per choice than greedy",
        },
        ParamInfo {
            name: "horizon",
            default: "all",
            about: "with `playout=own`, the network makes only the searching seat's first H \
                    choices in each playout and greedy the later ones (1 to 1,000), for a \
                    cost between greedy's and the network's",
        },
        crate::generic_agents::ismcts_spec::INFER_INFO,
    ],
};

/// The largest `horizon=`: more choices than any seat makes in a game.
const MAX_HORIZON: u32 = 1000;

/// How a `net:` agent samples (see `NET_INFO`).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Sampling {
    /// The chance of a uniform legal action.
    pub eps: f64,
    /// The softmax temperature (0: the highest Q).
    pub temperature: f64,
    /// Without a temperature, greedy's action is kept unless the highest Q exceeds its Q by more
    /// than this (in Q's units, payouts over the payout scale; 0: the highest Q).
    pub margin: f32,
}

/// A Q network playing game `G`: the buffers of one decision, made once.
pub struct NetPolicy<G: GameKind> {
    game: G,
    net: Arc<QNet>,
    scratch: Scratch,
    state: Vec<f32>,
    /// Each legal action's input: its action vector, then its rule features.
    inputs: Vec<f32>,
    writer: ActionInputs<G>,
    q: Vec<f32>,
    /// How many entries of `q` the last choice computed (0: it took none, e.g. a uniform move).
    fresh_q: usize,
    sampling: Sampling,
}

/// Writes what a network reads of each legal action (its action vector, then its rule
/// features squashed): the buffers of the rule features, made once.
pub struct ActionInputs<G: GameKind> {
    /// The length of an action vector.
    vector_len: usize,
    /// The length of an action's input.
    width: usize,
    rows: Vec<FeatureRow>,
    greedy: Box<dyn Agent<G::State>>,
}

impl<G: GameKind> ActionInputs<G> {
    /// The writer of `game`'s action inputs.
    pub fn new(game: &G) -> ActionInputs<G> {
        let capacity = <<G::State as GameState>::Actions as ActionBuffer<_>>::CAPACITY;
        ActionInputs {
            vector_len: layout_len(&game.action_layout()),
            width: input_lengths(game).1,
            rows: vec![[0; MAX_FEATURES]; capacity],
            greedy: crate::generic_agents::rules::greedy::<G>(),
        }
    }

    /// The length of one action's input.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Writes the input of each legal action into `out`, one row of [`ActionInputs::width`]
    /// after another, and returns greedy's choice (the rule features ask it, drawing from
    /// `rng`). Allocation-free.
    pub fn write(
        &mut self,
        game: &G,
        view: &ViewOf<'_, G>,
        legal: &[ActionOf<G>],
        rng: &mut GameRng,
        out: &mut [f32],
    ) -> usize {
        let greedy = feature_rows::<G>(view, legal, self.greedy.as_mut(), &mut self.rows, rng);
        let (width, vector) = (self.width, self.vector_len);
        for ((&a, input), row) in legal.iter().zip(out.chunks_mut(width)).zip(&self.rows) {
            game.action_vector(view, a, &mut input[..vector]);
            for (x, &f) in input[vector..].iter_mut().zip(row) {
                *x = squash(f);
            }
        }
        greedy
    }
}

/// The lengths of what a network of game `G` reads: the view tensor and an action's input (its
/// action vector and its rule features).
pub fn input_lengths<G: GameKind>(game: &G) -> (usize, usize) {
    let features = all_features(G::FEATURES).count();
    (
        layout_len(&game.tensor_layout()),
        layout_len(&game.action_layout()) + features,
    )
}

/// The layout text of an action's input: the action vector's segments, then one entry per rule
/// feature (`rule.NAME:1`).
pub fn action_input_layout<G: GameKind>(game: &G) -> String {
    let mut text = layout_text(&game.action_layout());
    for f in all_features(G::FEATURES) {
        text.push_str(&format!(",rule.{}:1", f.name));
    }
    text
}

/// The payout scale of game `G`'s table, what a network's targets are payouts over (from a
/// dealt state: it depends on the table only, not on the deal).
pub fn payout_scale<G: GameKind>(game: &G) -> f64 {
    game.deal(&mut crate::rng::stream_rng(0, 0, 0))
        .payout_scale()
}

/// A rule feature as the network reads it: `sign(x)·ln(1 + |x|)`, so that counts and measures
/// of any size stay within a few units.
pub fn squash(value: i16) -> f32 {
    let x = f32::from(value);
    x.signum() * x.abs().ln_1p()
}

impl<G: GameKind> NetPolicy<G> {
    /// The policy of `net` (whose lengths are `game`'s) in `game`.
    pub fn new(game: G, net: Arc<QNet>, sampling: Sampling) -> NetPolicy<G> {
        let capacity = <<G::State as GameState>::Actions as ActionBuffer<_>>::CAPACITY;
        let (state_len, input_len) = input_lengths(&game);
        assert_eq!((net.state_len(), net.action_len()), (state_len, input_len));
        NetPolicy {
            scratch: net.scratch(capacity),
            state: vec![0.0; state_len],
            inputs: vec![0.0; capacity * input_len],
            writer: ActionInputs::new(&game),
            q: vec![0.0; capacity],
            fresh_q: 0,
            game,
            net,
            sampling,
        }
    }

    /// Writes the view's tensor and every legal action's input; returns greedy's choice (the
    /// rule features ask it, drawing from `rng`).
    pub fn observe(
        &mut self,
        view: &ViewOf<'_, G>,
        legal: &[ActionOf<G>],
        rng: &mut GameRng,
    ) -> usize {
        self.game.tensor(view, &mut self.state);
        (self.writer).write(&self.game, view, legal, rng, &mut self.inputs)
    }

    /// The Q of every legal action after [`NetPolicy::observe`] (the first `count` entries).
    pub fn q_values(&mut self, count: usize) -> &[f32] {
        self.net.begin(&self.state, &mut self.scratch);
        let width = self.net.action_len();
        let (inputs, q) = (&self.inputs[..count * width], &mut self.q[..count]);
        self.net.q_batch(inputs, q, &mut self.scratch);
        q
    }

    /// The Q of every legal action, if the last [`NetPolicy::choose`] computed them.
    pub fn last_q(&self) -> Option<&[f32]> {
        (self.fresh_q > 0).then(|| &self.q[..self.fresh_q])
    }

    /// The view tensor of the last [`NetPolicy::observe`].
    pub fn state(&self) -> &[f32] {
        &self.state
    }

    /// The input of legal action `i` of the last [`NetPolicy::observe`].
    pub fn action_input(&self, i: usize) -> &[f32] {
        let width = self.net.action_len();
        &self.inputs[i * width..(i + 1) * width]
    }

    /// The game played.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The index of the action chosen in `legal` (never empty).
    pub fn choose(
        &mut self,
        view: &ViewOf<'_, G>,
        legal: &[ActionOf<G>],
        rng: &mut GameRng,
    ) -> usize {
        self.fresh_q = 0;
        if legal.len() == 1 {
            return 0;
        }
        let Sampling {
            eps,
            temperature,
            margin,
        } = self.sampling;
        if eps > 0.0 && rng.random::<f64>() < eps {
            return uniform_index(legal.len(), rng);
        }
        let greedy = self.observe(view, legal, rng);
        self.fresh_q = legal.len();
        let q = self.q_values(legal.len());
        if temperature > 0.0 {
            return softmax_pick(q, temperature, rng);
        }
        let best = argmax(q);
        if margin > 0.0 && q[best] - q[greedy] <= margin {
            greedy
        } else {
            best
        }
    }
}

/// The index of the highest value, the first of ties.
pub fn argmax(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

/// An index drawn with probability proportional to `exp(value / temperature)`.
fn softmax_pick(values: &[f32], temperature: f64, rng: &mut GameRng) -> usize {
    let top = values[argmax(values)];
    let weight = |v: f32| (f64::from(v - top) / temperature).exp();
    let total: f64 = values.iter().map(|&v| weight(v)).sum();
    let mut left = rng.random::<f64>() * total;
    for (i, &v) in values.iter().enumerate() {
        left -= weight(v);
        if left < 0.0 {
            return i;
        }
    }
    values.len() - 1
}

/// The network's value of a position its lookahead reaches (`leaf=q`): the highest Q of the
/// seat's legal actions there, from its view, in payout points.
struct QLeaf<G: GameKind> {
    policy: NetPolicy<G>,
    /// Q's payout scale (points per unit of Q).
    scale: f64,
}

impl<G: GameKind> LeafValue<G::State> for QLeaf<G> {
    fn value(
        &mut self,
        state: &G::State,
        seat: Seat,
        legal: &[ActionOf<G>],
        rng: &mut GameRng,
    ) -> f64 {
        self.policy.observe(&state.view(seat), legal, rng);
        let q = self.policy.q_values(legal.len());
        f64::from(q[argmax(q)]) * self.scale
    }
}

/// The agent `net:FILE` for game `G`: the network's move, checked by a search with `search=`.
pub struct NetAgent<G: GameKind> {
    policy: NetPolicy<G>,
    search: Option<Ismcts<G::State>>,
    /// With a search: how many determinizations the network's own gains count as (0: none).
    prior_weight: f64,
    /// The network's gain of each legal action over its move, in payout points: made once.
    prior: Vec<f64>,
    /// Q's payout scale (points per unit of Q), when a prior is used.
    scale: f64,
}

impl<G: GameKind> NetAgent<G> {
    /// The agent playing `policy` alone.
    pub fn new(policy: NetPolicy<G>) -> NetAgent<G> {
        NetAgent {
            policy,
            search: None,
            prior_weight: 0.0,
            prior: Vec::new(),
            scale: 1.0,
        }
    }

    /// The agent playing `policy`'s move unless a search of `params` with `playouts` (a paired
    /// root with `deviate`) finds a clearly better one, the network's own gains counted as
    /// `prior_weight` determinizations of each action (0: the search's gains alone); with
    /// `leaf_q`, each playout stops at the seat's next choice, valued by the network.
    pub(crate) fn with_search(
        policy: NetPolicy<G>,
        params: IsmctsParams,
        prior_weight: f64,
        leaf_q: bool,
        playouts: Playouts,
    ) -> NetAgent<G> {
        let judge = || {
            let net = Arc::clone(&policy.net);
            NetPolicy::new(policy.game().clone(), net, Sampling::default())
        };
        let rollout: Box<dyn Agent<G::State>> = match playouts.policy {
            RolloutPolicy::All => Box::new(NetAgent::new(judge())),
            _ => crate::generic_agents::rules::greedy::<G>(),
        };
        let capacity = <<G::State as GameState>::Actions as ActionBuffer<_>>::CAPACITY;
        let scale = if prior_weight > 0.0 || leaf_q {
            payout_scale(policy.game())
        } else {
            1.0
        };
        let mut search = Ismcts::new(params, rollout);
        if playouts.policy == RolloutPolicy::Own {
            search = search.with_own_moves(Box::new(NetAgent::new(judge())), playouts.horizon);
        }
        if leaf_q {
            search = search.with_leaf(Box::new(QLeaf {
                policy: judge(),
                scale,
            }));
        }
        NetAgent {
            policy,
            search: Some(search),
            prior_weight,
            prior: Vec::with_capacity(capacity),
            scale,
        }
    }
}

impl<G: GameKind> Agent<G::State> for NetAgent<G> {
    fn act(&mut self, view: &ViewOf<'_, G>, legal: &[ActionOf<G>], rng: &mut GameRng) -> usize {
        let choice = self.policy.choose(view, legal, rng);
        let Some(search) = self.search.as_mut().filter(|_| legal.len() > 1) else {
            return choice;
        };
        let searched = search.search_from(view, legal, rng, Some(choice));
        let Some(q) = self.policy.last_q().filter(|_| self.prior_weight > 0.0) else {
            return searched;
        };
        self.prior.clear();
        let base = f64::from(q[choice]);
        (self.prior).extend(q.iter().map(|&v| (f64::from(v) - base) * self.scale));
        search
            .choose_with_prior(&self.prior, self.prior_weight)
            .unwrap_or(searched)
    }
}

/// Network files already read in this process, by path: every agent of a run plays the same
/// network even if the file changes meanwhile, and the file is read once.
static LOADED: Mutex<Option<HashMap<PathBuf, Arc<NetFile>>>> = Mutex::new(None);

/// The network file at `path`, read once per process.
pub fn load(path: PathBuf) -> Result<Arc<NetFile>, NetError> {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let cache = loaded.get_or_insert_with(HashMap::new);
    if let Some(file) = cache.get(&path) {
        return Ok(Arc::clone(file));
    }
    let file = Arc::new(read_net(&path).map_err(|e| NetError::File(Arc::new(e)))?);
    cache.insert(path, Arc::clone(&file));
    Ok(file)
}

/// Where a network is asked to play: the variant, and the rule options and players when the
/// command gives them (else the file's are taken).
pub struct Table<'a> {
    /// The variant played, if known.
    pub variant: Option<&'a str>,
    /// The rule options and players, if known.
    pub rules: Option<(&'a RuleMap, usize)>,
}

/// Game `G` as the network of `header` (read from `path`) plays it, checked against `table`
/// and against the layouts the game has now.
pub fn game_for<G: GameKind>(
    header: &NetHeader,
    path: &str,
    table: &Table<'_>,
) -> Result<G, NetError> {
    let mismatch = |what: &'static str, file: String, played: String| NetError::Mismatch {
        path: path.into(),
        what,
        file,
        played,
    };
    if header.game != G::INFO.name {
        return Err(mismatch("game", header.game.clone(), G::INFO.name.into()));
    }
    if let Some(variant) = table.variant.filter(|v| *v != header.variant) {
        return Err(mismatch("variant", header.variant.clone(), variant.into()));
    }
    let (rules, players) = table.rules.unwrap_or((&header.rules, header.players));
    if players != header.players {
        let (file, played) = (header.players.to_string(), players.to_string());
        return Err(mismatch("players", file, played));
    }
    let game = G::build(&header.variant, players, rules).map_err(|e| NetError::Unbuildable {
        path: path.into(),
        variant: header.variant.clone(),
        players,
        reason: e.to_string(),
    })?;
    let json = |m: &RuleMap| serde_json::Value::Object(m.clone()).to_string();
    if game.rules() != header.rules {
        return Err(mismatch("rules", json(&header.rules), json(&game.rules())));
    }
    if header.feature_version != FEATURE_VERSION {
        let (file, now) = (
            header.feature_version.to_string(),
            FEATURE_VERSION.to_string(),
        );
        return Err(mismatch("feature version", file, now));
    }
    let layouts = [
        (
            "view tensor layout",
            &header.state_layout,
            layout_text(&game.tensor_layout()),
        ),
        (
            "action input layout",
            &header.action_layout,
            action_input_layout(&game),
        ),
    ];
    for (what, file, now) in layouts {
        if *file != now {
            return Err(mismatch(what, file.clone(), now));
        }
    }
    Ok(game)
}

/// A spec's `leaf=` (whether playouts stop at the seat's next choice, valued by the network),
/// `playout=` (who plays them) and `horizon=` (for how many of the seat's choices the network
/// plays them with `playout=own`).
fn playout_options(spec: &AgentSpec) -> Result<(bool, Playouts), AgentError> {
    let leaf_q = match spec.get("leaf") {
        None | Some("end") => false,
        Some("q") => true,
        Some(other) => {
            return Err(AgentError::Params(format!(
                "agent 'net': leaf={other} is neither `end` (playouts to the end) nor `q` (the \
                 network's value at the seat's next choice)"
            )))
        }
    };
    let playout = match spec.get("playout") {
        None | Some("greedy") => RolloutPolicy::Greedy,
        Some("own") => RolloutPolicy::Own,
        Some("all") => RolloutPolicy::All,
        Some(other) => {
            return Err(AgentError::Params(format!(
                "agent 'net': playout={other} is none of `greedy`, `own` (the network at the \
                 searching seat) and `all` (the network at every seat)"
            )))
        }
    };
    if playout != RolloutPolicy::Own && spec.get("horizon").is_some() {
        return Err(AgentError::Params(
            "agent 'net': horizon= needs playout=own (the network's choices at the searching \
             seat in each playout)"
                .into(),
        ));
    }
    let horizon = number(spec, "horizon", u32::MAX, (1, MAX_HORIZON))?;
    Ok((
        leaf_q,
        Playouts {
            policy: playout,
            horizon,
        },
    ))
}

/// Builds the `net` agent of a spec for game `G` in `table` (the file read once per process).
pub fn net_agent<G: GameKind>(
    spec: &AgentSpec,
    table: &Table<'_>,
) -> Result<Box<dyn Agent<G::State>>, AgentError> {
    let path = spec.file().ok_or_else(|| {
        AgentError::Params(
            "agent 'net' needs its file: net:PATH (e.g. net:agents/tienlen-south.safetensors)"
                .into(),
        )
    })?;
    let shown = path.display().to_string();
    let file = load(path).map_err(AgentError::Net)?;
    // each of search=, deviate=, prior= and margin= the spec leaves out is the file's, if any
    let shipped = file.header.search;
    let search: u32 = number(
        spec,
        "search",
        shipped.map_or(0, |s| s.iters),
        (0, MAX_SEARCH),
    )?;
    let deviate: f64 = number(
        spec,
        "deviate",
        shipped.map_or(DEFAULT_DEVIATE, |s| s.deviate),
        (0.0, MAX_DEVIATE),
    )?;
    let prior: f64 = number(
        spec,
        "prior",
        shipped.map_or(0.0, |s| s.prior),
        (0.0, MAX_PRIOR),
    )?;
    let tunes = ["deviate", "prior", "leaf", "playout", "horizon", "infer"];
    if search == 0 && tunes.iter().any(|k| spec.get(k).is_some()) {
        return Err(AgentError::Params(
            "agent 'net': deviate=, prior=, leaf=, playout=, horizon= and infer= need search=N \
             (the lookahead they tune)"
                .into(),
        ));
    }
    let (leaf_q, playouts) = playout_options(spec)?;
    let margin_points: f64 = number(
        spec,
        "margin",
        file.header.margin.unwrap_or(0.0),
        (0.0, 1e6),
    )?;
    let game = game_for::<G>(&file.header, &shown, table).map_err(AgentError::Net)?;
    let sampling = Sampling {
        eps: number(spec, "eps", 0.0, (0.0, 1.0))?,
        temperature: number(spec, "temperature", 0.0, (0.0, 1e6))?,
        // in Q's units (the payout scale needs a dealt game: only when asked)
        margin: if margin_points > 0.0 {
            (margin_points / payout_scale(&game)) as f32
        } else {
            0.0
        },
    };
    let policy = NetPolicy::new(game, Arc::clone(&file.net), sampling);
    Ok(Box::new(match search {
        0 => NetAgent::new(policy),
        n => {
            // the `ismcts` spec's own defaults: root sweep, depth 1
            let text = format!("ismcts:iters={n},deviate={deviate}");
            let spec = AgentSpec::parse(&text).expect("a valid spec");
            NetAgent::with_search(policy, ismcts_params(&spec)?, prior, leaf_q, playouts)
        }
    }))
}

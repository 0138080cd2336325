//! Teacher decisions: the features of every legal action at each decision of the teacher (for
//! instance ISMCTS) with more than one legal action, what greedy would take and what the
//! teacher took. Collected from games of the teacher in one seat against greedy in the others.

use crate::agent::features::{FeatureRow, MAX_FEATURES};
use crate::agent::spec::AgentSpec;
use crate::agent::{Agent, AgentError};
use crate::game::{ActionBuffer, GameId, GameState, MAX_SEATS};
use crate::games::kind::GameKind;
use crate::generic_agents::catalogue::{lookup, make_agent, make_ismcts};
use crate::generic_agents::ismcts::Ismcts;
use crate::generic_agents::rules::{feature_rows, greedy};
use crate::rng::{stream_rng, GameRng};
use crate::sim::deal::seeds::{agent_rngs, seeded_deal};
use crate::sim::deal::turns::{Turn, Turns, OUTSIDE};
use rayon::prelude::*;

/// Teacher decisions, stored flat: decision `i` has the rows `rows[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Every decision's feature rows, one per legal action, back to back.
    pub rows: Vec<FeatureRow>,
    /// Where each decision's rows start (one more entry than decisions).
    pub start: Vec<usize>,
    /// Greedy's choice at each decision.
    pub greedy: Vec<u16>,
    /// The teacher's choice at each decision.
    pub teacher: Vec<u16>,
    /// The teacher's estimate of each action's payout gain over greedy's action (a row per
    /// action, as `rows`), when the teacher is a sweeping search; zeros otherwise.
    pub values: Vec<f32>,
    /// Whether every decision has the teacher's values.
    pub(crate) valued: bool,
}

impl Samples {
    /// Number of decisions.
    pub fn len(&self) -> usize {
        self.greedy.len()
    }
    /// Whether there is no decision.
    pub fn is_empty(&self) -> bool {
        self.greedy.is_empty()
    }
    /// The rows of decision `i`.
    pub fn rows_of(&self, i: usize) -> &[FeatureRow] {
        &self.rows[self.start[i]..self.start[i + 1]]
    }
    /// How many decisions the teacher took greedy's action at.
    pub(crate) fn teacher_is_greedy(&self) -> usize {
        (0..self.len())
            .filter(|&i| self.greedy[i] == self.teacher[i])
            .count()
    }
    /// The values of decision `i`'s actions.
    pub(crate) fn values_of(&self, i: usize) -> &[f32] {
        &self.values[self.start[i]..self.start[i + 1]]
    }
    fn push(&mut self, rows: &[FeatureRow], greedy: usize, teacher: usize, values: Option<&[f32]>) {
        if self.start.is_empty() {
            self.start.push(0);
            self.valued = true;
        }
        self.valued &= values.is_some();
        match values {
            Some(v) => self.values.extend_from_slice(v),
            None => self.values.extend(rows.iter().map(|_| 0.0)),
        }
        self.rows.extend_from_slice(rows);
        self.start.push(self.rows.len());
        self.greedy.push(greedy as u16);
        self.teacher.push(teacher as u16);
    }
    /// The decisions as bytes: a first line naming the features, then little-endian counts and
    /// values (for `--teacher-cache`).
    pub(crate) fn to_bytes(&self, features: &[&str]) -> Vec<u8> {
        let mut out = header(self.valued, features).into_bytes();
        let word = |out: &mut Vec<u8>, x: u64| out.extend_from_slice(&x.to_le_bytes());
        word(&mut out, self.len() as u64);
        for i in 0..self.len() {
            let rows = self.rows_of(i);
            word(&mut out, rows.len() as u64);
            out.extend_from_slice(&self.greedy[i].to_le_bytes());
            out.extend_from_slice(&self.teacher[i].to_le_bytes());
            for (row, value) in rows.iter().zip(self.values_of(i)) {
                for v in &row[..features.len()] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out
    }

    /// Reads [`Samples::to_bytes`]; `None` if the bytes are not decisions with these features.
    pub(crate) fn from_bytes(bytes: &[u8], features: &[&str]) -> Option<Samples> {
        let (valued, rest) = [true, false].into_iter().find_map(|v| {
            bytes
                .strip_prefix(header(v, features).as_bytes())
                .map(|r| (v, r))
        })?;
        let mut r = Reader(rest);
        let mut values = Vec::new();
        let mut out = Samples::default();
        let mut rows = Vec::new();
        for _ in 0..r.word(8)? {
            let n = r.word(8)?;
            let (greedy, teacher) = (r.word(2)?, r.word(2)?);
            rows.clear();
            values.clear();
            for _ in 0..n {
                let mut row = [0; MAX_FEATURES];
                for v in row.iter_mut().take(features.len()) {
                    *v = r.word(2)? as u16 as i16;
                }
                rows.push(row);
                values.push(f32::from_bits(r.word(4)? as u32));
            }
            out.push(
                &rows,
                greedy as usize,
                teacher as usize,
                valued.then_some(&values[..]),
            );
        }
        r.0.is_empty().then_some(out)
    }

    fn append(&mut self, other: Samples) {
        for i in 0..other.len() {
            let values = other.valued.then(|| other.values_of(i));
            let (greedy, teacher) = (other.greedy[i].into(), other.teacher[i].into());
            self.push(other.rows_of(i), greedy, teacher, values);
        }
    }
}

/// Plays `deals` games under `seed` (the teacher in seat `d mod n` of deal `d`, greedy in the
/// others) and returns the teacher's decisions in deal order. `tick` is called once per deal.
pub fn collect<G: GameKind>(
    game: &G,
    teacher: &str,
    seed: u64,
    deals: u64,
    tick: &(dyn Fn() + Sync),
) -> Result<Samples, AgentError> {
    Teacher::<G::State>::new::<G>(teacher)?;
    let per_deal: Vec<Samples> = (0..deals)
        .into_par_iter()
        .map_init(
            || {
                let teacher = Teacher::new::<G>(teacher).expect("checked above");
                (teacher, greedy::<G>(), greedy::<G>())
            },
            |(teacher, greedy, shadow), d| {
                let s = teacher_game(game, seed, d, teacher, greedy, shadow.as_mut());
                tick();
                s
            },
        )
        .collect();
    let mut all = Samples::default();
    for s in per_deal {
        all.append(s);
    }
    Ok(all)
}

/// The teacher: a sweeping ISMCTS, whose root estimates are kept, or any other agent.
enum Teacher<S: GameState> {
    Search(Box<Ismcts<S>>),
    Other(Box<dyn Agent<S>>),
}

impl<S: GameState> Teacher<S> {
    fn new<G: GameKind<State = S>>(spec: &str) -> Result<Teacher<S>, AgentError> {
        let parsed = AgentSpec::parse(spec)?;
        if parsed.name == "ismcts" {
            lookup::<G>(&parsed)?;
            let search = make_ismcts::<G>(&parsed)?;
            return Ok(Teacher::Search(Box::new(search)));
        }
        Ok(Teacher::Other(make_agent::<G>(spec)?))
    }

    fn act(&mut self, view: &S::View<'_>, legal: &[S::Action], rng: &mut GameRng) -> usize {
        match self {
            Teacher::Search(s) => s.act(view, legal, rng),
            Teacher::Other(a) => a.act(view, legal, rng),
        }
    }

    /// Writes the last search's gain of each action over greedy's into `out`; false when the
    /// teacher has none.
    fn values(&self, out: &mut Vec<f32>) -> bool {
        out.clear();
        let Teacher::Search(s) = self else {
            return false;
        };
        match s.root_gains() {
            Some(gains) => {
                out.extend(gains.map(|g| g as f32));
                true
            }
            None => false,
        }
    }
}

/// The stream of deal `d`'s RNG for the shadow greedy agent that fills the feature rows (clear
/// of the deal's and the agents' streams).
const SHADOW_STREAM: u64 = u64::MAX;

/// One teacher game: deal `d` of `seed`, the teacher (played from outside the loop, so that its
/// decisions are collected) at seat `d mod seats` and `greedy` at the others; the teacher's
/// decisions with more than one legal action.
fn teacher_game<G: GameKind>(
    game: &G,
    seed: u64,
    d: u64,
    teacher: &mut Teacher<G::State>,
    greedy: &mut Box<dyn Agent<G::State>>,
    shadow: &mut dyn Agent<G::State>,
) -> Samples {
    let id = GameId {
        master: seed,
        deal: d,
        rotation: 0,
    };
    let teacher_seat = (d % game.seats() as u64) as usize;
    let seat_agent: [usize; MAX_SEATS] =
        std::array::from_fn(|s| if s == teacher_seat { OUTSIDE } else { 0 });
    let mut state = seeded_deal(game, seed, d);
    let mut rngs = agent_rngs(id);
    let mut turns = Turns {
        agents: std::slice::from_mut(greedy),
        seat_agent: &seat_agent,
        rngs: &mut rngs,
    };
    let mut shadow_rng = stream_rng(seed, d, SHADOW_STREAM);
    let mut actions = <G::State as GameState>::Actions::default();
    let mut rows = Vec::new();
    let mut values = Vec::new();
    let mut out = Samples::default();
    turns.begin(&state);
    while let Turn::Outside(seat) = turns.advance(&mut state, |_| {}) {
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        let k = {
            let view = state.view(seat);
            let k = teacher.act(&view, legal, &mut turns.rngs[usize::from(seat)]);
            if legal.len() > 1 {
                rows.resize(legal.len(), [0; MAX_FEATURES]);
                let g = feature_rows::<G>(&view, legal, shadow, &mut rows, &mut shadow_rng);
                let valued = teacher.values(&mut values);
                out.push(&rows, g, k, valued.then_some(&values[..]));
            }
            k
        };
        state.apply(legal[k]);
    }
    out
}

/// The first line of [`Samples::to_bytes`].
fn header(valued: bool, features: &[&str]) -> String {
    format!(
        "bailab-samples/2 valued={} {}\n",
        u8::from(valued),
        features.join(",")
    )
}

/// Reads little-endian words off a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    /// The next `n`-byte word, if there are `n` bytes left.
    fn word(&mut self, n: usize) -> Option<u64> {
        let bytes = self.0.get(..n)?;
        self.0 = &self.0[n..];
        Some(bytes.iter().rev().fold(0, |a, &x| a << 8 | u64::from(x)))
    }
}

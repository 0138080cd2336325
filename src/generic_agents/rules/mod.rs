//! The rule-list agent `rules:PATH`: a short ordered list of readable rules over the features of
//! candidate actions ([`features`](crate::agent::features)), stored as TOML ([`list`]), learned by
//! `bailab learn` or written by hand. It reads the seat's view only (through the game's features
//! and its greedy agent) and allocates nothing in play.

pub mod list;

use self::list::{choose, RuleList};
use crate::agent::features::{all_features, FeatureRow, GREEDY_RANKS, MAX_FEATURES};
use crate::agent::rule_file::RuleFileError;
use crate::agent::spec::AgentSpec;
use crate::agent::{Agent, AgentError, AgentInfo, ParamInfo};
use crate::game::{ActionBuffer, GameState};
use crate::games::kind::GameKind;
use crate::input::{read_text, RULES};
use crate::rng::GameRng;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The catalogue entry of `rules`.
pub(crate) const RULES_INFO: AgentInfo = AgentInfo {
    name: "rules",
    games: "all",
    about: "a rule list from a TOML file (`rules:PATH`, e.g. rules:agents/tusac-classic.toml, \
            written by `bailab learn` or by hand): each rule narrows the candidate actions by \
            their features, read top to bottom; then the candidate greedy would take first \
            (see `bailab learn --help` and docs/rules.md)",
    params: &[ParamInfo {
        name: "path",
        default: "(required)",
        about: "the rule file, written first, without `path=`: relative to the current folder \
                on the command line, to the project folder in an experiment file (as its \
                `output`); a list for another game or variant is refused",
    }],
};

/// The rule-list agent for game `G`.
pub struct RulesAgent<G: GameKind> {
    list: Arc<RuleList>,
    greedy: Box<dyn Agent<G::State>>,
    rows: Vec<FeatureRow>,
    cands: Vec<u16>,
}

impl<G: GameKind> RulesAgent<G> {
    /// The agent playing `list` (which must be for game `G`).
    pub fn new(list: Arc<RuleList>) -> RulesAgent<G> {
        let capacity = <<G::State as GameState>::Actions as ActionBuffer<_>>::CAPACITY;
        RulesAgent {
            list,
            greedy: greedy::<G>(),
            rows: vec![[0; MAX_FEATURES]; capacity],
            cands: Vec::with_capacity(capacity),
        }
    }

    /// The rule list played.
    pub fn list(&self) -> &RuleList {
        &self.list
    }
}

/// Game `G`'s greedy agent with its defaults: the default choice of every rule list.
pub fn greedy<G: GameKind>() -> Box<dyn Agent<G::State>> {
    let spec = AgentSpec::parse("greedy").expect("a plain name");
    G::own_agent(&spec).expect("every game has a greedy agent")
}

/// The row index of the generic `greedy` feature of game `G`.
pub(crate) fn greedy_column<G: GameKind>() -> usize {
    G::FEATURES.len()
}

/// The row index of the generic `greedy_rank` feature of game `G`.
pub(crate) fn rank_column<G: GameKind>() -> usize {
    G::FEATURES.len() + 1
}

/// Writes the features of every legal action, `greedy` and `greedy_rank` included, into
/// `rows`, and returns greedy's choice. Greedy's order comes from asking it again without its
/// earlier choices (`GREEDY_RANKS` times at most). Allocation-free.
pub fn feature_rows<G: GameKind>(
    view: &<G::State as GameState>::View<'_>,
    legal: &[<G::State as GameState>::Action],
    greedy: &mut dyn Agent<G::State>,
    rows: &mut [FeatureRow],
    rng: &mut GameRng,
) -> usize {
    let rows = &mut rows[..legal.len()];
    for row in rows.iter_mut() {
        *row = [0; MAX_FEATURES];
    }
    G::features(view, legal, rows);
    let (gc, rc) = (greedy_column::<G>(), rank_column::<G>());
    let last = (GREEDY_RANKS - 1) as i16;
    for row in rows.iter_mut() {
        row[rc] = last;
    }
    let mut rest = <G::State as GameState>::Actions::default();
    let mut first = 0;
    for rank in 0..(GREEDY_RANKS - 1).min(legal.len()) {
        rest.clear();
        for (i, &a) in legal.iter().enumerate() {
            if rows[i][rc] == last {
                rest.push(a);
            }
        }
        let k = greedy.act(view, rest.as_slice(), rng);
        let chosen = nth_unranked(rows, rc, last, k);
        rows[chosen][rc] = rank as i16;
        if rank == 0 {
            first = chosen;
        }
    }
    rows[first][gc] = 1;
    first
}

/// The index of the `k`-th action not yet ranked.
fn nth_unranked(rows: &[FeatureRow], rc: usize, last: i16, k: usize) -> usize {
    rows.iter()
        .enumerate()
        .filter(|(_, r)| r[rc] == last)
        .nth(k)
        .map(|(i, _)| i)
        .expect("greedy chose among the actions it was given")
}

impl<G: GameKind> Agent<G::State> for RulesAgent<G> {
    fn act(
        &mut self,
        view: &<G::State as GameState>::View<'_>,
        legal: &[<G::State as GameState>::Action],
        rng: &mut GameRng,
    ) -> usize {
        if legal.len() == 1 {
            return 0;
        }
        feature_rows::<G>(view, legal, self.greedy.as_mut(), &mut self.rows, rng);
        self.cands.clear();
        self.cands.extend(0..legal.len() as u16);
        choose(
            &self.list.rules,
            &self.rows[..legal.len()],
            rank_column::<G>(),
            &mut self.cands,
        )
    }
}

/// The feature names of game `G`, `greedy` last.
pub fn feature_names<G: GameKind>() -> Vec<&'static str> {
    all_features(G::FEATURES).map(|f| f.name).collect()
}

/// Reads a rule file for game `G`. Errors name the file, the line and the problem.
pub(crate) fn read_rules<G: GameKind>(path: &Path) -> Result<RuleList, RuleFileError> {
    let origin = path.display().to_string();
    let text = read_text(path, RULES).map_err(|e| RuleFileError::Read {
        path: origin.clone(),
        reason: e.problem.to_string(),
    })?;
    let list = RuleList::parse(&text, &origin, G::INFO.name, all_features(G::FEATURES))?;
    crate::games::kind::check_variant(&G::INFO, &list.variant).map_err(|problem| {
        RuleFileError::Variant {
            file: origin.clone(),
            problem: problem.to_string(),
        }
    })?;
    Ok(list)
}

/// Rule files already read in this process, by path: every agent of a run plays the same list
/// even if the file changes meanwhile, and the file is read once.
static LOADED: Mutex<Option<Loaded>> = Mutex::new(None);

/// Rule lists by file and game.
type Loaded = HashMap<(PathBuf, &'static str), Arc<RuleList>>;

/// Builds the `rules` agent of a spec for game `G` (the file is read once per process).
pub fn rules_agent<G: GameKind>(spec: &AgentSpec) -> Result<Box<dyn Agent<G::State>>, AgentError> {
    let path = spec.file().ok_or_else(|| {
        AgentError::Params(
            "agent 'rules' needs its file: rules:PATH (e.g. rules:agents/tusac-classic.toml)"
                .into(),
        )
    })?;
    let key = (path, G::INFO.name);
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let cache = loaded.get_or_insert_with(HashMap::new);
    let list = match cache.get(&key) {
        Some(list) => Arc::clone(list),
        None => {
            let list = Arc::new(read_rules::<G>(&key.0).map_err(AgentError::Rules)?);
            cache.insert(key.clone(), Arc::clone(&list));
            list
        }
    };
    check_list_variant::<G>(&list, &key.0, spec.variant.as_deref()).map_err(AgentError::Rules)?;
    Ok(Box::new(RulesAgent::<G>::new(list)))
}

/// Refuses a rule list written for another variant than `variant` (when it is known), as a list
/// for another game is refused: its features were learned on other rules.
fn check_list_variant<G: GameKind>(
    list: &RuleList,
    path: &Path,
    variant: Option<&str>,
) -> Result<(), RuleFileError> {
    match variant {
        Some(v) if v != list.variant => Err(RuleFileError::OtherVariant {
            file: path.display().to_string(),
            game: G::INFO.name.to_string(),
            found: list.variant.clone(),
            variant: v.to_string(),
        }),
        _ => Ok(()),
    }
}

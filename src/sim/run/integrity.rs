//! What a run checks in the files it reads back (a checkpoint, a shard's or table's tally)
//! before trusting them: their checksum ([`crate::sim::files::seal`]), counts that add up with
//! the experiment they name (agents, per-agent and per-pair entries, games, seat-games, deals)
//! and the digests of the agent files the run read.

use crate::agent::spec::{AgentSpec, PATH};
use crate::sim::files::seal::{digest, SealError};
use crate::sim::run::experiment::{Experiment, Runtime};
use crate::sim::run::summary::seats_of;
use crate::sim::stats::tally::{PairTally, Tally};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What to do about a damaged checkpoint.
pub const CHECKPOINT_REMEDY: &str = "start over with --force";

/// What to do about a damaged tally.
pub const TALLY_REMEDY: &str = "run that shard or table again";

/// A file read back that cannot be trusted; each names the file and the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IntegrityError {
    /// The checksum is missing or is not that of the content.
    #[error(
        "{}: field `checksum`: {error}: the file was edited or damaged; {remedy}",
        file.display()
    )]
    Checksum {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        error: SealError,
        /// What to do.
        remedy: &'static str,
    },
    /// A field whose value does not add up with the rest.
    #[error("{}: field `{field}`: {detail}; {remedy}", file.display())]
    Field {
        /// The file.
        file: PathBuf,
        /// The field, as a path into the JSON (`tally.per_agent[1].games`).
        field: String,
        /// What does not add up.
        detail: String,
        /// What to do.
        remedy: &'static str,
    },
    /// An agent file read by the run has changed (or appeared, or gone) since.
    #[error(
        "{}: field `agent_files`: agent file {path} is {} now, but the run began with {}: the \
         rest of the run would play another agent; restore the file, or start over with --force",
        file.display(), show(now), show(recorded)
    )]
    AgentFileChanged {
        /// The checkpoint.
        file: PathBuf,
        /// The agent file, as its spec names it.
        path: String,
        /// Its digest in the checkpoint (`None`: not there).
        recorded: Option<String>,
        /// Its digest now (`None`: not read now).
        now: Option<String>,
    },
    /// Two shards played different agent files.
    #[error(
        "{}: field `agent_files`: agent file {path} was {} there, but {} in {}: the shards \
         played different agents, so they are not one study",
        file.display(), show(here), show(there), other.display()
    )]
    AgentFilesDiffer {
        /// The shard's tally.
        file: PathBuf,
        /// The agent file, as its spec names it.
        path: String,
        /// Its digest in this shard.
        here: Option<String>,
        /// Its digest in the other shard.
        there: Option<String>,
        /// The other shard's tally.
        other: PathBuf,
    },
    /// An agent file that cannot be read to take its digest.
    #[error("reading agent file {}: {error}", path.display())]
    ReadAgentFile {
        /// The file.
        path: PathBuf,
        /// The system's message.
        error: String,
    },
}

fn show(digest: &Option<String>) -> String {
    digest.clone().unwrap_or_else(|| "(absent)".into())
}

/// A field that does not add up: its name and what is wrong.
pub struct Bad {
    field: String,
    detail: String,
}

impl Bad {
    /// A field named `field` (a path into the JSON) and what is wrong with it.
    pub fn new(field: impl Into<String>, detail: String) -> Bad {
        Bad {
            field: field.into(),
            detail,
        }
    }

    /// The error of this field in `file`.
    pub fn in_file(self, file: &Path, remedy: &'static str) -> IntegrityError {
        IntegrityError::Field {
            file: file.to_path_buf(),
            field: self.field,
            detail: self.detail,
            remedy,
        }
    }
}

/// The deal range a run of `exp` plays: the whole study, or the shard's part (`shard` as
/// `(k, n)`, checked to be `0 ≤ k < n`).
pub fn expected_range(exp: &Experiment, shard: Option<(u64, u64)>) -> Result<(u64, u64), Bad> {
    match shard {
        None => Ok((0, exp.deals)),
        Some((k, n)) if k < n => {
            let at = |k: u64| (u128::from(exp.deals) * u128::from(k) / u128::from(n)) as u64;
            Ok((at(k), at(k + 1)))
        }
        Some((k, n)) => Err(Bad::new(
            "shard",
            format!("{k}/{n} is not a shard K/N with 0 ≤ K < N"),
        )),
    }
}

/// Checks that `t` is what a run of `exp` tallies over `deals` deals: its agents those of the
/// experiment's seats, one entry per agent and per pair of agents, and every count of games,
/// seat-games, deals and matches the one those deals make.
pub fn check_tally(exp: &Experiment, deals: u64, t: &Tally) -> Result<(), Bad> {
    let agents = exp.tally().agents;
    if t.agents != agents {
        return Err(Bad::new(
            "tally.agents",
            format!(
                "{:?}, but the experiment's seats are the agents {agents:?}",
                t.agents
            ),
        ));
    }
    let n = agents.len();
    if t.per_agent.len() != n {
        let detail = format!("{} entries for {n} agents", t.per_agent.len());
        return Err(Bad::new("tally.per_agent", detail));
    }
    let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
    if t.pairs.len() != n * n.saturating_sub(1) / 2
        || !pairs.zip(&t.pairs).all(|((a, b), p)| (p.a, p.b) == (a, b))
    {
        let detail = format!(
            "{} entries, but {n} agents make {} pairs, in order",
            t.pairs.len(),
            n * n.saturating_sub(1) / 2
        );
        return Err(Bad::new("tally.pairs", detail));
    }
    let per_deal = (exp.rotations() as u64).saturating_mul(u64::from(exp.match_games));
    let games = deals.checked_mul(per_deal);
    if Some(t.games) != games {
        let detail = format!(
            "{} games, but {deals} deals of {per_deal} games each make {}",
            t.games,
            deals.saturating_mul(per_deal)
        );
        return Err(Bad::new("tally.games", detail));
    }
    let seats: Vec<u64> = agents.iter().map(|a| seats_of(exp, a) as u64).collect();
    check_agents(t, &seats, &agents)?;
    check_pairs(&t.pairs, "tally.pairs", &seats, (deals, per_deal))?;
    check_corrected(exp, t, &seats, (deals, per_deal))?;
    check_matches(exp, t, &seats, deals)
}

/// Checks the luck-corrected pair entries of `t`: one per pair, as `t.pairs`, in a
/// luck-corrected study that played deals; none otherwise.
fn check_corrected(
    exp: &Experiment,
    t: &Tally,
    seats: &[u64],
    (deals, per_deal): (u64, u64),
) -> Result<(), Bad> {
    let want = if !exp.estimator.is_plain() && deals > 0 {
        t.pairs.len()
    } else {
        0
    };
    let same = |c: &PairTally, p: &PairTally| (c.a, c.b) == (p.a, p.b);
    if t.corrected.len() != want || !t.corrected.iter().zip(&t.pairs).all(|(c, p)| same(c, p)) {
        let detail = format!(
            "{} entries, but this study has {want} luck-corrected pairs, in the order of tally.pairs",
            t.corrected.len()
        );
        return Err(Bad::new("tally.corrected", detail));
    }
    check_pairs(&t.corrected, "tally.corrected", seats, (deals, per_deal))
}

/// Checks the per-agent entries of `t` (each agent `seats[a]` seats in every game).
fn check_agents(t: &Tally, seats: &[u64], agents: &[String]) -> Result<(), Bad> {
    for (a, (at, &seats)) in t.per_agent.iter().zip(seats).enumerate() {
        let want = t.games.saturating_mul(seats);
        if at.games != want {
            let detail = format!(
                "{} seat-games, but {} games with {seats} seat(s) of '{}' make {want}",
                at.games, t.games, agents[a]
            );
            return Err(Bad::new(format!("tally.per_agent[{a}].games"), detail));
        }
        let outcomes = at.wins.checked_add(at.draws);
        if outcomes.is_none_or(|o| o > at.games) || at.penalties > at.games {
            let detail = format!(
                "{} wins, {} draws and {} penalties in {} seat-games",
                at.wins, at.draws, at.penalties, at.games
            );
            return Err(Bad::new(format!("tally.per_agent[{a}]"), detail));
        }
        if !sums_fit(at.games, i128::from(at.payout_sum), at.payout_sq) {
            let detail = sums_detail(at.games, i128::from(at.payout_sum), at.payout_sq);
            return Err(Bad::new(format!("tally.per_agent[{a}].payout_sq"), detail));
        }
    }
    Ok(())
}

/// Checks the per-pair entries `pairs` (the field `name` of a tally) over `deals` deals of
/// `per_deal` games.
fn check_pairs(
    pairs: &[PairTally],
    name: &str,
    seats: &[u64],
    (deals, per_deal): (u64, u64),
) -> Result<(), Bad> {
    for (i, p) in pairs.iter().enumerate() {
        if p.deals != deals {
            let detail = format!("{} deals, but the tally holds {deals}", p.deals);
            return Err(Bad::new(format!("{name}[{i}].deals"), detail));
        }
        let count = |a: usize| u128::from(seats[a]) * u128::from(per_deal);
        let want = if deals == 0 {
            0
        } else {
            count(p.a) * count(p.b)
        };
        if i128::from(p.scale) != want as i128 {
            let detail = format!(
                "{}, but the seats of agents {} and {} make {want}",
                p.scale, p.a, p.b
            );
            return Err(Bad::new(format!("{name}[{i}].scale"), detail));
        }
        if !sums_fit(p.deals, p.diff_sum, p.diff_sq) {
            let detail = sums_detail(p.deals, p.diff_sum, p.diff_sq);
            return Err(Bad::new(format!("{name}[{i}].diff_sq"), detail));
        }
    }
    Ok(())
}

/// Checks the per-agent match entries of `t` (deals that are matches of several games).
fn check_matches(exp: &Experiment, t: &Tally, seats: &[u64], deals: u64) -> Result<(), Bad> {
    let want = if exp.match_games > 1 && deals > 0 {
        seats.len()
    } else {
        0
    };
    if t.matches.len() != want {
        let detail = format!("{} entries, expected {want}", t.matches.len());
        return Err(Bad::new("tally.matches", detail));
    }
    let per_deal = exp.rotations() as u64;
    for (a, (m, &seats)) in t.matches.iter().zip(seats).enumerate() {
        let want = deals.saturating_mul(per_deal).saturating_mul(seats);
        let sums = sums_fit(m.matches, i128::from(m.payout_sum), m.payout_sq);
        if m.matches != want || m.wins > m.matches || !sums {
            let detail = format!(
                "{} matches ({} won), but {deals} deals make {want}",
                m.matches, m.wins
            );
            return Err(Bad::new(format!("tally.matches[{a}]"), detail));
        }
    }
    Ok(())
}

/// Whether `sum` and `sum_sq` can be the sum and the sum of squares of `n` whole numbers
/// (`sum² ≤ n·sum_sq`, Cauchy–Schwarz) with `n·sum_sq` within an `i128`, as the intervals
/// compute `n·sum_sq − sum²`.
fn sums_fit(n: u64, sum: i128, sum_sq: i128) -> bool {
    let Ok(n) = i64::try_from(n) else {
        return false;
    };
    match (i128::from(n).checked_mul(sum_sq), sum.checked_mul(sum)) {
        (Some(n_sq), Some(sq)) => sum_sq >= 0 && sq <= n_sq,
        _ => false,
    }
}

/// Why [`sums_fit`] refuses.
fn sums_detail(n: u64, sum: i128, sum_sq: i128) -> String {
    format!("a sum of squares {sum_sq} that {n} values summing to {sum} cannot have")
}

/// The digest of every agent file the agents of `exp` read (`rules:PATH`, `greedy:PATH`, …, and
/// the playout agent of a luck-corrected study's value function), by the path as their specs write it; relative paths are read from the project folder of
/// `runtime`. Outside programs (`exec`) and the embedding program's agents read no file of
/// bailab's.
pub fn agent_file_digests(
    exp: &Experiment,
    runtime: &Runtime,
) -> Result<BTreeMap<String, String>, IntegrityError> {
    let mut digests = BTreeMap::new();
    let value_agents = (exp.luck_value()).map_or(Vec::new(), |v| v.playout_agents(&exp.agents));
    for text in exp.agents.iter().chain(&value_agents) {
        if runtime.host.has(text) {
            continue;
        }
        let Ok(mut spec) = AgentSpec::parse(text) else {
            continue;
        };
        let Some(written) = spec.get(PATH).map(str::to_string) else {
            continue;
        };
        if spec.name == "exec" || digests.contains_key(&written) {
            continue;
        }
        spec.base = runtime.project.clone();
        let Some(file) = spec.file() else { continue };
        let kind = match spec.name.as_str() {
            "rules" => crate::input::RULES,
            "net" => crate::input::NET,
            _ => crate::input::WEIGHTS,
        };
        let bytes =
            crate::input::read_bytes(&file, kind).map_err(|e| IntegrityError::ReadAgentFile {
                path: file.clone(),
                error: e.to_string(),
            })?;
        digests.insert(written, digest(&bytes));
    }
    Ok(digests)
}

/// Checks the agent-file digests a checkpoint (`file`) recorded against those of now.
pub fn check_agent_files(
    file: &Path,
    recorded: &BTreeMap<String, String>,
    now: &BTreeMap<String, String>,
) -> Result<(), IntegrityError> {
    match first_difference(recorded, now) {
        None => Ok(()),
        Some((path, recorded, now)) => Err(IntegrityError::AgentFileChanged {
            file: file.to_path_buf(),
            path,
            recorded,
            now,
        }),
    }
}

/// Checks that two shards' tallies (`file`, `other`) recorded the same agent-file digests.
pub fn check_same_agent_files(
    (file, here): (&Path, &BTreeMap<String, String>),
    (other, there): (&Path, &BTreeMap<String, String>),
) -> Result<(), IntegrityError> {
    match first_difference(here, there) {
        None => Ok(()),
        Some((path, here, there)) => Err(IntegrityError::AgentFilesDiffer {
            file: file.to_path_buf(),
            path,
            here,
            there,
            other: other.to_path_buf(),
        }),
    }
}

/// The first path whose digest differs between `a` and `b`, with both digests.
type Difference = (String, Option<String>, Option<String>);

fn first_difference(
    a: &BTreeMap<String, String>,
    b: &BTreeMap<String, String>,
) -> Option<Difference> {
    a.keys()
        .chain(b.keys())
        .find(|k| a.get(*k) != b.get(*k))
        .map(|k| (k.clone(), a.get(k).cloned(), b.get(k).cloned()))
}

#[cfg(test)]
mod tests {
    use crate::sim::files::seal::{self, Layout};
    use crate::sim::run::checkpoint::{parse_tally_file, Shard, TallyFile};
    use crate::sim::run::integrity::IntegrityError;
    use std::path::Path;

    const COMMITTED: &str = include_str!("../../../results/chan-greedy-vs-random/tally.json");

    /// The field the error of reading `t` (as a whole run's tally) names.
    fn refused_field(t: &TallyFile) -> String {
        let text = t.to_file_text().unwrap();
        let err = parse_tally_file(Path::new("t/tally.json"), &text).unwrap_err();
        match err.downcast_ref::<IntegrityError>() {
            Some(IntegrityError::Field { field, .. }) => field.clone(),
            _ => panic!("{err:#}"),
        }
    }

    #[test]
    fn a_tally_whose_counts_do_not_add_up_is_refused_by_field() {
        let path = Path::new("t/tally.json");
        let good = parse_tally_file(path, COMMITTED).unwrap();
        assert_eq!(
            good.to_file_text().unwrap(),
            COMMITTED,
            "a whole run's form is kept"
        );
        type Edit = fn(&mut TallyFile);
        let cases: [(Edit, &str); 11] = [
            (
                |t| {
                    t.tally.per_agent.pop();
                },
                "tally.per_agent",
            ),
            (|t| t.tally.agents.reverse(), "tally.agents"),
            (|t| t.tally.games += 4, "tally.games"),
            (
                |t| t.tally.per_agent[0].games -= 1,
                "tally.per_agent[0].games",
            ),
            (
                |t| t.tally.per_agent[1].wins = u64::MAX,
                "tally.per_agent[1]",
            ),
            (|t| t.tally.pairs[0].deals += 1, "tally.pairs[0].deals"),
            (
                |t| t.tally.per_agent[0].payout_sq = 0,
                "tally.per_agent[0].payout_sq",
            ),
            (|t| t.tally.pairs[0].scale = 1, "tally.pairs[0].scale"),
            (|t| t.tally.pairs.clear(), "tally.pairs"),
            // A plain study holds no corrected pairs (one that did would be read unchecked).
            (
                |t| t.tally.corrected = t.tally.pairs.clone(),
                "tally.corrected",
            ),
            (|t| t.deals.1 = 999_999, "deals"),
        ];
        for (edit, field) in cases {
            let mut t = good.clone();
            edit(&mut t);
            assert_eq!(refused_field(&t), field);
        }
        let mut t = good.clone();
        t.shard = Some(Shard { k: 3, n: 3 });
        assert_eq!(refused_field(&t), "shard");
        // A luck-corrected study: one corrected entry per pair, in order, each checked.
        let mut t = good.clone();
        t.experiment.estimator = crate::sim::luck::Estimator::LuckCorrected;
        assert_eq!(refused_field(&t), "tally.corrected");
        t.tally.corrected = t.tally.pairs.clone();
        parse_tally_file(Path::new("t/tally.json"), &t.to_file_text().unwrap()).unwrap();
        t.tally.corrected[0].deals += 1;
        assert_eq!(refused_field(&t), "tally.corrected[0].deals");
        t.tally.corrected[0] = t.tally.pairs[0].clone();
        t.tally.corrected[0].b = 7;
        assert_eq!(refused_field(&t), "tally.corrected");
    }

    #[test]
    fn a_shard_tally_is_sealed_and_needs_its_checksum() {
        let path = Path::new("t/tally.json");
        let mut t = parse_tally_file(path, COMMITTED).unwrap();
        t.experiment.deals *= 2;
        t.shard = Some(Shard { k: 0, n: 2 });
        let text = t.to_file_text().unwrap();
        assert!(seal::is_sealed(&text, Layout::Pretty));
        parse_tally_file(path, &text).unwrap();
        let unsealed = serde_json::to_string_pretty(&t).unwrap();
        let err = parse_tally_file(path, &unsealed).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t/tally.json: field `checksum`: missing"),
            "{err}"
        );
        let edited = text.replacen("\"wins\": ", "\"wins\": 1", 1);
        let err = parse_tally_file(path, &edited).unwrap_err();
        assert!(err.to_string().contains("content hashes to"), "{err}");
    }
}

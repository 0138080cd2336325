//! Early stopping of a two-agent comparison: a sequential probability ratio test (SPRT) on the
//! paired per-deal payout differences, in the generalised form with a normal approximation that
//! engine testing uses on game pairs (here a "pair" is one deal with all its rotations).
//!
//! With `n` deals, per-deal differences `d_i` (agent A's mean payout minus agent B's, exactly the
//! `pair` rows of `summary.csv`) and their sample variance `s²`, the log-likelihood ratio of
//! H1 (mean difference `h1`) against H0 (mean difference `h0`) is
//! `LLR = (h1 − h0) / s² · (Σd − n·(h0 + h1)/2)`; the test accepts H1 once
//! `LLR ≥ ln((1 − β)/α)` and H0 once `LLR ≤ ln(β/(1 − α))`. It is decided only at multiples of
//! the `chunk` (and at the budget), on the deals `0..k` in order, so a run stops at the same deal
//! for any thread count and across `--resume` (docs/sprt.md).

use crate::sim::files::schema::SPRT_HEADER;
use crate::sim::luck::Estimator;
use crate::sim::stats::sprt_error::SprtError;
use crate::sim::stats::tally::{PairTally, Tally, LUCK_UNIT};
use crate::text::thousands;
use serde::{Deserialize, Serialize};

/// The `[sprt]` table of an experiment. Unknown keys are errors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    /// The two agent specs compared, A minus B (default: the experiment's two distinct specs,
    /// in seat order; required when it has more than two).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
    /// The null hypothesis: the mean per-deal payout difference A − B (payout units per game).
    #[serde(default)]
    pub h0: f64,
    /// The alternative hypothesis: the mean per-deal difference A − B, above `h0`.
    pub h1: f64,
    /// The probability of accepting H1 when H0 holds.
    #[serde(default = "default_error_rate")]
    pub(crate) alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    #[serde(default = "default_error_rate")]
    pub(crate) beta: f64,
    /// Deals between two decisions: the test looks at the deals after every multiple of this
    /// (and at the budget, the experiment's `deals`).
    #[serde(default = "default_chunk")]
    pub(crate) chunk: u64,
    /// Which differences the test reads: the plain ones (default) or, in a luck-corrected
    /// study, the luck-corrected ones (`docs/variance.md`).
    #[serde(default, skip_serializing_if = "Estimator::is_plain")]
    pub estimator: Estimator,
}

// The values are checked finite (see `SprtConfig::check`), so equality is an equivalence.
impl Eq for SprtConfig {}

fn default_error_rate() -> f64 {
    0.05
}

fn default_chunk() -> u64 {
    100
}

/// The distinct specs of a list, in order of first appearance.
fn distinct(specs: &[String]) -> Vec<&String> {
    let mut out: Vec<&String> = Vec::new();
    for s in specs {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

impl SprtConfig {
    /// Checks the table against the experiment's seat specs and estimator; an error names the
    /// key.
    pub fn check(&self, seat_specs: &[String], study: Estimator) -> Result<(), SprtError> {
        if !self.estimator.is_plain() && study.is_plain() {
            return Err(SprtError::Uncorrected);
        }
        for (key, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::Rate { key, value });
            }
        }
        for (key, value) in [("h0", self.h0), ("h1", self.h1)] {
            if !value.is_finite() {
                return Err(SprtError::NotFinite { key, value });
            }
        }
        if self.h0 >= self.h1 {
            return Err(SprtError::Order {
                h0: self.h0,
                h1: self.h1,
            });
        }
        if self.chunk == 0 {
            return Err(SprtError::Chunk);
        }
        self.pair(seat_specs).map(|_| ())
    }

    /// The two specs compared, A and B (A minus B).
    pub fn pair(&self, seat_specs: &[String]) -> Result<(String, String), SprtError> {
        let specs = distinct(seat_specs);
        let owned = || specs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match &self.agents {
            None if specs.len() < 2 => Err(SprtError::OneAgent(owned())),
            None if specs.len() > 2 => Err(SprtError::Unnamed(owned())),
            None => Ok((specs[0].clone(), specs[1].clone())),
            Some(named) => {
                if named.len() != 2 {
                    return Err(SprtError::NotTwo(named.len()));
                }
                if let Some(unknown) = named.iter().find(|n| !specs.contains(n)) {
                    return Err(SprtError::NotSeated {
                        name: unknown.clone(),
                        specs: owned(),
                    });
                }
                if named[0] == named[1] {
                    return Err(SprtError::Twice(named[0].clone()));
                }
                Ok((named[0].clone(), named[1].clone()))
            }
        }
    }
}

/// The bounds of the test: `(lower, upper) = (ln(β/(1 − α)), ln((1 − β)/α))`.
pub(crate) fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The log-likelihood ratio of H1 against H0 after `n` differences summing to `sum` with sample
/// variance `var`: `(h1 − h0) / var · (sum − n·(h0 + h1)/2)`. `None` without a spread to scale by
/// (fewer than two deals, or every difference equal).
pub fn llr(n: u64, sum: f64, var: f64, h0: f64, h1: f64) -> Option<f64> {
    if n < 2 || var.is_nan() || var <= 0.0 {
        return None;
    }
    Some((h1 - h0) / var * (sum - n as f64 * (h0 + h1) / 2.0))
}

/// The sum and sample variance (n − 1 in the denominator) of a pair's per-deal differences,
/// from its exact integer sums.
pub(crate) fn sum_and_variance(p: &PairTally) -> (f64, f64) {
    let scale = p.scale.max(1) as f64;
    let sum = p.diff_sum as f64 / scale;
    if p.deals < 2 {
        return (sum, f64::NAN);
    }
    let n = p.deals as f64;
    // n·ΣD² − (ΣD)² is exact in integers; divide once.
    let spread = (i128::from(p.deals as i64) * p.diff_sq - p.diff_sum * p.diff_sum) as f64;
    (sum, spread / (n * (n - 1.0)) / (scale * scale))
}

/// What the test says after a look.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The LLR reached the lower bound: A − B is `h0` rather than `h1`.
    H0,
    /// The LLR reached the upper bound: A − B is `h1` rather than `h0`.
    H1,
    /// Between the bounds: play on.
    Continue,
}

/// One look of the test (a row of `sprt.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStep {
    /// Deals looked at (`0..deals`).
    pub deals: u64,
    /// The log-likelihood ratio (`None` while the differences have no spread).
    pub llr: Option<f64>,
    /// The mean per-deal difference A − B.
    pub(crate) mean_diff: f64,
    /// The sample standard deviation of the per-deal differences.
    pub(crate) sd_diff: f64,
    /// What the test says.
    pub verdict: Verdict,
}

/// The test of a run: which pair of the tally it reads, with which sign, against which bounds.
#[derive(Clone, Debug)]
pub struct SprtTest {
    config: SprtConfig,
    /// Agent A and agent B.
    names: (String, String),
    /// Index of the pair (A, B) in the tally's pairs.
    pair: usize,
    /// +1 when the tally's pair is A − B, −1 when it is B − A.
    sign: f64,
    lower: f64,
    upper: f64,
}

impl SprtTest {
    /// The test of `config` on a tally of the experiment's seat specs `seat_specs`.
    pub fn new(
        config: &SprtConfig,
        seat_specs: &[String],
        tally: &Tally,
    ) -> Result<Self, SprtError> {
        let (a, b) = config.pair(seat_specs)?;
        let at = |s: &str| tally.agents.iter().position(|x| x == s);
        let (ia, ib) = (
            at(&a).ok_or(SprtError::NotInTally('A'))?,
            at(&b).ok_or(SprtError::NotInTally('B'))?,
        );
        let (lo, hi, sign) = if ia < ib {
            (ia, ib, 1.0)
        } else {
            (ib, ia, -1.0)
        };
        let pair = tally
            .pairs
            .iter()
            .position(|p| p.a == lo && p.b == hi)
            .ok_or(SprtError::PairNotInTally)?;
        let (lower, upper) = bounds(config.alpha, config.beta);
        Ok(SprtTest {
            config: config.clone(),
            names: (a, b),
            pair,
            sign,
            lower,
            upper,
        })
    }

    /// The last deal (exclusive) of the chunk that starts at deal `next`: the next multiple of
    /// the test's `chunk`.
    pub(crate) fn next_look(&self, next: u64) -> u64 {
        (next / self.config.chunk + 1) * self.config.chunk
    }

    /// Whether the test looks after `done` deals of a budget of `budget`.
    pub(crate) fn looks_at(&self, done: u64, budget: u64) -> bool {
        done.is_multiple_of(self.config.chunk) || done == budget
    }

    /// Looks at the tally: the LLR of the deals so far and the verdict.
    pub fn look(&self, tally: &Tally) -> SprtStep {
        let empty = PairTally::default();
        let (p, unit) = match self.config.estimator {
            Estimator::Plain => (&tally.pairs[self.pair], 1.0),
            // none until a deal is tallied; sums in units of LUCK_UNIT
            Estimator::LuckCorrected => (
                tally.corrected.get(self.pair).unwrap_or(&empty),
                LUCK_UNIT as f64,
            ),
        };
        let (sum, var) = sum_and_variance(p);
        let (sum, var) = (self.sign * sum / unit, var / (unit * unit));
        let llr = llr(p.deals, sum, var, self.config.h0, self.config.h1);
        let verdict = match llr {
            Some(x) if x >= self.upper => Verdict::H1,
            Some(x) if x <= self.lower => Verdict::H0,
            _ => Verdict::Continue,
        };
        SprtStep {
            deals: p.deals,
            llr,
            mean_diff: sum / p.deals.max(1) as f64,
            sd_diff: var.max(0.0).sqrt(),
            verdict,
        }
    }

    /// The outcome of a finished run whose looks were `steps`, with a budget of `budget` deals.
    pub fn outcome(&self, steps: &[SprtStep], budget: u64) -> SprtOutcome {
        let last = steps.last();
        let accepted = match last.map(|s| s.verdict) {
            Some(Verdict::H0) => "H0",
            Some(Verdict::H1) => "H1",
            _ => "none",
        };
        SprtOutcome {
            agents: [self.names.0.clone(), self.names.1.clone()],
            h0: self.config.h0,
            h1: self.config.h1,
            alpha: self.config.alpha,
            beta: self.config.beta,
            chunk: self.config.chunk,
            accepted: accepted.to_string(),
            deals: last.map_or(0, |s| s.deals),
            budget,
            llr: last.and_then(|s| s.llr),
            lower: self.lower,
            upper: self.upper,
            mean_diff: last.map_or(f64::NAN, |s| s.mean_diff),
            sd_diff: last.map_or(f64::NAN, |s| s.sd_diff),
            estimator: self.config.estimator,
        }
    }
}

/// How the test ended (the `sprt` object of `meta.json` and `run.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtOutcome {
    /// Agents A and B (the test is on A − B).
    pub agents: [String; 2],
    /// The null hypothesis (mean per-deal difference).
    pub h0: f64,
    /// The alternative hypothesis.
    pub h1: f64,
    /// Error rate of accepting H1 under H0.
    pub(crate) alpha: f64,
    /// Error rate of accepting H0 under H1.
    pub(crate) beta: f64,
    /// Deals between looks.
    pub(crate) chunk: u64,
    /// `H0`, `H1`, or `none` (the budget ran out first).
    pub accepted: String,
    /// Deals played when it stopped.
    pub deals: u64,
    /// The budget (the experiment's `deals`).
    pub budget: u64,
    /// The LLR at the last look (`None`: the differences had no spread).
    pub llr: Option<f64>,
    /// The lower bound, `ln(β/(1 − α))`.
    pub(crate) lower: f64,
    /// The upper bound, `ln((1 − β)/α)`.
    pub upper: f64,
    /// The mean per-deal difference A − B at the last look.
    pub(crate) mean_diff: f64,
    /// The sample standard deviation of the per-deal differences at the last look.
    pub(crate) sd_diff: f64,
    /// The differences tested: plain, or luck-corrected.
    #[serde(default, skip_serializing_if = "Estimator::is_plain")]
    pub estimator: Estimator,
}

impl SprtOutcome {
    /// One line for the console: which hypothesis was accepted after how many deals.
    pub fn line(&self) -> String {
        let (h0, h1) = (self.h0, self.h1);
        let what = match self.accepted.as_str() {
            "H0" => format!(
                "H0 (A − B = {h0}) accepted over H1 (A − B = {h1}) after {} of at most {} deals",
                thousands(self.deals),
                thousands(self.budget)
            ),
            "H1" => format!(
                "H1 (A − B = {h1}) accepted over H0 (A − B = {h0}) after {} of at most {} deals",
                thousands(self.deals),
                thousands(self.budget)
            ),
            _ => format!(
                "neither H0 (A − B = {h0}) nor H1 (A − B = {h1}) accepted within the budget of {} \
                 deals",
                thousands(self.budget)
            ),
        };
        let llr = self.llr.map_or_else(
            || "undefined (no spread in the per-deal differences)".to_string(),
            |x| format!("{x:+.3}"),
        );
        let of = match self.estimator {
            Estimator::Plain => "",
            Estimator::LuckCorrected => " of the luck-corrected differences",
        };
        format!(
            "SPRT{of}, A = {}, B = {}: {what}; LLR {llr}, bounds [{:+.3}, {:+.3}] (α {}, β {})",
            self.agents[0], self.agents[1], self.lower, self.upper, self.alpha, self.beta
        )
    }
}

/// `sprt.csv` as bytes: one row per look of the test, in order.
pub(crate) fn sprt_csv(steps: &[SprtStep], outcome: &SprtOutcome) -> Vec<u8> {
    let num = |x: f64| {
        if x.is_finite() {
            format!("{x:.6}")
        } else {
            String::new()
        }
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SPRT_HEADER).expect("in memory");
    for s in steps {
        let decision = match s.verdict {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
            Verdict::Continue => "continue",
        };
        w.write_record([
            s.deals.to_string(),
            s.llr.map_or_else(String::new, num),
            num(outcome.lower),
            num(outcome.upper),
            num(s.mean_diff),
            num(s.sd_diff),
            decision.to_string(),
        ])
        .expect("in memory");
    }
    w.into_inner().expect("in memory")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::AgentKey;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-9
    }

    /// A pair tally of integer per-deal differences (scale 1).
    fn pair_of(diffs: &[i128]) -> PairTally {
        PairTally {
            a: 0,
            b: 1,
            deals: diffs.len() as u64,
            diff_sum: diffs.iter().sum(),
            diff_sq: diffs.iter().map(|d| d * d).sum(),
            scale: 1,
        }
    }

    #[test]
    fn bounds_by_hand() {
        // α = β = 0.05: ±ln 19 = ±2.944439…
        let (lo, hi) = bounds(0.05, 0.05);
        assert!(close(hi, 2.944_438_979_166_44) && close(lo, -2.944_438_979_166_44));
        // α = 0.1, β = 0.2: ln(0.2/0.9) = −1.504077…, ln(0.8/0.1) = ln 8 = 2.079441…
        let (lo, hi) = bounds(0.1, 0.2);
        assert!(close(lo, -1.504_077_396_776_27), "{lo}");
        assert!(close(hi, 2.079_441_541_679_84), "{hi}");
    }

    #[test]
    fn llr_by_hand() {
        // d = 1, 0, 2, 1, 1: n 5, Σd 5, Σd² 7, s² = (5·7 − 25)/(5·4) = 0.5;
        // h0 0, h1 0.5: LLR = 0.5/0.5 · (5 − 5·0.25) = 3.75.
        let p = pair_of(&[1, 0, 2, 1, 1]);
        let (sum, var) = sum_and_variance(&p);
        assert!(close(sum, 5.0) && close(var, 0.5), "{sum} {var}");
        assert!(close(llr(5, sum, var, 0.0, 0.5).unwrap(), 3.75));
        // d = −1, 1, 0, 0: Σd 0, s² = 2/3; h0 0, h1 1: LLR = 1.5 · (0 − 2) = −3.
        let p = pair_of(&[-1, 1, 0, 0]);
        let (sum, var) = sum_and_variance(&p);
        assert!(close(var, 2.0 / 3.0));
        assert!(close(llr(4, sum, var, 0.0, 1.0).unwrap(), -3.0));
        // h0 −1, h1 1 on d = 1, 0, 2, 1, 1: 2/0.5 · (5 − 0) = 20.
        assert!(close(llr(5, 5.0, 0.5, -1.0, 1.0).unwrap(), 20.0));
    }

    #[test]
    fn no_spread_no_ratio() {
        assert_eq!(llr(1, 3.0, f64::NAN, 0.0, 1.0), None);
        let p = pair_of(&[2, 2, 2]);
        let (sum, var) = sum_and_variance(&p);
        assert_eq!((sum, var), (6.0, 0.0));
        assert_eq!(llr(3, sum, var, 0.0, 1.0), None);
    }

    #[test]
    fn scaled_differences_and_reversed_pairs() {
        // D = 3, 1, 5, 3, 3 over scale 3 (e.g. 1 seat against 3): d = 1, 1/3, 5/3, 1, 1;
        // Σd = 5, Σd² = 53/9, s² = (5·53/9 − 25)/20 = 2/9; h0 0, h1 0.5:
        // LLR = 0.5/(2/9) · (5 − 1.25) = 2.25 · 3.75 = 8.4375.
        let p = PairTally {
            a: 0,
            b: 1,
            deals: 5,
            diff_sum: 15,
            diff_sq: 9 + 1 + 25 + 9 + 9,
            scale: 3,
        };
        let (sum, var) = sum_and_variance(&p);
        assert!(close(sum, 5.0) && close(var, 2.0 / 9.0), "{sum} {var}");
        let specs: Vec<String> = ["x", "y", "y"].map(String::from).to_vec();
        let mut tally = Tally::new(&specs, AgentKey::written);
        tally.pairs[0] = p;
        let config = |agents: [&str; 2], h1: f64| SprtConfig {
            agents: Some(agents.map(String::from).to_vec()),
            h0: 0.0,
            h1,
            alpha: 0.05,
            beta: 0.05,
            chunk: 1,
            estimator: Estimator::Plain,
        };
        let ab = SprtTest::new(&config(["x", "y"], 0.5), &specs, &tally).unwrap();
        let step = ab.look(&tally);
        assert!(close(step.llr.unwrap(), 8.4375), "{:?}", step.llr);
        assert_eq!(step.verdict, Verdict::H1);
        assert!(close(step.mean_diff, 1.0) && close(step.sd_diff, (2.0f64 / 9.0).sqrt()));
        // B − A: Σd = −5: 2.25 · (−5 − 1.25) = −14.0625 → H0
        let ba = SprtTest::new(&config(["y", "x"], 0.5), &specs, &tally).unwrap();
        let step = ba.look(&tally);
        assert!(close(step.llr.unwrap(), -14.0625), "{:?}", step.llr);
        assert_eq!(step.verdict, Verdict::H0);
        assert!(close(step.mean_diff, -1.0));
        // h1 = 2 (the mean 1 is halfway): 2/(2/9) · (5 − 5) = 0 → go on
        let mid = SprtTest::new(&config(["x", "y"], 2.0), &specs, &tally).unwrap();
        let step = mid.look(&tally);
        assert!(close(step.llr.unwrap(), 0.0));
        assert_eq!(step.verdict, Verdict::Continue);
    }

    #[test]
    fn config_errors_name_the_key() {
        let specs: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let ok = SprtConfig {
            agents: Some(vec!["a".into(), "c".into()]),
            h0: 0.0,
            h1: 0.5,
            alpha: 0.05,
            beta: 0.05,
            chunk: 100,
            estimator: Estimator::Plain,
        };
        assert!(ok.check(&specs, Estimator::Plain).is_ok());
        let err = |f: &dyn Fn(&mut SprtConfig)| {
            let mut c = ok.clone();
            f(&mut c);
            c.check(&specs, Estimator::Plain).unwrap_err().to_string()
        };
        assert!(matches!(
            ok.check(&specs[..1], Estimator::Plain),
            Err(SprtError::NotSeated { name, .. }) if name == "c"
        ));
        assert!(err(&|c| c.alpha = 0.5).contains("'alpha'"));
        assert!(err(&|c| c.beta = 0.0).contains("'beta'"));
        assert!(err(&|c| c.h1 = 0.0).contains("'h1'"));
        assert!(err(&|c| c.h0 = f64::NAN).contains("'h0'"));
        assert!(err(&|c| c.chunk = 0).contains("'chunk'"));
        assert!(err(&|c| c.estimator = Estimator::LuckCorrected).contains("'estimator'"));
        let corrected = SprtConfig {
            estimator: Estimator::LuckCorrected,
            ..ok.clone()
        };
        assert!(corrected.check(&specs, Estimator::LuckCorrected).is_ok());
        assert!(err(&|c| c.agents = None).contains("key 'agents' missing"));
        assert!(err(&|c| c.agents = Some(vec!["a".into(), "z".into()])).contains("'z'"));
        assert!(err(&|c| c.agents = Some(vec!["a".into(), "a".into()])).contains("twice"));
        assert!(err(&|c| c.agents = Some(vec!["a".into()])).contains("exactly two"));
        let same: Vec<String> = ["a", "a"].map(String::from).to_vec();
        let mut c = ok.clone();
        c.agents = None;
        assert!(c
            .check(&same, Estimator::Plain)
            .unwrap_err()
            .to_string()
            .contains("one distinct"));
    }
}

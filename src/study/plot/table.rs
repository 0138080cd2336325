//! The rows each chart draws, parsed from a recognised [`Csv`].

use super::read::{Csv, Est, Kind, Row};

/// One agent of a run: its win rate and mean payout.
#[derive(Clone, Debug)]
pub struct AgentRow {
    /// The agent spec.
    pub agent: String,
    /// Share of games won.
    pub(crate) win_rate: Est,
    /// Mean payout per game.
    pub payout: Est,
}

/// One pair of a run: the paired payout difference `agent − versus`.
#[derive(Clone, Debug)]
pub struct PairRow {
    /// The first agent.
    pub agent: String,
    /// The second agent.
    pub(crate) versus: String,
    /// Paired mean difference per deal.
    pub diff: Est,
}

/// One row of `ismcts-strength.csv`.
#[derive(Clone, Debug)]
pub struct StrengthRow {
    /// Iterations per decision.
    pub iters: f64,
    /// Paired difference against the field.
    pub diff: Est,
    /// Milliseconds per decision.
    pub(crate) ms: f64,
}

/// One evaluation of `bailab train`'s `curve.csv`.
#[derive(Clone, Debug)]
pub struct CurvePoint {
    /// Training decisions so far.
    pub decisions: f64,
    /// The network's paired gain over greedy per game.
    pub gain: Est,
    /// Wall seconds so far.
    pub(crate) seconds: f64,
}

/// One bar of a distribution.
#[derive(Clone, Debug)]
pub struct DistRow {
    /// The game.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// The measure.
    pub measure: String,
    /// Empty for dealt hands, or the agent spec.
    pub group: String,
    /// `hand` or `deal`.
    pub per: String,
    /// The measure's value.
    pub value: f64,
    /// Hands or deals counted.
    pub total: f64,
    /// Share with that value.
    pub share: Est,
}

/// One action of `equity.csv`.
#[derive(Clone, Debug)]
pub struct EquityRow {
    /// 1 = best.
    pub rank: f64,
    /// The action as written.
    pub action: String,
    /// Share of playouts won.
    pub(crate) win_rate: Est,
    /// Mean payout.
    pub payout: Est,
}

/// One candidate in one round of `report.csv`.
#[derive(Clone, Debug)]
pub struct TuneRow {
    /// The candidate's name.
    pub(crate) candidate: String,
    /// Its parameters.
    pub params: String,
    /// The racing round.
    pub(crate) round: f64,
    /// Paired difference against default greedy.
    pub diff: Est,
    /// `kept`, `dropped` or `best`.
    pub status: String,
}

/// A recognised CSV's rows.
#[derive(Clone, Debug)]
pub enum Table {
    /// A run's summary.
    Summary(Vec<AgentRow>, Vec<PairRow>),
    /// ISMCTS strength against iterations.
    Strength(Vec<StrengthRow>),
    /// Distributions.
    Distributions(Vec<DistRow>),
    /// Equity per action.
    Equity(Vec<EquityRow>),
    /// Tuning report.
    Tune(Vec<TuneRow>),
    /// A learning curve.
    Curve(Vec<CurvePoint>),
}

impl Table {
    /// Parses every row of `csv` as its format; the first bad field is an error.
    pub fn parse(csv: &Csv) -> anyhow::Result<Table> {
        let table = match csv.kind()? {
            Kind::Summary => summary(csv)?,
            Kind::Strength => Table::Strength(all(csv, strength)?),
            Kind::Distributions => Table::Distributions(all(csv, dist)?),
            Kind::Equity => Table::Equity(all(csv, equity)?),
            Kind::Tune => Table::Tune(all(csv, tune)?),
            Kind::Curve => Table::Curve(all(csv, curve_point)?),
        };
        if table.is_empty() {
            anyhow::bail!("{}: no rows to plot", csv.path.display());
        }
        Ok(table)
    }

    fn is_empty(&self) -> bool {
        match self {
            Table::Summary(a, p) => a.is_empty() && p.is_empty(),
            Table::Strength(r) => r.is_empty(),
            Table::Distributions(r) => r.is_empty(),
            Table::Equity(r) => r.is_empty(),
            Table::Tune(r) => r.is_empty(),
            Table::Curve(r) => r.is_empty(),
        }
    }
}

fn all<T>(csv: &Csv, f: fn(&Row) -> anyhow::Result<T>) -> anyhow::Result<Vec<T>> {
    csv.rows().map(|r| f(&r)).collect()
}

fn summary(csv: &Csv) -> anyhow::Result<Table> {
    let (mut agents, mut pairs) = (Vec::new(), Vec::new());
    for r in csv.rows() {
        match r.text("kind") {
            "agent" => agents.push(AgentRow {
                agent: r.text("agent").to_string(),
                win_rate: r.est("win_rate")?,
                payout: r.est("mean_payout")?,
            }),
            "pair" => pairs.push(PairRow {
                agent: r.text("agent").to_string(),
                versus: r.text("versus").to_string(),
                diff: r.est("mean_diff")?,
            }),
            _ => {} // rows of kinds added later are not drawn
        }
    }
    Ok(Table::Summary(agents, pairs))
}

fn strength(r: &Row) -> anyhow::Result<StrengthRow> {
    Ok(StrengthRow {
        iters: r.num("iters")?,
        diff: r.est("mean_diff")?,
        ms: r.num("ms_per_decision")?,
    })
}

fn curve_point(r: &Row) -> anyhow::Result<CurvePoint> {
    Ok(CurvePoint {
        decisions: r.num("decisions")?,
        gain: r.est("vs_greedy")?,
        seconds: r.num("wall_seconds")?,
    })
}

fn dist(r: &Row) -> anyhow::Result<DistRow> {
    Ok(DistRow {
        game: r.text("game").to_string(),
        variant: r.text("variant").to_string(),
        measure: r.text("measure").to_string(),
        group: r.text("group").to_string(),
        per: r.text("per").to_string(),
        value: r.num("value")?,
        total: r.num("total")?,
        share: r.est("share")?,
    })
}

fn equity(r: &Row) -> anyhow::Result<EquityRow> {
    Ok(EquityRow {
        rank: r.num("rank")?,
        action: r.text("action").to_string(),
        win_rate: r.est("win_rate")?,
        payout: r.est("mean_payout")?,
    })
}

fn tune(r: &Row) -> anyhow::Result<TuneRow> {
    Ok(TuneRow {
        candidate: r.text("candidate").to_string(),
        params: r.text("params").to_string(),
        round: r.num("round")?,
        diff: r.est("mean_diff")?,
        status: r.text("status").to_string(),
    })
}

//! The summary a run prints: per agent its games, wins and payouts with their intervals, the
//! paired differences, and the run's speed.

use crate::games::kind::GameKind;
use crate::games::{with_game, GameVisitor};
use crate::sim::run::experiment::Experiment;
use crate::sim::run::pace::human_duration;
use crate::sim::run::report::RunReport;
use crate::sim::stats::interval::{mean_interval, wilson};
use crate::sim::stats::tally::Tally;
use crate::text::thousands;
use std::io::Write;

/// Prints the readable summary of a report.
pub(crate) fn print_report(
    exp: &Experiment,
    r: &RunReport,
    out: &mut impl Write,
) -> std::io::Result<()> {
    write!(out, "{}", console_summary(exp, &r.tally))?;
    if let Some(line) = describe_deal(exp) {
        writeln!(out, "{line}")?;
    }
    if let Some(o) = &r.sprt {
        writeln!(out, "{}", o.line())?;
    }
    let speed = match r.threads {
        Some(t) => format!(
            " in {} ({} games/s, {t} thread{}{})",
            if r.elapsed < 120.0 {
                format!("{:.2} s", r.elapsed)
            } else {
                human_duration(r.elapsed)
            },
            thousands((r.games as f64 / r.elapsed.max(1e-9)).round() as u64),
            if t == 1 { "" } else { "s" },
            match r.resumed_from {
                Some(d) => format!(
                    "; resumed at deal {}, {} sessions",
                    thousands(d),
                    r.sessions
                ),
                None => String::new(),
            }
        ),
        None => " merged from shards".to_string(),
    };
    writeln!(
        out,
        "{} games{speed}; results in {}",
        thousands(r.games),
        r.dir.display()
    )
}

/// The line the summary prints for an experiment with a `[deal]` table.
pub(crate) fn describe_deal(exp: &Experiment) -> Option<String> {
    struct Describe<'a>(&'a Experiment);
    impl GameVisitor for Describe<'_> {
        type Output = Option<String>;
        fn visit<G: GameKind>(self) -> Option<String> {
            let exp = self.0;
            let game = G::build(exp.variant(), exp.players(), &exp.rules).ok()?;
            let plan = exp.deal.as_ref()?.check(&game).ok()?;
            let rotation = if exp.rotations() > 1 {
                "; the fixed hands stay with their seats and the agents rotate through them"
            } else {
                ""
            };
            Some(format!("deal [deal]: {}{rotation}", plan.describe()))
        }
    }
    with_game(&exp.game, Describe(exp)).ok().flatten()
}

/// A rate as a percentage with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The summary printed after a run, readable without the docs: what was played, per agent the
/// games it played, its seats per game, wins, win rate per seat with its 95% interval, penalties
/// and mean payout per seat-game with its 95% interval, the reference win rate of equal play, the
/// payout unit, and the paired differences with their 95% intervals.
pub(crate) fn console_summary(exp: &Experiment, t: &Tally) -> String {
    let (title, unit) = crate::games::game_info(&exp.game)
        .map_or((exp.game.as_str(), "payout units"), |g| {
            (g.title, g.payout_unit)
        });
    let n = exp.players();
    let per_deal = (exp.rotations() * exp.match_games as usize) as u64;
    let deals = t.games / per_deal.max(1);
    let drawn = t.per_agent.iter().map(|a| a.draws).sum::<u64>() / n.max(1) as u64;
    let games = t.games.max(1);
    let mut out = format!(
        "{title} {}, {n} players: {} deals",
        exp.variant(),
        thousands(deals)
    );
    if exp.rotations() > 1 {
        out += &format!(" × {} seat rotations", exp.rotations());
    }
    if exp.match_games > 1 {
        out += &format!(" × {} games per match", exp.match_games);
    }
    out += &format!(
        " = {} games; {} won, {} drawn ({})\n",
        thousands(t.games),
        thousands(t.games - drawn),
        thousands(drawn),
        percent(drawn as f64 / games as f64)
    );
    out += &agent_table(t);
    let equal = 1.0 / n.max(1) as f64;
    out += &format!(
        "reference: equal play wins 1/{n} = {} of seat-games ({} with the {} drawn)\n",
        percent(equal),
        percent(equal * (1.0 - drawn as f64 / games as f64)),
        percent(drawn as f64 / games as f64)
    );
    out += &format!(
        "payouts are in {unit}; intervals are 95% (Wilson for win rates, Student t for means)\n"
    );
    for p in &t.pairs {
        let (m, lo, hi, _) = mean_interval(p.diff_sum, p.diff_sq, p.deals, p.scale as f64);
        out += &format!(
            "paired: {} − {}, mean over {} deals of the per-deal difference of mean payouts: \
             {m:+.3} {unit}, 95% interval [{lo:+.3}, {hi:+.3}]\n",
            t.agents[p.a],
            t.agents[p.b],
            thousands(p.deals)
        );
    }
    out
}

/// The per-agent table of [`console_summary`]: games, seats, wins, win rate, penalties and mean
/// payout, one aligned row per agent under a header.
fn agent_table(t: &Tally) -> String {
    let games = t.games.max(1);
    let mut out = String::new();
    let header = [
        "agent",
        "games",
        "seats",
        "wins",
        "win rate per seat [95%]",
        "penalties",
        "mean payout per seat-game [95%]",
    ];
    let mut rows: Vec<[String; 7]> = vec![header.map(String::from)];
    for (name, a) in t.agents.iter().zip(&t.per_agent) {
        let (wr, wlo, whi) = wilson(a.wins, a.games);
        let (m, lo, hi, _) = mean_interval(i128::from(a.payout_sum), a.payout_sq, a.games, 1.0);
        rows.push([
            name.clone(),
            thousands(t.games),
            (a.games / games).to_string(),
            thousands(a.wins),
            format!("{} [{}, {}]", percent(wr), percent(wlo), percent(whi)),
            thousands(a.penalties),
            format!("{m:+.3} [{lo:+.3}, {hi:+.3}]"),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            match c {
                0 | 4 | 6 => {
                    line += cell;
                    line += &" ".repeat(pad);
                }
                _ => {
                    line += &" ".repeat(pad);
                    line += cell;
                }
            }
            line += "  ";
        }
        out += line.trim_end();
        out += "\n";
    }
    out
}

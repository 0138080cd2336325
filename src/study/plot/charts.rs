//! Which charts each CSV format gets, with their titles, axis descriptions and file names.

use super::draw::{self, Bars, Curve, Forest, Histogram, Item, Mark, PALETTE};
use super::label::{cut, decimals, file_part, percent, short_spec, short_unit, signed};
use super::options::Options;
use super::read::{Csv, Est};
use super::table::{
    AgentRow, CurvePoint, DistRow, EquityRow, PairRow, StrengthRow, Table, TuneRow,
};
use crate::games::game_info;
use crate::games::kind::GameInfo;
use anyhow::Context as _;
use plotters::style::RGBColor;
use std::path::Path;

/// What is known about a CSV beyond its rows: its game (for the payout unit and the title), its
/// variant, its run's name and agents. Read from a `meta.json` beside the CSV, or from the first
/// `<stem>/*/meta.json` (the runs a summary CSV such as `ismcts-strength.csv` was made from);
/// `--game` overrides the game.
#[derive(Clone, Debug, Default)]
pub(crate) struct Context {
    /// The game, when known.
    pub game: Option<&'static GameInfo>,
    /// The variant, when known.
    pub variant: Option<String>,
    /// The run's name (or the CSV's folder or stem).
    pub name: String,
    /// The CSV's file stem (the SVG's name).
    pub(crate) stem: String,
    /// The run's agents, when known.
    pub agents: Vec<String>,
    /// `--title`.
    pub title: Option<String>,
}

impl Context {
    /// Finds the context of `csv`.
    pub(crate) fn find(csv: &Path, opts: &Options) -> anyhow::Result<Context> {
        let stem = csv
            .file_stem()
            .map_or_else(|| "chart".into(), |s| s.to_string_lossy().into_owned());
        let dir = csv.parent().unwrap_or(Path::new(""));
        let folder = dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| stem.clone());
        let standard = ["summary", "distributions", "equity", "report"];
        let mut ctx = Context {
            name: if standard.contains(&stem.as_str()) {
                folder
            } else {
                stem.clone()
            },
            stem: stem.clone(),
            title: opts.title.clone(),
            ..Context::default()
        };
        if let Some(meta) = meta_file(dir, &stem) {
            ctx.read_meta(&meta)?;
        }
        if let Some(g) = &opts.game {
            ctx.game = Some(game_info(g)?);
        }
        Ok(ctx)
    }

    fn read_meta(&mut self, path: &Path) -> anyhow::Result<()> {
        let text = crate::input::read_text(path, crate::input::RESULT)?;
        let meta: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        let exp = &meta["experiment"];
        self.game = exp["game"].as_str().and_then(|g| game_info(g).ok());
        self.variant = exp["variant"].as_str().map(str::to_string);
        if let (Some(name), true) = (exp["name"].as_str(), self.stem == "summary") {
            self.name = name.to_string();
        }
        if let Some(agents) = exp["agents"].as_array() {
            self.agents = agents
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect();
        }
        Ok(())
    }

    /// Takes the game and variant from the CSV's own `game` and `variant` columns (first row)
    /// when neither `meta.json` nor `--game` gave them: result CSVs name their study on every
    /// row, so one copied away from its folder still plots with its unit and title.
    pub(crate) fn read_columns(&mut self, csv: &Csv) {
        let has = |name: &str| csv.header.iter().any(|h| h == name);
        let Some(row) = csv.rows().next() else {
            return;
        };
        if self.game.is_none() && has("game") {
            self.game = game_info(row.text("game")).ok();
        }
        if self.variant.is_none() && has("variant") && !row.text("variant").is_empty() {
            self.variant = Some(row.text("variant").to_string());
        }
    }

    /// The payout unit, short (`points`), or `payout units` when the game is unknown.
    fn unit(&self) -> &'static str {
        self.game
            .map_or("payout units", |g| short_unit(g.payout_unit))
    }

    /// `--title`, or `Game variant: what`.
    fn title(&self, what: &str) -> String {
        if let Some(t) = &self.title {
            return t.clone();
        }
        match (self.game, &self.variant) {
            (Some(g), Some(v)) => format!("{} ({v}): {what}", g.title),
            (Some(g), None) => format!("{}: {what}", g.title),
            _ => what.to_string(),
        }
    }
}

/// `dir/meta.json`, or the first `dir/<stem>/*/meta.json`.
fn meta_file(dir: &Path, stem: &str) -> Option<std::path::PathBuf> {
    let beside = dir.join("meta.json");
    if beside.is_file() {
        return Some(beside);
    }
    let mut runs: Vec<_> = std::fs::read_dir(dir.join(stem))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("meta.json")))
        .filter(|p| p.is_file())
        .collect();
    runs.sort();
    runs.into_iter().next()
}

/// The charts of `table` as `(file name, SVG text)`.
pub(crate) fn draw(table: &Table, ctx: &Context) -> anyhow::Result<Vec<(String, String)>> {
    let one = |text: String| vec![(format!("{}.svg", ctx.stem), text)];
    Ok(match table {
        Table::Summary(agents, pairs) => one(summary(agents, pairs, ctx)?),
        Table::Strength(rows) => one(strength(rows, ctx)?),
        Table::Curve(rows) => one(learning_curve(rows, ctx)?),
        Table::Distributions(rows) => distributions(rows, ctx)?,
        Table::Equity(rows) => one(equity(rows, ctx)?),
        Table::Tune(rows) => one(tune(rows, ctx)?),
    })
}

/// The span of a set of intervals (for choosing decimals).
fn span<'a>(ests: impl Iterator<Item = &'a Est>) -> f64 {
    let (lo, hi) = ests.fold((0.0f64, 0.0f64), |(a, b), e| (a.min(e.lo), b.max(e.hi)));
    hi - lo
}

/// Decimals for value text: enough to show about a thirtieth of the narrowest interval, at
/// most 3.
fn value_decimals<'a>(ests: impl Iterator<Item = &'a Est>) -> usize {
    let narrowest = ests.map(|e| e.hi - e.lo).fold(f64::INFINITY, f64::min);
    decimals(narrowest / 3.0).saturating_sub(1).min(3)
}

/// Formatters for differences: value text `+0.74 [+0.53, +0.95]` (`v` decimals) and ticks
/// (for an axis spanning about 10^(2 − d)).
fn diff_fmt(v: usize, d: usize) -> (impl Fn(&Est) -> String, impl Fn(f64) -> String) {
    (
        move |e: &Est| {
            format!(
                "{} [{}, {}]",
                signed(e.mid, v),
                signed(e.lo, v),
                signed(e.hi, v)
            )
        },
        move |x: f64| signed(x, d.saturating_sub(1)),
    )
}

/// A panel of win rates (shares, as bars, no zero line): the agents' in a summary, the
/// actions' in an equity estimate.
fn win_forest<'a>(
    caption: &str,
    x_desc: &str,
    items: Vec<Item>,
    value: &'a dyn Fn(&Est) -> String,
    x_fmt: &'a dyn Fn(f64) -> String,
) -> Forest<'a> {
    Forest {
        caption: caption.into(),
        x_desc: x_desc.into(),
        items,
        mark: Mark::Bar,
        zero_line: false,
        value,
        x_fmt,
        legend: Vec::new(),
        breaks: Vec::new(),
    }
}

/// Formatters for shares: value text `25.6% [25.2, 26.0]` and ticks.
fn share_fmt(span: f64) -> (impl Fn(&Est) -> String, impl Fn(f64) -> String) {
    let d = decimals(100.0 * span).min(2);
    (
        move |e: &Est| {
            format!(
                "{} [{:.*}, {:.*}]",
                percent(e.mid, d),
                d,
                100.0 * e.lo,
                d,
                100.0 * e.hi
            )
        },
        move |x: f64| percent(x, d.saturating_sub(1)),
    )
}

fn summary(agents: &[AgentRow], pairs: &[PairRow], ctx: &Context) -> anyhow::Result<String> {
    let color = |i: usize| PALETTE[i % PALETTE.len()];
    let agent_items = |f: fn(&AgentRow) -> Est| -> Vec<Item> {
        agents
            .iter()
            .enumerate()
            .map(|(i, a)| Item {
                label: short_spec(&a.agent),
                est: f(a),
                color: color(i),
            })
            .collect()
    };
    let wins = agent_items(|a| a.win_rate);
    let (wv, wx) = share_fmt(span(wins.iter().map(|i| &i.est)));
    let win_panel = win_forest(
        "Win rate per agent, 95% interval",
        "share of games won",
        wins,
        &wv,
        &wx,
    );
    let unit = ctx.unit();
    let second = if pairs.is_empty() {
        let items = agent_items(|a| a.payout);
        (
            "Mean payout per agent, 95% interval".to_string(),
            format!("mean payout, {unit} per game"),
            items,
        )
    } else {
        let items = pairs
            .iter()
            .map(|p| Item {
                label: format!("{} − {}", short_spec(&p.agent), short_spec(&p.versus)),
                est: p.diff,
                color: color(agents.iter().position(|a| a.agent == p.agent).unwrap_or(0)),
            })
            .collect();
        (
            "Paired payout difference (first − second agent), 95% interval".to_string(),
            format!("difference of mean payouts, {unit} per game, paired by deal"),
            items,
        )
    };
    let ests = || second.2.iter().map(|i| &i.est);
    let (dv, dx) = diff_fmt(value_decimals(ests()), decimals(span(ests())));
    let diff_panel = Forest {
        caption: second.0,
        x_desc: second.1,
        items: second.2,
        mark: Mark::Point,
        zero_line: true,
        value: &dv,
        x_fmt: &dx,
        legend: Vec::new(),
        breaks: Vec::new(),
    };
    let labels = win_panel.items.iter().chain(&diff_panel.items);
    let label_px = draw::label_width(labels.map(|i| i.label.clone()));
    let h1 = draw::forest_height(&win_panel);
    let h2 = draw::forest_height(&diff_panel);
    let title = ctx.title(&ctx.name);
    draw::svg(draw::TITLE_PX + h1 + h2, &title, |area| {
        let (top, bottom) = area.split_vertically(h1);
        draw::forest(&top, &win_panel, label_px)?;
        draw::forest(&bottom, &diff_panel, label_px)
    })
}

fn strength(rows: &[StrengthRow], ctx: &Context) -> anyhow::Result<String> {
    let versus = versus(ctx);
    let unit = ctx.unit();
    let c = Curve {
        caption: "Paired payout difference with 95% interval; above each point: time per decision"
            .into(),
        x_desc: "ISMCTS iterations per decision (log scale)".into(),
        y_desc: format!("ISMCTS − {versus}, {unit} per game"),
        points: rows
            .iter()
            .map(|r| (r.iters, r.diff, format!("{:.1} ms", r.ms)))
            .collect(),
    };
    let title = ctx.title("ISMCTS strength against iterations");
    draw::svg(draw::TITLE_PX + draw::CURVE_PX, &title, |area| {
        draw::curve(area, &c)
    })
}

/// `bailab train`'s learning curve: the network's paired gain over greedy against training
/// decisions, each point with the wall time it was reached at.
fn learning_curve(rows: &[CurvePoint], ctx: &Context) -> anyhow::Result<String> {
    let c = Curve {
        caption: "Paired payout difference with 95% interval on fixed evaluation deals; above \
                  each point: wall time"
            .into(),
        x_desc: "training decisions (log scale)".into(),
        y_desc: format!("network − greedy, {} per game", ctx.unit()),
        points: rows
            .iter()
            .map(|r| (r.decisions, r.gain, format!("{:.0} min", r.seconds / 60.0)))
            .collect(),
    };
    let title = ctx.title("Learning curve against greedy");
    draw::svg(draw::TITLE_PX + draw::CURVE_PX, &title, |area| {
        draw::curve(area, &c)
    })
}

/// The opponents of the first agent of the run (`greedy`), or `field`.
fn versus(ctx: &Context) -> String {
    let mut others: Vec<String> = ctx.agents.iter().skip(1).map(|a| short_spec(a)).collect();
    others.dedup();
    if others.len() == 1 {
        others.remove(0)
    } else {
        "field".into()
    }
}

fn distributions(rows: &[DistRow], ctx: &Context) -> anyhow::Result<Vec<(String, String)>> {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.measure.as_str(), r.per.as_str())) {
            keys.push((&r.measure, &r.per));
        }
    }
    keys.iter()
        .map(|&(measure, per)| {
            let pers = keys.iter().filter(|k| k.0 == measure).count();
            let name = if pers > 1 {
                format!("{}-{}-{}.svg", ctx.stem, file_part(measure), file_part(per))
            } else {
                format!("{}-{}.svg", ctx.stem, file_part(measure))
            };
            let these: Vec<&DistRow> = rows
                .iter()
                .filter(|r| r.measure == measure && r.per == per)
                .collect();
            Ok((name, histogram(&these, ctx)?))
        })
        .collect()
}

fn histogram(rows: &[&DistRow], ctx: &Context) -> anyhow::Result<String> {
    let first = rows[0];
    let mut series: Vec<(&str, Bars)> = Vec::new();
    for r in rows {
        let at = match series.iter().position(|s| s.0 == r.group) {
            Some(i) => i,
            None => {
                let name = if r.group.is_empty() {
                    format!("dealt {}s", r.per)
                } else {
                    short_spec(&r.group)
                };
                let name = format!("{name} (n = {})", thousands(r.total));
                series.push((
                    &r.group,
                    Bars {
                        name,
                        bars: Vec::new(),
                    },
                ));
                series.len() - 1
            }
        };
        series[at].1.bars.push((r.value, r.share));
    }
    let game = game_info(&first.game).ok();
    let game_name = game.map_or(first.game.as_str(), |g| g.title);
    let title = ctx.title.clone().map_or_else(
        || format!("{game_name} ({}): {}", first.variant, first.measure),
        |t| format!("{t}: {}", first.measure),
    );
    let n = if series.len() == 1 {
        format!(", n = {} {}s", thousands(first.total), first.per)
    } else {
        String::new()
    };
    let h = Histogram {
        caption: format!("Share of {}s with each value, 95% interval{n}", first.per),
        x_desc: first.measure.clone(),
        y_desc: format!("share of {}s", first.per),
        series: series.into_iter().map(|s| s.1).collect(),
    };
    draw::svg(draw::TITLE_PX + draw::HIST_PX, &title, |area| {
        draw::histogram(area, &h)
    })
}

/// `10000000` → `10,000,000`.
fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 {
        out.insert(0, '-');
    }
    out
}

fn equity(rows: &[EquityRow], ctx: &Context) -> anyhow::Result<String> {
    let mut rows: Vec<&EquityRow> = rows.iter().collect();
    rows.sort_by(|a, b| a.rank.total_cmp(&b.rank));
    let color = |r: &EquityRow| {
        if r.rank == 1.0 {
            PALETTE[2]
        } else {
            PALETTE[0]
        }
    };
    let payout: Vec<Item> = rows
        .iter()
        .map(|r| Item {
            label: cut(&format!("{:.0}. {}", r.rank, r.action), 40),
            est: r.payout,
            color: color(r),
        })
        .collect();
    let wins: Vec<Item> = rows
        .iter()
        .map(|r| Item {
            label: String::new(),
            est: r.win_rate,
            color: color(r),
        })
        .collect();
    let ests = || payout.iter().map(|i| &i.est);
    let (pv, px) = diff_fmt(value_decimals(ests()), decimals(span(ests())));
    let (wv, wx) = share_fmt(span(wins.iter().map(|i| &i.est)));
    let unit = ctx.unit();
    let left = Forest {
        caption: "Mean payout, 95% interval (rank 1 = best)".into(),
        x_desc: format!("mean payout, {unit} per game"),
        items: payout,
        mark: Mark::Point,
        zero_line: true,
        value: &pv,
        x_fmt: &px,
        legend: Vec::new(),
        breaks: Vec::new(),
    };
    let right = win_forest(
        "Win rate, 95% interval",
        "share of playouts won",
        wins,
        &wv,
        &wx,
    );
    let label_px = draw::label_width(left.items.iter().map(|i| i.label.clone()));
    let title = ctx.title(&format!("equity per action ({})", ctx.name));
    let h = draw::forest_height(&left);
    draw::svg(draw::TITLE_PX + h, &title, |area| {
        let plot = (draw::WIDTH - label_px) / 2;
        let (l, r) = area.split_horizontally(label_px + plot);
        draw::forest(&l, &left, label_px)?;
        draw::forest(&r, &right, 8)
    })
}

/// The colour of a tuning status.
fn status_color(status: &str) -> RGBColor {
    match status {
        "best" => PALETTE[2],
        "kept" => PALETTE[0],
        "dropped" => RGBColor(150, 150, 150),
        _ => PALETTE[1],
    }
}

/// Most candidate rows a tuning chart shows: the last rounds that fit (the first rounds of a wide
/// search hold dozens of candidates each; the CSV keeps them all).
const MAX_TUNE_ROWS: usize = 40;

/// The rounds a tuning chart shows: the last ones whose rows fit in [`MAX_TUNE_ROWS`] (always at
/// least the final round), as the first round shown.
fn first_round_shown(rows: &[&TuneRow]) -> f64 {
    let mut rounds: Vec<f64> = rows.iter().map(|r| r.round).collect();
    rounds.dedup();
    let mut shown = 0;
    let mut first = rounds.last().copied().unwrap_or(0.0);
    for &round in rounds.iter().rev() {
        shown += rows.iter().filter(|r| r.round == round).count();
        if shown > MAX_TUNE_ROWS && round != first {
            break;
        }
        first = round;
    }
    first
}

fn tune(rows: &[TuneRow], ctx: &Context) -> anyhow::Result<String> {
    let mut rows: Vec<&TuneRow> = rows.iter().collect();
    rows.sort_by(|a, b| {
        a.round
            .total_cmp(&b.round)
            .then(b.diff.mid.total_cmp(&a.diff.mid))
    });
    let all_rounds = rows.last().map_or(0.0, |r| r.round);
    let first = first_round_shown(&rows);
    rows.retain(|r| r.round >= first);
    let caption = if first > 1.0 {
        format!(
            "Each candidate against default greedy, rounds {first:.0}–{all_rounds:.0} of \
             {all_rounds:.0} (earlier rounds in the CSV): paired difference, 95% interval"
        )
    } else {
        "Each candidate against default greedy, by round: paired difference, 95% interval".into()
    };
    let items: Vec<Item> = rows
        .iter()
        .map(|r| {
            let label = if r.params.is_empty() {
                format!("round {:.0}: {}", r.round, r.candidate)
            } else {
                format!("round {:.0}: {} ({})", r.round, r.candidate, r.params)
            };
            Item {
                label: cut(&label, 48),
                est: r.diff,
                color: status_color(&r.status),
            }
        })
        .collect();
    let breaks = (1..rows.len())
        .filter(|&i| rows[i].round != rows[i - 1].round)
        .collect();
    let mut legend: Vec<(String, RGBColor)> = Vec::new();
    for r in &rows {
        if !legend.iter().any(|l| l.0 == r.status) {
            legend.push((r.status.clone(), status_color(&r.status)));
        }
    }
    let ests = || items.iter().map(|i| &i.est);
    let (v, x) = diff_fmt(value_decimals(ests()), decimals(span(ests())));
    let unit = ctx.unit();
    let f = Forest {
        caption,
        x_desc: format!("candidate − default greedy, {unit} per game, paired by deal"),
        items,
        mark: Mark::Point,
        zero_line: true,
        value: &v,
        x_fmt: &x,
        legend,
        breaks,
    };
    let label_px = draw::label_width(f.items.iter().map(|i| i.label.clone()));
    let title = ctx.title(&format!("tuning ({})", ctx.name));
    let h = draw::forest_height(&f);
    draw::svg(draw::TITLE_PX + h, &title, |area| {
        draw::forest(area, &f, label_px)
    })
}

/// A forest of estimates with their 95% intervals and a line at zero, one row per label (a
/// tournament's ratings), for pages that draw charts of their own data.
pub(crate) fn estimates(
    title: &str,
    caption: &str,
    x_desc: &str,
    rows: &[(String, Est)],
) -> anyhow::Result<String> {
    let items: Vec<Item> = rows
        .iter()
        .enumerate()
        .map(|(i, (label, est))| Item {
            label: short_spec(label),
            est: *est,
            color: PALETTE[i % PALETTE.len()],
        })
        .collect();
    let ests = || items.iter().map(|i| &i.est);
    let (v, x) = diff_fmt(value_decimals(ests()), decimals(span(ests())));
    let f = Forest {
        caption: caption.into(),
        x_desc: x_desc.into(),
        items,
        mark: Mark::Point,
        zero_line: true,
        value: &v,
        x_fmt: &x,
        legend: Vec::new(),
        breaks: Vec::new(),
    };
    let label_px = draw::label_width(f.items.iter().map(|i| i.label.clone()));
    let h = draw::forest_height(&f);
    draw::svg(draw::TITLE_PX + h, title, |area| {
        draw::forest(area, &f, label_px)
    })
}

/// Estimates against a count on a log axis (a rating against ISMCTS iterations), with interval
/// bars, a zero line and a note above each point.
pub(crate) fn rating_curve(
    title: &str,
    y_desc: &str,
    points: Vec<(f64, Est, String)>,
) -> anyhow::Result<String> {
    let c = Curve {
        caption: "Rating with 95% interval; above each point: the games behind it".into(),
        x_desc: "ISMCTS iterations per decision (log scale)".into(),
        y_desc: y_desc.into(),
        points,
    };
    draw::svg(draw::TITLE_PX + draw::CURVE_PX, title, |area| {
        draw::curve(area, &c)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tuning_chart_keeps_the_last_rounds_that_fit() {
        let row = |round: f64| super::TuneRow {
            candidate: "c".into(),
            params: String::new(),
            round,
            diff: super::Est {
                mid: 0.0,
                lo: 0.0,
                hi: 0.0,
            },
            status: "kept".into(),
        };
        // 64 candidates in round 1, 32 in round 2, 16 in round 3, 8 in round 4
        let rows: Vec<super::TuneRow> = [(1.0, 64), (2.0, 32), (3.0, 16), (4.0, 8)]
            .iter()
            .flat_map(|&(r, n)| (0..n).map(move |_| row(r)))
            .collect();
        let refs: Vec<&super::TuneRow> = rows.iter().collect();
        assert_eq!(
            super::first_round_shown(&refs),
            3.0,
            "8 + 16 fit, + 32 does not"
        );
        assert_eq!(
            super::first_round_shown(&refs[..64]),
            1.0,
            "one round is always shown"
        );
        assert_eq!(super::first_round_shown(&refs[64..]), 3.0);
        let small: Vec<&super::TuneRow> = refs[112..].to_vec();
        assert_eq!(super::first_round_shown(&small), 4.0);
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(super::thousands(10_000_000.0), "10,000,000");
        assert_eq!(super::thousands(999.0), "999");
        assert_eq!(super::thousands(1000.0), "1,000");
    }
}

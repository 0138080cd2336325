//! The sections of the studies: dealt distributions, equity per action, tuning and learning
//! reports, and the ISMCTS strength table.

use super::html::{details, esc, facts, figure, num, part, pre, share_est, signed_est, table};
use super::section::Section;
use super::shared::{charts, game_title, json_text, json_words, need, opt, read_json, unit_of};
use crate::sim::files::schema::{columns, DISTRIBUTIONS_HEADER, EQUITY_HEADER, MEANS_HEADER};
use crate::study::plot::read::Csv;
use std::path::Path;

/// A `bailab deals` folder: the means, and one histogram per measure.
pub(crate) fn deals(dir: &Path) -> anyhow::Result<Section> {
    let meta = read_json(&dir.join("meta.json")).unwrap_or_default();
    let dist = Csv::read(&dir.join("distributions.csv"))?;
    need(
        &dist,
        &columns(
            &DISTRIBUTIONS_HEADER,
            ["game", "variant", "measure", "share"],
        ),
    )?;
    let first = dist.rows().next();
    let game = first
        .as_ref()
        .map_or(String::new(), |r| opt(&dist, r, "game"));
    let variant = first
        .as_ref()
        .map_or(String::new(), |r| opt(&dist, r, "variant"));
    let mut html = facts(&[
        ("kind", "hand and deal distributions (bailab deals)".into()),
        (
            "folder",
            format!("<code>{}</code>", esc(&dir.display().to_string())),
        ),
        ("game", esc(&game_title(&game))),
        ("variant", esc(&variant)),
        ("players", esc(&json_words(&meta["players"]))),
        ("deals", esc(&json_words(&meta["deals"]))),
        ("seed", esc(&json_text(&meta["seed"]))),
        ("games of the run", esc(&json_text(&meta["games_csv"]))),
        ("command", command(&meta["command"])),
        ("elapsed", elapsed(&dir.join("run.json"))),
        ("bailab version", esc(&json_text(&meta["version"]))),
    ]);
    html.push_str(&means_part(dir, &meta)?);
    for svg in charts(&dir.join("distributions.csv"))? {
        html.push_str(&figure(&svg));
    }
    Ok(Section {
        title: super::shared::folder_name(dir),
        kind: "deals".into(),
        html,
        column: None,
    })
}

/// The means of `means.csv`, each measure with what it counts (from `meta.json`).
fn means_part(dir: &Path, meta: &serde_json::Value) -> anyhow::Result<String> {
    let docs: Vec<(String, String)> = meta["measures"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|x| (json_text(&x["name"]), json_text(&x["doc"])))
                .collect()
        })
        .unwrap_or_default();
    let mut html = String::new();
    if dir.join("means.csv").is_file() {
        let means = Csv::read(&dir.join("means.csv"))?;
        need(
            &means,
            &columns(
                &MEANS_HEADER,
                [
                    "measure",
                    "group",
                    "per",
                    "total",
                    "mean",
                    "mean_lo95",
                    "mean_hi95",
                ],
            ),
        )?;
        let rows: Vec<Vec<String>> = means
            .rows()
            .map(|r| {
                let doc = docs
                    .iter()
                    .find(|d| d.0 == r.text("measure"))
                    .map_or(String::new(), |d| d.1.clone());
                Ok(vec![
                    format!("<code>{}</code>", esc(r.text("measure"))),
                    esc(&doc),
                    if r.text("group").is_empty() {
                        "dealt".into()
                    } else {
                        format!("<code>{}</code>", esc(r.text("group")))
                    },
                    esc(r.text("per")),
                    r.num("total").map_or_else(|_| esc(r.text("total")), num),
                    // an empty mean: nothing counted (a measure of wins in a run without any)
                    r.est("mean").map_or_else(
                        |_| "none counted".to_string(),
                        |e| signed_est(&e).replace('+', ""),
                    ),
                    opt(&means, &r, "sd")
                        .parse::<f64>()
                        .map_or_else(|_| String::new(), num),
                ])
            })
            .collect::<anyhow::Result<_>>()?;
        html.push_str(&part(
            "Means",
            "Each measure's mean over the hands (or deals) counted, with its Student-t 95% \
             interval; the histograms below give the share of each value with Wilson 95% \
             intervals.",
        ));
        html.push_str(&table(
            &[
                "measure",
                "what it counts",
                "whose hands",
                "per",
                "hands or deals counted",
                "mean [95% interval]",
                "standard deviation",
            ],
            &rows,
        ));
    }
    Ok(html)
}

/// A recorded command line, or nothing.
fn command(v: &serde_json::Value) -> String {
    v.as_str()
        .map_or(String::new(), |c| format!("<code>{}</code>", esc(c)))
}

/// The elapsed time of a `run.json`, when there is one.
fn elapsed(path: &Path) -> String {
    read_json(path)
        .ok()
        .and_then(|r| r["elapsed_s"].as_f64())
        .map_or(String::new(), super::html::duration)
}

/// A `bailab equity` folder: the actions ranked, with the position they were played from.
pub(crate) fn equity(dir: &Path) -> anyhow::Result<Section> {
    let meta = read_json(&dir.join("equity.json")).unwrap_or_default();
    let csv = Csv::read(&dir.join("equity.csv"))?;
    need(
        &csv,
        &columns(
            &EQUITY_HEADER,
            [
                "rank",
                "action",
                "samples",
                "win_rate",
                "win_rate_lo95",
                "win_rate_hi95",
            ],
        ),
    )?;
    need(
        &csv,
        &columns(
            &EQUITY_HEADER,
            ["mean_payout", "mean_payout_lo95", "mean_payout_hi95"],
        ),
    )?;
    let first = csv.rows().next();
    let game = meta["game"]
        .as_str()
        .map(str::to_string)
        .or_else(|| first.as_ref().map(|r| opt(&csv, r, "game")))
        .unwrap_or_default();
    let unit = first
        .as_ref()
        .map(|r| opt(&csv, r, "payout_unit"))
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| unit_of(&game));
    let mut html = facts(&[
        (
            "kind",
            "equity of each action in a position (bailab equity)".into(),
        ),
        (
            "folder",
            format!("<code>{}</code>", esc(&dir.display().to_string())),
        ),
        ("game", esc(&game_title(&game))),
        ("variant", esc(&json_text(&meta["variant"]))),
        ("position", esc(&json_text(&meta["position"]))),
        ("deciding seat", esc(&json_text(&meta["seat"]))),
        ("agents playing out", esc(&json_words(&meta["agents"]))),
        ("samples per action", esc(&json_words(&meta["samples"]))),
        ("budget", esc(&json_words(&meta["budget"]))),
        ("stopped", esc(&json_text(&meta["stopped"]))),
        ("seed", esc(&json_text(&meta["seed"]))),
        ("command", command(&meta["command"])),
        ("bailab version", esc(&json_text(&meta["version"]))),
    ]);
    if let Some(text) = meta["position_text"].as_str() {
        html.push_str(&details("The position file", &pre(text)));
    }
    html.push_str(&actions_part(&csv, &unit)?);
    for svg in charts(&dir.join("equity.csv"))? {
        html.push_str(&figure(&svg));
    }
    Ok(Section {
        title: super::shared::folder_name(dir),
        kind: "equity".into(),
        html,
        column: None,
    })
}

/// The actions of `equity.csv`, ranked, with their sentence.
fn actions_part(csv: &Csv, unit: &str) -> anyhow::Result<String> {
    let has_diff = columns(&EQUITY_HEADER, ["diff_vs_best", "diff_lo95", "diff_hi95"])
        .iter()
        .all(|c| csv.header.iter().any(|h| h == c));
    let mut out = String::new();
    let rows: Vec<Vec<String>> = csv
        .rows()
        .map(|r| {
            let mut row = vec![
                esc(r.text("rank")),
                format!("<code>{}</code>", esc(r.text("action"))),
                num(r.num("samples")?),
                share_est(&r.est("win_rate")?),
                signed_est(&r.est("mean_payout")?),
            ];
            if has_diff {
                let d = r.num("diff_vs_best")?;
                row.push(if d == 0.0 && r.text("rank") == "1" {
                    "(best)".into()
                } else {
                    signed_est(&crate::study::plot::read::Est {
                        mid: d,
                        lo: r.num("diff_lo95")?,
                        hi: r.num("diff_hi95")?,
                    })
                });
            }
            Ok(row)
        })
        .collect::<anyhow::Result<_>>()?;
    out.push_str(&part(
        "Actions",
        &format!(
            "Every legal action played out from the same sampled deals of the hidden cards \
             (common random numbers), ranked by mean payout to the deciding seat in {unit}, with \
             95% intervals; the last column is the paired difference to the best action."
        ),
    ));
    let payout = format!("mean payout, {unit} [95% interval]");
    let diff = format!("paired difference to the best, {unit} [95% interval]");
    let mut head = vec![
        "rank (1 = best)",
        "action",
        "playouts",
        "win rate of the playouts [95% interval]",
        &payout,
    ];
    if has_diff {
        head.push(&diff);
    }
    out.push_str(&table(&head, &rows));
    Ok(out)
}

/// The `#` header lines of a TOML file written by `tune` or `learn` (how it was made), and the
/// whole file.
fn toml_beside(report: &Path) -> (String, String, Option<std::path::PathBuf>) {
    let name = report
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let stem = name.strip_suffix(".report.csv").unwrap_or(&name);
    let path = report.with_file_name(format!("{stem}.toml"));
    match crate::input::read_text(&path, crate::input::RULES) {
        Ok(text) => {
            let header: Vec<&str> = text
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| l.trim_start_matches('#').trim_start())
                .collect();
            (header.join("\n"), text, Some(path))
        }
        Err(_) => (String::new(), String::new(), None),
    }
}

/// The `key = "value"` of a TOML text's top level, found by a line starting with `key =`.
fn toml_value(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
        })
        .unwrap_or_default()
}

/// A `bailab tune` report: the best candidate, every candidate of the last round, the chart.
pub(crate) fn tune(report: &Path) -> anyhow::Result<Section> {
    let (csv, unit, _, mut html) = agent_file_head(
        report,
        ("tuning of greedy's weights (bailab tune)", "weights"),
        "The header of the weights file, as tune wrote it.",
    )?;
    let rows: Vec<Vec<String>> = csv
        .rows()
        .map(|r| {
            Ok(vec![
                esc(r.text("round")),
                esc(r.text("candidate")),
                format!("<code>{}</code>", esc(r.text("params"))),
                num(r.num("deals")?),
                signed_est(&r.est("mean_diff")?),
                esc(r.text("status")),
            ])
        })
        .collect::<anyhow::Result<_>>()?;
    let last = rows.last().map(|r| r[0].clone()).unwrap_or_default();
    let (final_rows, earlier): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| r[0] == last);
    let head = [
        "round",
        "candidate",
        "weights that differ from greedy's",
        "deals",
        &format!("candidate − default greedy, {unit} per game, paired by deal [95% interval]"),
        "status",
    ];
    html.push_str(&part(
        "Last round",
        &format!(
            "Each candidate's paired payout difference against default greedy on the same deals, \
             in {unit} per game with its 95% interval; rounds drop the worse half (successive \
             halving), and the best survivor is marked best."
        ),
    ));
    html.push_str(&table(&head, &final_rows));
    if !earlier.is_empty() {
        html.push_str(&details(
            &format!("Earlier rounds ({} rows)", earlier.len()),
            &table(&head, &earlier),
        ));
    }
    for svg in charts(report)? {
        html.push_str(&figure(&svg));
    }
    Ok(Section {
        title: report_name(report),
        kind: "tune report".into(),
        html,
        column: None,
    })
}

/// A report's name: its file name without `.report.csv`, with its folder.
fn report_name(report: &Path) -> String {
    let s = report
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    s.strip_suffix(".report.csv").unwrap_or(&s).to_string()
}

/// A `bailab learn` report: the rules accepted with their gains, every rule tried, the list.
pub(crate) fn learn(report: &Path) -> anyhow::Result<Section> {
    let (csv, unit, text, mut html) = agent_file_head(
        report,
        ("a learned rule list (bailab learn)", "rule list"),
        "The header of the rule list, as learn wrote it.",
    )?;
    let mut accepted = Vec::new();
    let mut all = Vec::new();
    for r in csv.rows() {
        let row = vec![
            esc(r.text("step")),
            format!("<code>{}</code>", esc(r.text("rule"))),
            format!(
                "{:.1}% → {:.1}%",
                100.0 * r.num("agree_before")?,
                100.0 * r.num("agree_after")?
            ),
            num(r.num("deals")?),
            signed_est(&r.est("gain")?),
            esc(r.text("accepted")),
        ];
        if r.text("accepted") == "true" {
            accepted.push(row.clone());
        }
        all.push(row);
    }
    let head = [
        "step",
        "rule",
        "decisions agreeing with the teacher, before → after the rule",
        "deals",
        &format!("gain over the list without it, {unit} per game [95% interval]"),
        "accepted",
    ];
    html.push_str(&part(
        "Rules accepted",
        &format!(
            "Each rule the list kept, in order, with its measured gain in paired self-play \
             against greedy ({unit} per game, 95% interval) and how often the list then agrees \
             with the teacher's decisions."
        ),
    ));
    html.push_str(&table(&head, &accepted));
    html.push_str(&details(
        &format!("Every rule tried ({} rows)", all.len()),
        &table(&head, &all),
    ));
    if !text.is_empty() {
        html.push_str(&details("The rule list file", &pre(&text)));
    }
    Ok(Section {
        title: report_name(report),
        kind: "learn report".into(),
        html,
        column: None,
    })
}

/// An ISMCTS strength table: strength and time per decision against iterations.
pub(crate) fn strength(path: &Path) -> anyhow::Result<Section> {
    let csv = Csv::read(path)?;
    let ctx = crate::study::plot::charts::Context::find(path, &Default::default())?;
    let game = ctx.game.map_or(String::new(), |g| g.name.to_string());
    let unit = unit_of(&game);
    let mut html = facts(&[
        (
            "kind",
            "ISMCTS strength against iterations (scripts/ismcts-strength.sh)".into(),
        ),
        (
            "table",
            format!("<code>{}</code>", esc(&path.display().to_string())),
        ),
        ("game", esc(&game_title(&game))),
        ("variant", esc(ctx.variant.as_deref().unwrap_or(""))),
        ("agents of the first run", esc(&ctx.agents.join(", "))),
    ]);
    let rows: Vec<Vec<String>> = csv
        .rows()
        .map(|r| {
            Ok(vec![
                num(r.num("iters")?),
                num(r.num("deals")?),
                signed_est(&r.est("mean_diff")?),
                format!("{:.2}", r.num("ms_per_decision")?),
            ])
        })
        .collect::<anyhow::Result<_>>()?;
    html.push_str(&part(
        "Strength per iteration count",
        &format!(
            "ISMCTS's paired payout difference against the other seats' agent on the same deals, \
             in {unit} per game with its 95% interval, and its time per decision."
        ),
    ));
    html.push_str(&table(
        &[
            "ISMCTS iterations per decision",
            "deals",
            &format!("ISMCTS − opponents, {unit} per game, paired by deal [95% interval]"),
            "milliseconds per decision",
        ],
        &rows,
    ));
    for svg in charts(path)? {
        html.push_str(&figure(&svg));
    }
    Ok(Section {
        title: report_name(path)
            .strip_suffix(".csv")
            .map_or_else(|| report_name(path), str::to_string),
        kind: "ISMCTS strength".into(),
        html,
        column: None,
    })
}

/// A `bailab train` learning curve, with what its network file (beside it) says.
pub(crate) fn training(path: &Path) -> anyhow::Result<Section> {
    let csv = Csv::read(path)?;
    let network = path.with_file_name("network.safetensors");
    let header = crate::generic_agents::net::file::read_net(&network)
        .ok()
        .map(|f| f.header);
    let game = header.as_ref().map_or(String::new(), |h| h.game.clone());
    let unit = unit_of(&game);
    let mut facts_list = vec![
        (
            "kind",
            "learning curve of bailab train (docs/train.md)".to_string(),
        ),
        (
            "curve",
            format!("<code>{}</code>", esc(&path.display().to_string())),
        ),
    ];
    if let Some(h) = &header {
        facts_list.extend([
            ("game", esc(&game_title(&h.game))),
            ("variant", esc(&h.variant)),
            ("players", h.players.to_string()),
            (
                "network",
                format!("<code>{}</code>", esc(&network.display().to_string())),
            ),
            ("command", format!("<code>{}</code>", esc(&h.command))),
            (
                "trained",
                format!(
                    "{} decisions, {} games, {:.2} h wall, {:.2} CPU-hours",
                    num(h.decisions as f64),
                    num(h.games as f64),
                    h.seconds / 3600.0,
                    h.cpu_seconds / 3600.0
                ),
            ),
        ]);
    }
    let mut html = facts(&facts_list);
    let rows: Vec<Vec<String>> = csv
        .rows()
        .map(|r| {
            Ok(vec![
                num(r.num("decisions")?),
                format!("{:.1}", r.num("wall_seconds")? / 60.0),
                format!("{:.2}", r.num("cpu_seconds")? / 3600.0),
                signed_est(&r.est("vs_greedy")?),
                num(r.num("eval_deals")?),
            ])
        })
        .collect::<anyhow::Result<_>>()?;
    html.push_str(&part(
        "Evaluations",
        &format!(
            "The network in one seat against greedy in the others on fixed evaluation deals (every \
             rotation), paired with greedy in that seat: {unit} per game with its 95% interval."
        ),
    ));
    html.push_str(&table(
        &[
            "training decisions",
            "wall minutes",
            "CPU-hours",
            &format!("network − greedy, {unit} per game [95% interval]"),
            "evaluation deals",
        ],
        &rows,
    ));
    for svg in charts(path)? {
        html.push_str(&figure(&svg));
    }
    Ok(Section {
        title: format!("train {}", report_name(path)),
        kind: "learning curve".into(),
        html,
        column: None,
    })
}

/// What opens the section of a tune or learn report: its CSV, the game's payout unit, the agent
/// file's text, and the facts (`kind`, the report, the agent file beside it as `file_label`) with the agent file's
/// header, introduced by `note`.
fn agent_file_head(
    report: &Path,
    (kind, file_label): (&str, &str),
    note: &str,
) -> anyhow::Result<(Csv, String, String, String)> {
    let csv = Csv::read(report)?;
    let (header, text, toml) = toml_beside(report);
    let game = toml_value(&text, "game");
    let unit = unit_of(&game);
    let code = |p: &Path| format!("<code>{}</code>", esc(&p.display().to_string()));
    let mut html = facts(&[
        ("kind", kind.to_string()),
        ("report", code(report)),
        (file_label, toml.as_deref().map_or(String::new(), code)),
        ("game", esc(&game_title(&game))),
        ("variant", esc(&toml_value(&text, "variant"))),
    ]);
    if !header.is_empty() {
        html.push_str(&part("How it was made", note));
        html.push_str(&pre(&header));
    }
    Ok((csv, unit, text, html))
}

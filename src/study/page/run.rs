//! A run folder's section: what was played, the agents' win rates and mean payouts, the paired
//! differences, an early stop, the other small tables of the folder, and `plot`'s summary chart.

use super::html::{details, esc, facts, num, part, pre, share_est, signed_est, table};
use super::section::{Column, Section};
use super::shared::{charts, json_text, json_words, need, opt, read_json, unit_of};
use crate::sim::files::schema::{columns, SPRT_HEADER};
use crate::study::plot::read::{Csv, SUMMARY_COLUMNS};
use std::path::Path;

/// The section of the run folder `dir`.
pub fn section(dir: &Path) -> anyhow::Result<Section> {
    let meta = read_json(&dir.join("meta.json"))?;
    let csv = Csv::read(&dir.join("summary.csv"))?;
    need(&csv, &SUMMARY_COLUMNS)?;
    let exp = &meta["experiment"];
    let game = exp["game"]
        .as_str()
        .map(str::to_string)
        .or_else(|| csv.rows().next().map(|r| opt(&csv, &r, "game")))
        .unwrap_or_default();
    let unit = csv
        .rows()
        .next()
        .map(|r| opt(&csv, &r, "payout_unit"))
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| unit_of(&game));
    let name = exp["name"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| super::shared::folder_name(dir));
    let mut column = Column {
        name: name.clone(),
        unit: unit.clone(),
        measure: "mean payout",
        agents: Vec::new(),
        pairs: Vec::new(),
    };
    let (agent_rows, pair_rows) = tables(&csv, &mut column)?;
    let mut html = facts_of(dir, &meta, &csv, &game)?;
    html.push_str(&figures_part(&unit, &agent_rows, &pair_rows));
    html.push_str(&extra_tables(dir, &meta)?);
    for svg in charts(&dir.join("summary.csv"))? {
        html.push_str(&super::html::figure(&svg));
    }
    let kind = if meta.get("sprt").is_some() {
        "run with early stop (SPRT)"
    } else {
        "run"
    };
    Ok(Section {
        title: name,
        kind: kind.into(),
        html,
        column: Some(column),
    })
}

/// The agents' table and the pairs' table, each with its sentence.
fn figures_part(unit: &str, agent_rows: &[Vec<String>], pair_rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    out.push_str(&part(
        "Agents",
        &format!(
            "Each agent's share of games won and its mean payout per seat-game (the payout \
             one seat it held received in one game), in {unit}, with 95% intervals (Wilson for \
             the win rate, Student-t for the payout); equal play wins 1/players of the games."
        ),
    ));
    out.push_str(&table(
        &[
            "agent",
            "seats held per game",
            "seat-games",
            "wins",
            "draws",
            "win rate per seat-game [95% interval]",
            &format!("mean payout per seat-game, {unit} [95% interval]"),
            "standard deviation of the payout",
            "penalties paid",
        ],
        agent_rows,
    ));
    if !pair_rows.is_empty() {
        out.push_str(&part(
            "Paired differences",
            &format!(
                "The mean over deals of the difference between two agents' mean payouts on the \
                 same deal (first agent − second), in {unit} per game: above zero, the first \
                 agent did better; the luck of the deal cancels because both played it."
            ),
        ));
        out.push_str(&table(
            &[
                "agent",
                "versus",
                "deals",
                &format!("mean paired difference, agent − versus, {unit} per game [95% interval]"),
            ],
            pair_rows,
        ));
    }
    out
}

/// The agents' and the pairs' rows (HTML cells), and the same figures for the comparison.
type Rows = (Vec<Vec<String>>, Vec<Vec<String>>);

fn tables(csv: &Csv, column: &mut Column) -> anyhow::Result<Rows> {
    let (mut agents, mut pairs) = (Vec::new(), Vec::new());
    for r in csv.rows() {
        match r.text("kind") {
            "agent" => {
                let payout = r.est("mean_payout")?;
                column.agents.push((r.text("agent").to_string(), payout));
                let seat_games = if csv.header.iter().any(|h| h == "seat_games") {
                    opt(csv, &r, "seat_games")
                } else {
                    opt(csv, &r, "games")
                };
                agents.push(vec![
                    format!("<code>{}</code>", esc(r.text("agent"))),
                    esc(&opt(csv, &r, "seats")),
                    int_text(&seat_games),
                    int_text(&opt(csv, &r, "wins")),
                    int_text(&opt(csv, &r, "draws")),
                    share_est(&r.est("win_rate")?),
                    signed_est(&payout),
                    int_text(&opt(csv, &r, "sd_payout")),
                    int_text(&opt(csv, &r, "penalties")),
                ]);
            }
            "pair-luck-corrected" => {
                let diff = r.est("mean_diff")?;
                let (a, v) = (r.text("agent"), r.text("versus"));
                pairs.push(vec![
                    format!("<code>{}</code>, luck-corrected (docs/variance.md)", esc(a)),
                    format!("<code>{}</code>", esc(v)),
                    int_text(r.text("deals")),
                    signed_est(&diff),
                ]);
            }
            "pair" => {
                let diff = r.est("mean_diff")?;
                let (a, v) = (r.text("agent"), r.text("versus"));
                column.pairs.push((a.to_string(), v.to_string(), diff));
                pairs.push(vec![
                    format!("<code>{}</code>", esc(a)),
                    format!("<code>{}</code>", esc(v)),
                    int_text(r.text("deals")),
                    signed_est(&diff),
                ]);
            }
            _ => {}
        }
    }
    Ok((agents, pairs))
}

/// An integer field with thousands separators (anything else as written).
fn int_text(s: &str) -> String {
    match s.parse::<f64>() {
        Ok(x) => num(x),
        Err(_) => esc(s),
    }
}

/// What was run: the experiment's facts from `meta.json`, this machine's from `run.json`.
fn facts_of(dir: &Path, meta: &serde_json::Value, csv: &Csv, game: &str) -> anyhow::Result<String> {
    let exp = &meta["experiment"];
    let players = csv
        .rows()
        .next()
        .map(|r| opt(csv, &r, "players"))
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| exp["agents"].as_array().map_or(0, Vec::len).to_string());
    let agents = exp["agents"]
        .as_array()
        .map(|a| {
            a.iter()
                .enumerate()
                .map(|(i, s)| format!("seat {i}: <code>{}</code>", esc(&json_text(s))))
                .collect::<Vec<_>>()
                .join("<br>")
        })
        .unwrap_or_default();
    let deals = match meta["deals"].as_array().map(|d| d.as_slice()) {
        Some([a, b]) => format!(
            "{} (deals {}–{} of {}){}",
            num((b.as_f64().unwrap_or(0.0) - a.as_f64().unwrap_or(0.0)).max(0.0)),
            json_text(a),
            json_text(b),
            json_text(&exp["deals"]),
            if exp["rotate"].as_bool() == Some(true) {
                ", each with the agents rotated through every seat"
            } else {
                ""
            }
        ),
        _ => esc(&json_text(&exp["deals"])),
    };
    let run = read_json(&dir.join("run.json")).ok();
    let elapsed = run
        .as_ref()
        .and_then(|r| r["elapsed_s"].as_f64())
        .map_or_else(
            || "not recorded (run.json is not kept with committed results)".to_string(),
            |s| {
                let threads = run.as_ref().map_or(String::new(), |r| {
                    format!(" on {} threads", json_text(&r["threads"]))
                });
                format!("{}{}", super::html::duration(s), esc(&threads))
            },
        );
    let rows = [
        ("kind", "a run of bailab run (or merge)".to_string()),
        (
            "folder",
            format!("<code>{}</code>", esc(&dir.display().to_string())),
        ),
        ("game", esc(&super::shared::game_title(game))),
        ("variant", esc(&json_text(&exp["variant"]))),
        ("players", esc(&players)),
        ("agents", agents),
        ("deals", deals),
        ("games", int_text(&json_text(&meta["games"]))),
        ("games per match", esc(&json_text(&exp["match_games"]))),
        ("seed", esc(&json_text(&meta["seed"]))),
        ("shard", esc(&json_text(&meta["shard"]))),
        ("rule options", esc(&json_text(&exp["rules"]))),
        ("fixed cards", esc(&json_text(&exp["deal"]))),
        ("elapsed", elapsed),
        ("bailab version", esc(&json_text(&meta["version"]))),
    ];
    let mut html = facts(&rows);
    let text = serde_json::to_string_pretty(exp)?;
    html.push_str(&details("The experiment as run (meta.json)", &pre(&text)));
    Ok(html)
}

/// The early stop (`sprt.csv`) and the folder's other small tables (`matches.csv`,
/// `factors.csv`, …), as written.
fn extra_tables(dir: &Path, meta: &serde_json::Value) -> anyhow::Result<String> {
    let mut html = String::new();
    if let Some(s) = meta.get("sprt") {
        html.push_str(&part(
            "Early stop (SPRT)",
            &format!(
                "A sequential probability ratio test on the paired per-deal difference of {}: \
                 H0 says the mean difference is {}, H1 that it is {}; the run stopped when the \
                 log-likelihood ratio left [lower, upper] (accepted: {}, after {} of a budget of \
                 {} deals).",
                json_words(&s["agents"]),
                json_text(&s["h0"]),
                json_text(&s["h1"]),
                json_text(&s["accepted"]),
                json_text(&s["deals"]),
                json_words(&s["budget"]),
            ),
        ));
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".csv") && n != "summary.csv" && n != "games.csv")
        .collect();
    names.sort();
    for name in names {
        let csv = Csv::read(&dir.join(&name))?;
        if name == "sprt.csv" {
            html.push_str(&sprt_table(&csv)?);
        } else {
            html.push_str(&generic(&csv, &name));
        }
    }
    Ok(html)
}

fn sprt_table(csv: &Csv) -> anyhow::Result<String> {
    need(
        csv,
        &columns(
            &SPRT_HEADER,
            ["deals", "llr", "lower", "upper", "mean_diff", "decision"],
        ),
    )?;
    let rows: Vec<Vec<String>> = csv
        .rows()
        .map(|r| {
            vec![
                int_text(r.text("deals")),
                esc(r.text("llr")),
                esc(r.text("lower")),
                esc(r.text("upper")),
                esc(r.text("mean_diff")),
                esc(r.text("decision")),
            ]
        })
        .collect();
    Ok(table(
        &[
            "deals played",
            "log-likelihood ratio",
            "lower bound (accept H0 below)",
            "upper bound (accept H1 above)",
            "mean paired difference so far",
            "decision",
        ],
        &rows,
    ))
}

/// Any other CSV of the folder: its first 60 rows as written.
fn generic(csv: &Csv, name: &str) -> String {
    let head: Vec<&str> = csv.header.iter().map(String::as_str).collect();
    let rows: Vec<Vec<String>> = csv
        .rows()
        .take(60)
        .map(|r| head.iter().map(|h| esc(r.text(h))).collect())
        .collect();
    let mut html = part(
        name,
        &format!(
            "{name} as the run wrote it (columns named as in the file; shares are fractions of 1, \
             payouts in the game's unit)."
        ),
    );
    html.push_str(&table(&head, &rows));
    html
}

//! A tournament folder's section: the ratings (a forest chart), the cross-table of paired
//! differences shaded by sign and size, the games behind each pair, the tables played, and the
//! strength of ISMCTS per iteration count when the field holds several.

use super::html::{esc, facts, figure, num, part, signed_est, table};
use super::section::{Column, Section};
use super::shared::{game_title, json_text, json_words, need, read_json, unit_of};
use crate::sim::files::schema::{PAIRS_HEADER, RATINGS_HEADER};
use crate::study::plot::charts;
use crate::study::plot::label::signed;
use crate::study::plot::read::{Csv, Est};
use std::path::Path;

/// One agent's rating.
struct Rating {
    agent: String,
    rating: Est,
    deals: String,
    games: String,
}

/// One ordered pair of `pairs.csv`.
struct Pair {
    agent: String,
    versus: String,
    deals: f64,
    games: f64,
    diff: Est,
}

/// The section of the tournament folder `dir`.
pub fn section(dir: &Path) -> anyhow::Result<Section> {
    let doc = read_json(&dir.join("tournament.json"))?;
    if doc["format"].as_str() != Some("bailab-tournament-1") {
        anyhow::bail!(
            "{}: tournament.json is not of the format bailab-tournament-1 (format: {})",
            dir.display(),
            json_text(&doc["format"])
        );
    }
    let t = &doc["tournament"];
    if !dir.join("ratings.csv").is_file() {
        anyhow::bail!(
            "{}: no ratings.csv yet (status {}): a tournament writes its ratings when its \
             tables have played",
            dir.display(),
            json_text(&doc["status"])
        );
    }
    let (ratings, pairs, csv_unit) = read(dir)?;
    let game = json_text(&t["game"]);
    let unit = csv_unit
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| unit_of(&game));
    let name = t["name"]
        .as_str()
        .map_or_else(|| super::shared::folder_name(dir), str::to_string);
    let anchor = json_text(&t["anchor"]);
    let mut html = facts_of(dir, &doc, &game);
    html.push_str(&ratings_part(&ratings, &unit, &anchor, &name, &game)?);
    html.push_str(&cross_part(dir, &ratings, &pairs, &unit)?);
    html.push_str(&pairs_part(&ratings, &pairs, &unit));
    html.push_str(&iterations_part(&ratings, &unit, &anchor, &name, &game)?);
    html.push_str(&tables_part(&doc));
    let rank = |a: &str| ratings.iter().position(|r| r.agent == a);
    let column = Column {
        name: name.clone(),
        unit,
        measure: "rating",
        agents: ratings
            .iter()
            .map(|r| (r.agent.clone(), r.rating))
            .collect(),
        pairs: pairs
            .iter()
            .filter(|p| rank(&p.agent) < rank(&p.versus))
            .map(|p| (p.agent.clone(), p.versus.clone(), p.diff))
            .collect(),
    };
    Ok(Section {
        title: name,
        kind: format!("tournament, {}", json_text(&doc["status"])),
        html,
        column: Some(column),
    })
}

/// The ratings and pairs of a tournament folder, and the payout unit its CSVs name.
fn read(dir: &Path) -> anyhow::Result<(Vec<Rating>, Vec<Pair>, Option<String>)> {
    let ratings_csv = Csv::read(&dir.join("ratings.csv"))?;
    need(&ratings_csv, &RATINGS_HEADER[4..])?;
    let pairs_csv = Csv::read(&dir.join("pairs.csv"))?;
    need(&pairs_csv, &PAIRS_HEADER[4..])?;
    let ratings = ratings_csv
        .rows()
        .map(|r| {
            Ok(Rating {
                agent: r.text("agent").to_string(),
                rating: r.est("rating")?,
                deals: r.text("deals").to_string(),
                games: r.text("games").to_string(),
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let pairs = pairs_csv
        .rows()
        .map(|r| {
            Ok(Pair {
                agent: r.text("agent").to_string(),
                versus: r.text("versus").to_string(),
                deals: r.num("deals")?,
                games: r.num("games")?,
                diff: r.est("mean_diff")?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let unit = ratings_csv
        .rows()
        .next()
        .map(|r| super::shared::opt(&ratings_csv, &r, "payout_unit"));
    Ok((ratings, pairs, unit))
}

fn facts_of(dir: &Path, doc: &serde_json::Value, game: &str) -> String {
    let t = &doc["tournament"];
    // the elapsed time and command are in tournament.json, or in this machine's run.json
    let run = read_json(&dir.join("run.json")).unwrap_or_default();
    let elapsed = doc["elapsed_s"].as_f64().or(run["elapsed_s"].as_f64());
    let command = doc["command"]
        .as_str()
        .or(run["command"].as_str())
        .map(str::to_string);
    let agents = codes(&t["agents"], "<br>");
    let status = match doc["status"].as_str() {
        Some("partial") => {
            "<span class=\"warn\">partial: some tables have not played all their deals</span>"
                .to_string()
        }
        _ => esc(&json_text(&doc["status"])),
    };
    facts(&[
        ("kind", "a tournament (bailab tournament)".into()),
        (
            "folder",
            format!("<code>{}</code>", esc(&dir.display().to_string())),
        ),
        ("game", esc(&game_title(game))),
        ("variant", esc(&json_text(&t["variant"]))),
        ("players per table", esc(&json_words(&t["players"]))),
        ("agents", agents),
        ("deals per table", esc(&json_words(&t["deals"]))),
        ("seed", esc(&json_text(&t["seed"]))),
        ("seating", esc(&json_text(&t["seating"]))),
        (
            "anchor (rating 0)",
            format!("<code>{}</code>", esc(&json_text(&t["anchor"]))),
        ),
        ("status", status),
        ("elapsed", super::html::duration_or_empty(elapsed)),
        (
            "command",
            command.map_or(String::new(), |c| format!("<code>{}</code>", esc(&c))),
        ),
        ("bailab version", esc(&json_text(&doc["version"]))),
    ])
}

fn ratings_part(
    ratings: &[Rating],
    unit: &str,
    anchor: &str,
    name: &str,
    game: &str,
) -> anyhow::Result<String> {
    let mut html = part(
        "Ratings",
        &format!(
            "Each agent's strength as its mean payout per game relative to the anchor \
             {anchor} (rating 0), in {unit}, with its 95% interval, from the paired results of \
             every table it played; higher is stronger."
        ),
    );
    let rows: Vec<Vec<String>> = ratings
        .iter()
        .enumerate()
        .map(|(i, r)| {
            vec![
                (i + 1).to_string(),
                format!("<code>{}</code>", esc(&r.agent)),
                signed_est(&r.rating),
                int(&r.deals),
                int(&r.games),
            ]
        })
        .collect();
    html.push_str(&table(
        &[
            "rank",
            "agent",
            &format!("rating, {unit} per game relative to the anchor [95% interval]"),
            "deals",
            "games",
        ],
        &rows,
    ));
    let items: Vec<(String, Est)> = ratings
        .iter()
        .map(|r| (r.agent.clone(), r.rating))
        .collect();
    let svg = charts::estimates(
        &chart_title(game, &format!("ratings in {name}")),
        "Rating per agent (anchor = 0), 95% interval",
        &format!("rating, {unit} per game relative to the anchor"),
        &items,
    )?;
    html.push_str(&figure(&svg));
    Ok(html)
}

/// `Game: what`, or `what` for an unknown game.
fn chart_title(game: &str, what: &str) -> String {
    match crate::games::game_info(game) {
        Ok(g) => format!("{}: {what}", g.title),
        Err(_) => what.to_string(),
    }
}

fn int(s: &str) -> String {
    s.parse::<f64>().map_or_else(|_| esc(s), num)
}

/// The cross-table: one row per agent, one column per opponent; each cell the row agent's mean
/// paired difference against the column agent, shaded by sign and size, its interval beneath.
fn cross_part(
    dir: &Path,
    ratings: &[Rating],
    pairs: &[Pair],
    unit: &str,
) -> anyhow::Result<String> {
    let mut agents: Vec<String> = ratings.iter().map(|r| r.agent.clone()).collect();
    if let Ok(c) = Csv::read(&dir.join("crosstable.csv")) {
        for h in c.header.iter().skip(1) {
            if !agents.contains(h) {
                agents.push(h.clone());
            }
        }
    }
    let find = |a: &str, v: &str| pairs.iter().find(|p| p.agent == a && p.versus == v);
    let max = pairs
        .iter()
        .map(|p| p.diff.mid.abs())
        .fold(0.0f64, f64::max)
        .max(1e-12);
    let mut html = part(
        "Cross-table",
        &format!(
            "Each cell is the row agent's mean payout minus the column agent's, per game in \
             {unit}, paired over the deals they played at the same table; blue when the row \
             agent did better, orange when worse, deeper for larger differences, bold when the \
             95% interval (beneath, and in the cell's tooltip) excludes zero; blank when the \
             pair did not meet."
        ),
    );
    html.push_str("<table class=\"data cross\"><thead><tr><th>agent \\ versus</th>");
    for a in &agents {
        html.push_str(&format!(
            "<th title=\"{}\"><code>{}</code></th>",
            esc(a),
            esc(&super::shared::short(a))
        ));
    }
    html.push_str("</tr></thead><tbody>\n");
    for a in &agents {
        html.push_str(&format!("<tr><th><code>{}</code></th>", esc(a)));
        for v in &agents {
            if a == v {
                html.push_str("<td class=\"diag\"></td>");
                continue;
            }
            let Some(p) = find(a, v) else {
                html.push_str("<td></td>");
                continue;
            };
            html.push_str(&cross_cell(p, max, unit));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody></table>\n");
    Ok(html)
}

fn cross_cell(p: &Pair, max: f64, unit: &str) -> String {
    let e = p.diff;
    let strength = 0.10 + 0.55 * (e.mid.abs() / max).min(1.0);
    let color = if e.mid >= 0.0 {
        (0, 114, 178)
    } else {
        (230, 159, 0)
    };
    let d = super::html::diff_decimals(e.hi - e.lo);
    let clear = e.lo > 0.0 || e.hi < 0.0;
    let value = signed(e.mid, d);
    let value = if clear {
        format!("<strong>{value}</strong>")
    } else {
        value
    };
    let tip = format!(
        "{} − {}: {} [{}, {}] {unit} per game, 95% interval; {} games on {} deals",
        p.agent,
        p.versus,
        signed(e.mid, d),
        signed(e.lo, d),
        signed(e.hi, d),
        num(p.games),
        num(p.deals)
    );
    format!(
        "<td class=\"cell\" style=\"background: rgba({}, {}, {}, {strength:.2})\" title=\"{}\">\
         {value}<br><span class=\"ci\">[{}, {}]</span></td>",
        color.0,
        color.1,
        color.2,
        esc(&tip),
        signed(e.lo, d),
        signed(e.hi, d)
    )
}

fn pairs_part(ratings: &[Rating], pairs: &[Pair], unit: &str) -> String {
    let rank = |a: &str| ratings.iter().position(|r| r.agent == a);
    let rows: Vec<Vec<String>> = pairs
        .iter()
        .filter(|p| rank(&p.agent) < rank(&p.versus))
        .map(|p| {
            vec![
                format!("<code>{}</code>", esc(&p.agent)),
                format!("<code>{}</code>", esc(&p.versus)),
                num(p.deals),
                num(p.games),
                signed_est(&p.diff),
            ]
        })
        .collect();
    let mut html = part(
        "Games per pair",
        &format!(
            "How much play stands behind each cell: the deals and games the two agents played at \
             the same table, and the mean paired difference (higher-rated agent first), in {unit} \
             per game."
        ),
    );
    html.push_str(&table(
        &[
            "agent",
            "versus",
            "deals together",
            "games together",
            &format!("mean paired difference, agent − versus, {unit} per game [95% interval]"),
        ],
        &rows,
    ));
    html
}

/// A point of a strength curve: iterations, rating, the note above it.
type Point = (f64, Est, String);

/// `ismcts:iters=N,...` → `(N, the spec without iters)`.
fn ismcts_iters(spec: &str) -> Option<(f64, String)> {
    let params = spec.strip_prefix("ismcts:")?;
    let mut iters = None;
    let mut rest = Vec::new();
    for p in params.split(',') {
        match p.strip_prefix("iters=") {
            Some(n) => iters = n.parse::<f64>().ok(),
            None => rest.push(p),
        }
    }
    let rest = if rest.is_empty() {
        "ismcts".to_string()
    } else {
        format!("ismcts:{}", rest.join(","))
    };
    Some((iters?, rest))
}

/// One curve per ISMCTS family (the same spec but for `iters`) that the field holds at two
/// iteration counts or more: its rating against iterations on a log axis.
fn iterations_part(
    ratings: &[Rating],
    unit: &str,
    anchor: &str,
    name: &str,
    game: &str,
) -> anyhow::Result<String> {
    let mut families: Vec<(String, Vec<Point>)> = Vec::new();
    for r in ratings {
        if let Some((n, family)) = ismcts_iters(&r.agent) {
            let note = format!("{} games", int(&r.games));
            match families.iter_mut().find(|f| f.0 == family) {
                Some(f) => f.1.push((n, r.rating, note)),
                None => families.push((family, vec![(n, r.rating, note)])),
            }
        }
    }
    let mut html = String::new();
    for (family, mut points) in families.into_iter().filter(|f| f.1.len() > 1) {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        html.push_str(&part(
            &format!("Strength per iteration: {family}"),
            &format!(
                "The rating of {family} at each iteration count it played at (log scale), in \
                 {unit} per game relative to {anchor}, with 95% intervals; above each point, the \
                 games behind it."
            ),
        ));
        let svg = charts::rating_curve(
            &chart_title(game, &format!("{family}, strength per iteration in {name}")),
            &format!(
                "rating, {unit} per game relative to {}",
                super::shared::short(anchor)
            ),
            points,
        )?;
        html.push_str(&figure(&svg));
    }
    Ok(html)
}

fn tables_part(doc: &serde_json::Value) -> String {
    let Some(tables) = doc["tables"].as_array() else {
        return String::new();
    };
    let rows: Vec<Vec<String>> = tables
        .iter()
        .map(|t| {
            let seats = codes(&t["agents"], ", ");
            vec![
                esc(&json_text(&t["index"])),
                seats,
                format!("<code>{}</code>", esc(&json_text(&t["dir"]))),
                int(&json_text(&t["deals_done"])),
            ]
        })
        .collect();
    let mut html = part(
        "Tables played",
        "Each table of the tournament: the agents at its seats, the run folder holding its \
         results (relative to the tournament's folder), and the deals it has played.",
    );
    html.push_str(&table(
        &["table", "agents by seat", "run folder", "deals played"],
        &rows,
    ));
    html
}

/// The strings of a JSON array, each as code, joined by `sep` (empty for anything else).
fn codes(list: &serde_json::Value, sep: &str) -> String {
    list.as_array()
        .map(|a| {
            a.iter()
                .map(|s| format!("<code>{}</code>", esc(&json_text(s))))
                .collect::<Vec<_>>()
                .join(sep)
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn ismcts_specs_split_into_iterations_and_family() {
        assert_eq!(
            super::ismcts_iters("ismcts:iters=300,depth=1"),
            Some((300.0, "ismcts:depth=1".into()))
        );
        assert_eq!(
            super::ismcts_iters("ismcts:iters=100"),
            Some((100.0, "ismcts".into()))
        );
        assert_eq!(super::ismcts_iters("greedy"), None);
        assert_eq!(super::ismcts_iters("ismcts:time_ms=5"), None);
    }
}

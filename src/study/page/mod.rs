//! `bailab report`: one self-contained HTML page (inline SVG and CSS, no script, nothing
//! fetched) from any mix of bailab output folders. [`kinds`] tells what each path is; each kind
//! has its section ([`run`], [`tournament`], [`studies`]), whose charts are `bailab plot`'s,
//! drawn in memory and inlined; several runs and tournaments add the agents × runs comparison
//! ([`compare`]). [`build`] reads everything before [`write()`] writes the page through a
//! temporary file, so an error leaves an earlier page untouched.

pub mod compare;
pub mod html;
pub mod kinds;
pub mod run;
pub mod studies;
pub mod tournament;

use crate::study::plot::read::{Csv, Est, Row};
use crate::study::plot::{plan, Options};
use anyhow::{bail, Context as _};
use kinds::Input;
use std::path::{Path, PathBuf};

/// One section of the page: one output folder (or report).
pub struct Section {
    /// Its heading.
    pub title: String,
    /// What kind of output it is, in words.
    pub kind: String,
    /// Its body.
    pub html: String,
    /// Its figures for the comparison across runs (runs and tournaments only).
    pub column: Option<Column>,
}

/// A run's or a tournament's figures per agent and per pair, for the comparison table.
pub struct Column {
    /// The run's name.
    pub name: String,
    /// Its payout unit.
    pub unit: String,
    /// What the agents' figures are: `mean payout` (a run) or `rating` (a tournament).
    pub measure: &'static str,
    /// Each agent's figure.
    pub agents: Vec<(String, Est)>,
    /// Each pair's paired difference `agent − versus`.
    pub pairs: Vec<(String, String, Est)>,
}

/// Reads every input and builds the page; the first input that is not a bailab output (or is
/// malformed) is an error naming it.
pub fn build(inputs: &[PathBuf], title: Option<&str>) -> anyhow::Result<String> {
    let mut sections = Vec::new();
    for path in inputs {
        for input in kinds::classify(path)? {
            let s = match &input {
                Input::Run(d) => run::section(d),
                Input::Tournament(d) => tournament::section(d),
                Input::Deals(d) => studies::deals(d),
                Input::Equity(d) => studies::equity(d),
                Input::Tune(f) => studies::tune(f),
                Input::Learn(f) => studies::learn(f),
                Input::Strength(f) => studies::strength(f),
            }
            .with_context(|| format!("reading {}", path.display()))?;
            sections.push(s);
        }
    }
    let title = title.map_or_else(|| default_title(&sections), str::to_string);
    let mut toc: Vec<(String, String, String)> = Vec::new();
    let mut body = String::new();
    let columns: Vec<&Column> = sections.iter().filter_map(|s| s.column.as_ref()).collect();
    if columns.len() > 1 {
        toc.push((
            "comparison".into(),
            "Agents across runs".into(),
            "comparison".into(),
        ));
        body.push_str("<section id=\"comparison\">\n<h2>Agents across runs</h2>\n");
        body.push_str(&compare::html(&columns));
        body.push_str("</section>\n");
    }
    for (i, s) in sections.iter().enumerate() {
        let id = format!("s{}", i + 1);
        toc.push((id.clone(), s.title.clone(), s.kind.clone()));
        body.push_str(&format!(
            "<section id=\"{id}\">\n<h2>{}. {}</h2>\n<p class=\"sub\">{}</p>\n{}</section>\n",
            i + 1,
            html::esc(&s.title),
            html::esc(&s.kind),
            s.html
        ));
    }
    let intro = format!(
        "<p class=\"sub\">{} section{} made by <code>bailab report</code> {} from bailab's \
         output files. Every ± figure is a 95% interval written as [low, high]; payouts are in \
         each game's payout unit, named in each table.</p>\n",
        sections.len(),
        if sections.len() == 1 { "" } else { "s" },
        env!("CARGO_PKG_VERSION")
    );
    Ok(html::page(&title, &intro, &toc, &body))
}

fn default_title(sections: &[Section]) -> String {
    match sections {
        [one] => format!("bailab report: {}", one.title),
        _ => format!("bailab report: {} outputs", sections.len()),
    }
}

/// Writes `html` to `path` through a temporary file and a rename. An existing file is replaced
/// only when it is a page of `bailab report`, or with `force`.
pub fn write(path: &Path, html: &str, force: bool) -> anyhow::Result<()> {
    if path.is_dir() {
        bail!("{} is a folder: give --output a file name", path.display());
    }
    if path.exists() && !force {
        let head = std::fs::read(path)
            .map(|b| String::from_utf8_lossy(&b[..b.len().min(4096)]).into_owned())
            .unwrap_or_default();
        if !head.contains(html::GENERATOR) {
            bail!(
                "{} exists and is not a page of bailab report: not replaced (--force replaces it)",
                path.display()
            );
        }
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        bail!("{}: no such folder", dir.display());
    }
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?
        .to_string_lossy();
    crate::sim::files::atomic::write_atomic(&dir, &name, html.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `bailab plot`'s charts of one CSV, as SVG texts.
pub(crate) fn charts(csv: &Path) -> anyhow::Result<Vec<String>> {
    Ok(plan(&[csv.to_path_buf()], &Options::default())?
        .into_iter()
        .map(|s| s.text)
        .collect())
}

/// Fails unless `csv` has every column of `cols`, naming the file and the missing ones.
pub(crate) fn need(csv: &Csv, cols: &[&str]) -> anyhow::Result<()> {
    let missing: Vec<&str> = cols
        .iter()
        .filter(|c| !csv.header.iter().any(|h| h == *c))
        .copied()
        .collect();
    if !missing.is_empty() {
        bail!(
            "{}: missing column{} {}",
            csv.path.display(),
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        );
    }
    Ok(())
}

/// Column `name` of `row`, or empty when the file has no such column.
pub(crate) fn opt(csv: &Csv, row: &Row, name: &str) -> String {
    if csv.header.iter().any(|h| h == name) {
        row.text(name).to_string()
    } else {
        String::new()
    }
}

/// A JSON file, parsed; errors name the file.
pub(crate) fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))
}

/// A JSON value as text: a string as it is, null as nothing, anything else as compact JSON.
pub(crate) fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(m) if m.is_empty() => String::new(),
        other => other.to_string(),
    }
}

/// A JSON value for a reader: a list joined by commas, a whole number with thousands
/// separators, anything else as [`json_text`].
pub(crate) fn json_words(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Array(a) => a.iter().map(json_words).collect::<Vec<_>>().join(", "),
        serde_json::Value::Number(n) if n.is_u64() => html::num(n.as_f64().unwrap_or(0.0)),
        other => json_text(other),
    }
}

/// A game's payout unit, short (`points`), or `payout units` for an unknown game.
pub(crate) fn unit_of(game: &str) -> String {
    crate::games::game_info(game).map_or_else(
        |_| "payout units".into(),
        |g| crate::study::plot::label::short_unit(g.payout_unit).to_string(),
    )
}

/// A game's title with its name (`Tứ Sắc (tusac)`), or the name alone.
pub(crate) fn game_title(game: &str) -> String {
    crate::games::game_info(game).map_or_else(
        |_| game.to_string(),
        |g| format!("{} ({})", g.title, g.name),
    )
}

/// An agent spec as the charts write it (file paths shortened).
pub(crate) fn short(spec: &str) -> String {
    crate::study::plot::label::short_spec(spec)
}

/// A folder's own name (`.` for the current folder's).
pub(crate) fn folder_name(dir: &Path) -> String {
    let abs = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    abs.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

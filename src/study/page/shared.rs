//! What every section shares: reading its files (charts, CSV columns, JSON) and naming its
//! facts (payout units, games, agent specs, folders).

use super::html;
use crate::study::plot::read::{Csv, Row};
use crate::study::plot::{plan, Options};
use anyhow::{bail, Context as _};
use std::path::Path;

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
    let text = crate::input::read_text(path, crate::input::RESULT)?;
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

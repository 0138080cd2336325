//! A run folder given on the command line, as `bailab report` draws it (its sections, through
//! [`crate::study::page::build`]), with a link from each game of its `records.jsonl` to the
//! viewer.

use super::error::ApiError;
use super::files::Files;
use super::records::LISTED;
use crate::study::page::html::esc;
use serde_json::Value;

/// The page of run `run` (its number among the runs given).
pub fn page(files: &Files, run: usize, list: &Value) -> Result<String, ApiError> {
    let runs = files.runs();
    let (shown, resolved) = runs
        .get(run)
        .ok_or_else(|| ApiError::NotFound(format!("no run {run}")))?;
    let mut html = crate::study::page::build(std::slice::from_ref(resolved), None)
        .map_err(|e| ApiError::Internal(format!("{}: {e:#}", shown.display())))?;
    let records = resolved.join("records.jsonl");
    let file = list["files"].as_array().and_then(|files| {
        files
            .iter()
            .find(|f| f["path"].as_str() == Some(&records.display().to_string()))
    });
    let mut links = String::from(
        "<section id=\"games\"><h2>Games (records.jsonl)</h2>\n<p><a href=\"/\">bailab serve</a></p>\n",
    );
    match file {
        None => links.push_str("<p>This run wrote no records.jsonl (records = true in its experiment writes it).</p>\n"),
        Some(f) => {
            links.push_str("<ol class=\"games\">\n");
            for r in f["records"].as_array().into_iter().flatten() {
                let href = format!("/viewer.html#file={}&index={}", f["file"], r["index"]);
                let label = format!(
                    "deal {} rotation {}: {} → {}",
                    r["deal"], r["rotation"], r["agents"], r["payouts"]
                );
                links.push_str(&format!("<li><a href=\"{href}\">{}</a></li>\n", esc(&label)));
            }
            links.push_str("</ol>\n");
            if f["more"].as_bool() == Some(true) {
                links.push_str(&format!("<p>The first {LISTED} games only.</p>\n"));
            }
        }
    }
    links.push_str("</section>\n");
    match html.rfind("</body>") {
        Some(at) => html.insert_str(at, &links),
        None => html.push_str(&links),
    }
    Ok(html)
}

//! Records in the files the server was given: their list (each file's records, read as
//! `bailab check` reads them), one record by number, and a record's step-by-step states for the
//! viewer ([`super::steps`]).

use super::error::{bad, ApiError};
use super::files::Files;
use crate::record::Record;
use crate::sim::files::record_stream::Records;
use serde_json::{json, Value};
use std::io::BufReader;
use std::path::Path;

/// The most records listed per file (a run's `records.jsonl` may hold millions).
pub const LISTED: usize = 2000;

/// Reads the records of `path` in order, calling `each(index, line, record)` until it returns
/// false; a text that is not a record is passed as its error's text.
fn each_record(
    path: &Path,
    mut each: impl FnMut(usize, usize, Result<Record, String>) -> bool,
) -> std::io::Result<()> {
    let file = std::fs::File::open(path)?;
    let mut records = Records::new(BufReader::with_capacity(1 << 16, file));
    let mut index = 0;
    while let Some((line, record)) = records.next_record()? {
        if !each(index, line, record.map_err(|e| e.to_string())) {
            break;
        }
        index += 1;
    }
    Ok(())
}

/// One line of a list: the record's game and how it ended.
fn summary(index: usize, line: usize, record: &Record) -> Value {
    json!({
        "index": index,
        "line": line,
        "game": record.game,
        "variant": record.variant,
        "players": record.players,
        "agents": record.agents,
        "seed": record.seed,
        "deal": record.deal,
        "rotation": record.rotation,
        "payouts": record.outcome.payouts,
        "winner": record.outcome.winner,
    })
}

/// Every record file given with its records (at most [`LISTED`] each); files that hold no record
/// are left out (a folder's `meta.json`).
pub fn list(files: &Files) -> Value {
    let mut out = Vec::new();
    for (id, path) in files.record_files().iter().enumerate() {
        let mut rows = Vec::new();
        let mut more = false;
        let read = each_record(path, |index, line, record| {
            if index >= LISTED {
                more = true;
                return false;
            }
            if let Ok(r) = &record {
                rows.push(summary(index, line, r));
            }
            true
        });
        if read.is_err() || rows.is_empty() {
            continue;
        }
        out.push(json!({
            "file": id,
            "path": path.display().to_string(),
            "records": rows,
            "more": more,
        }));
    }
    json!({ "files": out })
}

/// Record `index` of record file `file` of the list.
pub fn get(files: &Files, file: usize, index: usize) -> Result<Record, ApiError> {
    let paths = files.record_files();
    let path = paths
        .get(file)
        .ok_or_else(|| ApiError::NotFound(format!("no record file {file}")))?;
    let mut found = None;
    each_record(path, |i, _, record| {
        if i == index {
            found = Some(record);
            return false;
        }
        true
    })
    .map_err(|e| ApiError::Internal(format!("{}: {e}", path.display())))?;
    match found {
        None => Err(ApiError::NotFound(format!(
            "{} has no record {index}",
            path.display()
        ))),
        Some(record) => record.map_err(|e| bad(format!("record {index}: {e}"))),
    }
}

/// The first record of a text sent by the page (a file dropped on it): a record, pretty-printed
/// or on one line, or a JSON Lines file of them.
pub fn parse_dropped(text: &str) -> Result<Record, ApiError> {
    let mut records = Records::new(text.as_bytes());
    match records.next_record() {
        Ok(Some((_, Ok(record)))) => Ok(record),
        Ok(Some((line, Err(e)))) => Err(bad(format!("line {line}: {e}"))),
        Ok(None) => Err(bad("no record in the file")),
        Err(e) => Err(bad(e)),
    }
}

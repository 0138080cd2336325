//! The files the server may read: only the paths given on its command line (files, and the
//! files directly inside the folders given), never another. Records are found there and named
//! by number, so no request carries a path except a deal file's, which must be one of them.

use super::error::ApiError;
use std::path::{Path, PathBuf};

/// The paths given on the command line, resolved.
#[derive(Clone, Debug, Default)]
pub struct Files {
    /// Each path as given and resolved (symbolic links followed).
    given: Vec<(PathBuf, PathBuf)>,
}

/// Why a path given on the command line cannot be served.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {error}")]
pub struct PathError {
    /// The path as given.
    path: String,
    /// Why it cannot be read.
    error: std::io::Error,
}

impl Files {
    /// The paths given, each of which must exist.
    pub fn new(paths: &[PathBuf]) -> Result<Files, PathError> {
        let given = paths
            .iter()
            .map(|p| {
                let resolved = p.canonicalize().map_err(|error| PathError {
                    path: p.display().to_string(),
                    error,
                })?;
                Ok((p.clone(), resolved))
            })
            .collect::<Result<_, PathError>>()?;
        Ok(Files { given })
    }

    /// `path` resolved, when it is a file given or a file directly inside a folder given;
    /// else 403.
    pub fn allowed(&self, path: &str) -> Result<PathBuf, ApiError> {
        let refuse = || {
            ApiError::Forbidden(format!(
                "{path}: not a file the server was given on its command line"
            ))
        };
        let resolved = Path::new(path).canonicalize().map_err(|_| refuse())?;
        let inside = |(_, r): &(PathBuf, PathBuf)| {
            *r == resolved || (r.is_dir() && resolved.parent() == Some(r.as_path()))
        };
        if resolved.is_file() && self.given.iter().any(inside) {
            Ok(resolved)
        } else {
            Err(refuse())
        }
    }

    /// The files that may hold records: every file given, and in every folder given its
    /// `records.jsonl` and its `*.json` files, sorted by name.
    pub fn record_files(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for (_, resolved) in &self.given {
            if resolved.is_file() {
                out.push(resolved.clone());
                continue;
            }
            let Ok(entries) = std::fs::read_dir(resolved) else {
                continue;
            };
            let mut inside: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .filter(|p| {
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    name == "records.jsonl" || name.ends_with(".json")
                })
                .collect();
            inside.sort();
            out.extend(inside);
        }
        out
    }

    /// The files given, and those directly inside the folders given, whose name ends in
    /// `.ext`, sorted, as paths relative to the current folder where they can be.
    pub fn with_extension(&self, ext: &str) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for (shown, resolved) in &self.given {
            if resolved.is_file() {
                out.push(shown.clone());
            } else if let Ok(entries) = std::fs::read_dir(resolved) {
                let mut inside: Vec<PathBuf> = entries
                    .flatten()
                    .filter(|e| e.path().is_file())
                    .map(|e| shown.join(e.file_name()))
                    .collect();
                inside.sort();
                out.extend(inside);
            }
        }
        out.retain(|p| p.extension().and_then(|e| e.to_str()) == Some(ext));
        out
    }

    /// The folders given that are runs (they hold `summary.csv`), as given and resolved.
    pub fn runs(&self) -> Vec<(PathBuf, PathBuf)> {
        self.given
            .iter()
            .filter(|(_, r)| r.join("summary.csv").is_file())
            .cloned()
            .collect()
    }

    /// The paths given, as given.
    pub fn shown(&self) -> Vec<String> {
        self.given
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect()
    }
}

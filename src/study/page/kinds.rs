//! Which kind of bailab output a path is: a folder by the files it holds, a file by its name or
//! its CSV header. Anything else is an error naming the path and what was expected.

use crate::sim::files::schema::LEARN_REPORT_HEADER;
use crate::study::plot::read::{recognise, Csv, Kind};
use anyhow::{bail, Context as _};
use std::path::{Path, PathBuf};

/// One output to report on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A run folder (`bailab run` or `merge`): `summary.csv` and `meta.json`.
    Run(PathBuf),
    /// A tournament folder: `tournament.json`, `ratings.csv`, `pairs.csv`, `crosstable.csv`.
    Tournament(PathBuf),
    /// A `bailab deals` folder: `distributions.csv` (and `means.csv`, `meta.json`).
    Deals(PathBuf),
    /// A `bailab equity` folder: `equity.csv` (and `equity.json`).
    Equity(PathBuf),
    /// A `bailab tune` report (`NAME.report.csv`, its weights `NAME.toml` beside it).
    Tune(PathBuf),
    /// A `bailab learn` report (`NAME.report.csv`, its rule list `NAME.toml` beside it).
    Learn(PathBuf),
    /// An ISMCTS strength table (`scripts/ismcts-strength.sh`).
    Strength(PathBuf),
    /// A `bailab train` learning curve (`curve.csv`, its network beside it).
    Curve(PathBuf),
}

/// What a folder or file must be, for error messages.
pub(crate) const EXPECTED: &str =
    "expected a bailab output: a run folder (summary.csv and meta.json), a \
     tournament folder (tournament.json), a deals folder (distributions.csv), an equity folder \
     (equity.csv), a tune or learn report (NAME.report.csv, or a folder holding one), an ISMCTS \
     strength CSV (iters, mean_diff, ms_per_decision columns) or a training folder (curve.csv)";

/// The outputs `path` holds (a folder of tune or learn reports such as `agents/` holds several).
pub fn classify(path: &Path) -> anyhow::Result<Vec<Input>> {
    if path.is_dir() {
        return folder(path);
    }
    if !path.exists() {
        bail!("{}: no such file or folder", path.display());
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // a file that marks its folder stands for the folder
    if [
        "summary.csv",
        "meta.json",
        "tally.json",
        "tournament.json",
        "ratings.csv",
        "crosstable.csv",
        "distributions.csv",
        "equity.csv",
        "equity.json",
    ]
    .contains(&name.as_str())
    {
        return folder(&parent).with_context(|| format!("{} is in that folder", path.display()));
    }
    if let Some(stem) = name.strip_suffix(".toml") {
        let report = parent.join(format!("{stem}.report.csv"));
        if report.is_file() {
            return csv_file(&report).map(|i| vec![i]);
        }
        bail!(
            "{}: a TOML file without a report beside it ({} is missing); {EXPECTED}",
            path.display(),
            report.display()
        );
    }
    csv_file(path).map(|i| vec![i])
}

/// A CSV file by its header: a tune, learn or strength report.
fn csv_file(path: &Path) -> anyhow::Result<Input> {
    let header = match Csv::read(path) {
        Ok(c) => c.header,
        Err(e) => bail!("{}: {e:#}; {EXPECTED}", path.display()),
    };
    let p = path.to_path_buf();
    match recognise(&header) {
        Some(Kind::Tune) => return Ok(Input::Tune(p)),
        Some(Kind::Strength) => return Ok(Input::Strength(p)),
        Some(Kind::Curve) => return Ok(Input::Curve(p)),
        _ => {}
    }
    if LEARN_REPORT_HEADER
        .iter()
        .all(|c| header.iter().any(|h| h == c))
    {
        return Ok(Input::Learn(p));
    }
    bail!(
        "{}: not a bailab output this command reads (header `{}`); {EXPECTED}",
        path.display(),
        header.join(",")
    )
}

/// A folder by the files it holds.
fn folder(dir: &Path) -> anyhow::Result<Vec<Input>> {
    let has = |f: &str| dir.join(f).is_file();
    let d = dir.to_path_buf();
    if has("tournament.json") {
        return Ok(vec![Input::Tournament(d)]);
    }
    if has("summary.csv") {
        if !has("meta.json") {
            bail!(
                "{}: summary.csv without meta.json: a run folder holds both (bailab run writes \
                 them together)",
                dir.display()
            );
        }
        return Ok(vec![Input::Run(d)]);
    }
    if has("distributions.csv") {
        return Ok(vec![Input::Deals(d)]);
    }
    if has("equity.csv") {
        return Ok(vec![Input::Equity(d)]);
    }
    if has("curve.csv") {
        return Ok(vec![Input::Curve(d.join("curve.csv"))]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let reports: Vec<Input> = files
        .iter()
        .filter(|p| p.to_string_lossy().ends_with(".report.csv"))
        .filter_map(|p| csv_file(p).ok())
        .collect();
    if !reports.is_empty() {
        return Ok(reports);
    }
    let names: Vec<String> = files
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .take(8)
        .collect();
    let held = if names.is_empty() {
        "it holds no files".to_string()
    } else {
        format!("it holds {}", names.join(", "))
    };
    bail!(
        "{}: not a bailab output folder of a known kind ({held}); {EXPECTED}",
        dir.display()
    )
}

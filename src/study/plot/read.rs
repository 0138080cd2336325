//! Reading the toolkit's CSVs: which format a header is, and its rows as typed values, with
//! errors that name the file, line and column.

use crate::sim::files::schema::{
    columns, CURVE_HEADER, DISTRIBUTIONS_HEADER, EQUITY_HEADER, STRENGTH_HEADER, SUMMARY_HEADER,
    TUNE_REPORT_HEADER,
};
use anyhow::{anyhow, bail};
use std::path::{Path, PathBuf};

/// The largest magnitude a figure of a CSV read may have: beyond any rate, payout or count
/// bailab writes, and small enough that spans and axis ticks over it stay finite.
pub const MAX_FIGURE: f64 = 1e15;

/// An estimate with its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Est {
    /// The estimate.
    pub mid: f64,
    /// The interval's lower end.
    pub lo: f64,
    /// The interval's upper end.
    pub hi: f64,
}

/// The formats `bailab plot` draws (see docs/plot.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A run's `summary.csv`.
    Summary,
    /// `ismcts-strength.csv`.
    Strength,
    /// `bailab deals`' `distributions.csv`.
    Distributions,
    /// `bailab equity`'s `equity.csv`.
    Equity,
    /// `bailab tune`'s `report.csv`.
    Tune,
    /// `bailab train`'s `curve.csv`.
    Curve,
}

/// The columns of a run's `summary.csv` that charts (and report pages) read.
pub(crate) const SUMMARY_COLUMNS: [&str; 13] = columns(
    &SUMMARY_HEADER,
    [
        "kind",
        "agent",
        "versus",
        "win_rate",
        "win_rate_lo95",
        "win_rate_hi95",
        "mean_payout",
        "mean_payout_lo95",
        "mean_payout_hi95",
        "deals",
        "mean_diff",
        "mean_diff_lo95",
        "mean_diff_hi95",
    ],
);

/// Each format and the columns that identify it (a header holding all of them, in any order,
/// is that format; extra columns are ignored).
const FORMATS: [(Kind, &[&str]); 6] = [
    (Kind::Summary, &SUMMARY_COLUMNS),
    (
        Kind::Strength,
        &columns(
            &STRENGTH_HEADER,
            [
                "iters",
                "deals",
                "mean_diff",
                "mean_diff_lo95",
                "mean_diff_hi95",
                "ms_per_decision",
            ],
        ),
    ),
    (
        Kind::Distributions,
        &columns(
            &DISTRIBUTIONS_HEADER,
            [
                "game",
                "variant",
                "measure",
                "group",
                "per",
                "value",
                "total",
                "share",
                "share_lo95",
                "share_hi95",
            ],
        ),
    ),
    (
        Kind::Equity,
        &columns(
            &EQUITY_HEADER,
            [
                "rank",
                "action",
                "samples",
                "win_rate",
                "win_rate_lo95",
                "win_rate_hi95",
                "mean_payout",
                "mean_payout_lo95",
                "mean_payout_hi95",
            ],
        ),
    ),
    (Kind::Tune, &TUNE_REPORT_HEADER),
    (Kind::Curve, &CURVE_HEADER),
];

/// Which format a header is, if any.
pub(crate) fn recognise(header: &[String]) -> Option<Kind> {
    FORMATS
        .iter()
        .find(|(_, cols)| cols.iter().all(|c| header.iter().any(|h| h == c)))
        .map(|&(k, _)| k)
}

/// The format of the CSV at `path` from its header alone (a folder's large `games.csv` is not
/// read whole just to be skipped).
pub(crate) fn header_kind(path: &Path) -> anyhow::Result<Option<Kind>> {
    let file = crate::input::open_csv(path)?;
    let mut r = csv::ReaderBuilder::new().from_reader(file);
    let header: Vec<String> = match r.headers() {
        Ok(h) => h
            .iter()
            .map(|h| h.trim_start_matches('\u{feff}').trim().to_string())
            .collect(),
        Err(_) => return Ok(None),
    };
    Ok(recognise(&header))
}

/// A CSV file read whole: its header and its records with their line numbers.
pub struct Csv {
    /// The file.
    pub path: PathBuf,
    /// The column names.
    pub header: Vec<String>,
    records: Vec<(u64, csv::StringRecord)>,
}

impl Csv {
    /// Reads `path`; a missing file or a ragged row is an error naming the file (and line).
    pub fn read(path: &Path) -> anyhow::Result<Csv> {
        let text = crate::input::read_bytes(path, crate::input::RESULT)?;
        let mut r = csv::ReaderBuilder::new().from_reader(text.as_slice());
        let header = r
            .headers()
            .map_err(|e| anyhow!("{}: {e}", path.display()))?
            .iter()
            .map(|h| h.trim_start_matches('\u{feff}').trim().to_string())
            .collect();
        let mut records = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(|e| match e.position() {
                Some(p) => anyhow!("{}:{}: {e}", path.display(), p.line()),
                None => anyhow!("{}: {e}", path.display()),
            })?;
            let line = rec.position().map_or(0, |p| p.line());
            records.push((line, rec));
        }
        Ok(Csv {
            path: path.to_path_buf(),
            header,
            records,
        })
    }

    /// The file's format, or an error naming the file and showing its header.
    pub fn kind(&self) -> anyhow::Result<Kind> {
        recognise(&self.header).ok_or_else(|| {
            anyhow!(
                "{}: unrecognised header `{}` (bailab plot reads summary.csv, \
                 ismcts-strength.csv, distributions.csv, equity.csv and report.csv; see docs/plot.md)",
                self.path.display(),
                self.header.join(",")
            )
        })
    }

    /// The rows, each able to fetch a column by name.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.records.iter().map(move |(line, rec)| Row {
            csv: self,
            line: *line,
            rec,
        })
    }

    fn column(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .expect("recognise checked the columns")
    }
}

/// One record of a [`Csv`].
pub struct Row<'a> {
    csv: &'a Csv,
    line: u64,
    rec: &'a csv::StringRecord,
}

impl Row<'_> {
    /// The text of column `name` (trimmed).
    pub fn text(&self, name: &str) -> &str {
        self.rec.get(self.csv.column(name)).unwrap_or("").trim()
    }

    /// Column `name` as a number; an empty or malformed field, or one beyond [`MAX_FIGURE`]
    /// (an edited file: no chart can be drawn over such a span), is an error at
    /// file:line:column.
    pub fn num(&self, name: &str) -> anyhow::Result<f64> {
        let text = self.text(name);
        match text.parse::<f64>() {
            Ok(x) if x.abs() <= MAX_FIGURE => Ok(x),
            Ok(x) if x.is_finite() => bail!(
                "{}: column `{name}`: {text} is beyond ±{MAX_FIGURE:e}, more than any rate, \
                 payout or count bailab writes: refused",
                self.at(name)
            ),
            _ if text.is_empty() => bail!("{}: column `{name}` is empty", self.at(name)),
            _ => bail!(
                "{}: column `{name}`: `{}` is not a number",
                self.at(name),
                crate::input::excerpt(text, crate::input::EXCERPT_CHARS)
            ),
        }
    }

    /// Columns `name`, `name_lo95` and `name_hi95` as an estimate.
    pub(crate) fn est(&self, name: &str) -> anyhow::Result<Est> {
        Ok(Est {
            mid: self.num(name)?,
            lo: self.num(&format!("{name}_lo95"))?,
            hi: self.num(&format!("{name}_hi95"))?,
        })
    }

    /// Where column `name` of this row is: `file:line:column`.
    fn at(&self, name: &str) -> String {
        format!(
            "{}:{}:{}",
            self.csv.path.display(),
            self.line,
            self.csv.column(name) + 1
        )
    }
}

//! `bailab plot`: SVG charts from the toolkit's CSVs. Each CSV is recognised by its header
//! (`read::recognise`); [`plan`] reads every input and draws every chart in memory, so a bad
//! input stops the command before any file is written; [`write()`] then writes each SVG through a
//! temporary file and a rename.

pub(crate) mod charts;
pub mod draw;
pub mod label;
pub mod options;
pub mod read;
pub mod table;

pub use options::Options;

use crate::sim::files::atomic::write_atomic;
use anyhow::{bail, Context as _};
use read::Csv;
use std::path::{Path, PathBuf};
use table::Table;

/// One chart to write.
pub struct Svg {
    /// The CSV it was drawn from.
    pub source: PathBuf,
    /// Where it goes.
    pub path: PathBuf,
    /// The SVG text.
    pub text: String,
}

/// The inputs found: CSV files to plot, and files of a folder skipped as not a chart format.
pub(crate) struct Inputs {
    /// The CSVs to plot.
    pub files: Vec<PathBuf>,
    /// CSVs in a folder whose header is not a format `bailab plot` draws.
    pub skipped: Vec<PathBuf>,
}

/// Expands the arguments: a file is plotted (an unrecognised header is an error later); a folder
/// contributes every `*.csv` in it with a recognised header (others are skipped), and a folder
/// with none is an error.
pub(crate) fn inputs(args: &[PathBuf]) -> anyhow::Result<Inputs> {
    let mut found = Inputs {
        files: Vec::new(),
        skipped: Vec::new(),
    };
    for arg in args {
        if !arg.is_dir() {
            if !arg.exists() {
                bail!("{}: no such file or folder", arg.display());
            }
            found.files.push(arg.clone());
            continue;
        }
        let before = found.files.len();
        for path in csv_files(arg)? {
            if read::header_kind(&path)?.is_some() {
                found.files.push(path);
            } else {
                found.skipped.push(path);
            }
        }
        if found.files.len() == before {
            bail!(
                "{}: no CSV that bailab plot draws (summary.csv, ismcts-strength.csv, \
                 distributions.csv, equity.csv, report.csv; see docs/plot.md)",
                arg.display()
            );
        }
    }
    Ok(found)
}

/// The `*.csv` files directly in `dir`, sorted by name.
fn csv_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "csv"))
        .collect();
    files.sort();
    Ok(files)
}

/// Reads every CSV and draws its charts in memory; any error (missing file, unrecognised header,
/// malformed number, two charts with one output name) is returned before anything is written.
pub fn plan(files: &[PathBuf], opts: &Options) -> anyhow::Result<Vec<Svg>> {
    let mut svgs: Vec<Svg> = Vec::new();
    for file in files {
        let csv = Csv::read(file)?;
        let table = Table::parse(&csv)?;
        let mut ctx = charts::Context::find(file, opts)?;
        ctx.read_columns(&csv);
        let dir = match &opts.output {
            Some(d) => d.clone(),
            None => file
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        };
        for (name, text) in charts::draw(&table, &ctx)? {
            let path = dir.join(name);
            if let Some(other) = svgs.iter().find(|s| s.path == path) {
                bail!(
                    "{} and {} would both be drawn to {}: plot them into different folders",
                    other.source.display(),
                    file.display(),
                    path.display()
                );
            }
            svgs.push(Svg {
                source: file.clone(),
                path,
                text,
            });
        }
    }
    Ok(svgs)
}

/// Writes each SVG (temporary file, then rename), creating `--output` if needed.
pub fn write(svgs: &[Svg]) -> anyhow::Result<()> {
    for s in svgs {
        let dir = s.path.parent().unwrap_or(Path::new("."));
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
        let name = s.path.file_name().expect("a file name").to_string_lossy();
        write_atomic(dir, &name, s.text.as_bytes())?;
    }
    Ok(())
}

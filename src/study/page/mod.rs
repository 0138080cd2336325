//! `bailab report`: one self-contained HTML page (inline SVG and CSS, no script, nothing
//! fetched) from any mix of bailab output folders. [`kinds`] tells what each path is; each kind
//! has its section ([`run`], [`tournament`], `studies`), whose charts are `bailab plot`'s,
//! drawn in memory and inlined; several runs and tournaments add the agents × runs comparison
//! (`compare`). [`build`] reads everything before [`write()`] writes the page through a
//! temporary file, so an error leaves an earlier page untouched.

pub(crate) mod compare;
pub mod html;
pub mod kinds;
pub mod run;
pub mod section;
pub(crate) mod shared;
pub(crate) mod studies;
pub mod tournament;

pub use section::{Column, Section};

use anyhow::{bail, Context as _};
use kinds::Input;
use std::path::{Path, PathBuf};

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
                Input::Curve(f) => studies::training(f),
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
        let mut head = Vec::new();
        let head = std::fs::File::open(path)
            .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head))
            .map(|_| String::from_utf8_lossy(&head).into_owned())
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

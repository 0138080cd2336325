//! The page's HTML pieces: escaping, tables, figures with their intervals, inline charts, and the
//! page around the sections (its CSS). Every text that comes from a file goes through `esc`.

use crate::study::plot::label::{decimals, signed};
use crate::study::plot::read::Est;

/// `text` escaped for HTML text and attribute values.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Decimals that show an interval of width `w` to about a tenth of its width (at most 4).
pub(crate) fn decimals_for(w: f64) -> usize {
    decimals(w).saturating_sub(1).min(4)
}

/// Decimals for a difference or payout whose interval is `w` wide: a third of it shows (as
/// the charts write them).
pub(crate) fn diff_decimals(w: f64) -> usize {
    decimals(w / 3.0).saturating_sub(1).min(4)
}

/// An estimate with its interval as HTML: `+0.96 [+0.43, +1.49]`, signed (differences,
/// payouts), the interval in small grey text.
pub(crate) fn signed_est(e: &Est) -> String {
    let d = diff_decimals(e.hi - e.lo);
    format!(
        "{} <span class=\"ci\">[{}, {}]</span>",
        signed(e.mid, d),
        signed(e.lo, d),
        signed(e.hi, d)
    )
}

/// A share with its interval as HTML: `25.6% [24.7, 26.6]`.
pub(crate) fn share_est(e: &Est) -> String {
    let d = decimals_for(100.0 * (e.hi - e.lo));
    format!(
        "{:.*}% <span class=\"ci\">[{:.*}, {:.*}]</span>",
        d,
        100.0 * e.mid,
        d,
        100.0 * e.lo,
        d,
        100.0 * e.hi
    )
}

/// A plain number: an integer with thousands separators, or 3 significant decimals.
pub fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let s = crate::text::thousands(x.abs() as u64);
        if x < 0.0 {
            format!("−{s}")
        } else {
            s
        }
    } else {
        format!("{x:.*}", decimals(x.abs()).min(4))
    }
}

/// A table: headings (plain text, escaped here) and rows of cells already in HTML. Cells that
/// read as numbers are right-aligned.
pub fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<div class=\"wrap\"><table class=\"data\"><thead><tr>");
    for h in head {
        out.push_str(&format!("<th>{}</th>", esc(h)));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let numeric = is_number(cell);
            if numeric {
                out.push_str(&format!("<td class=\"num\">{cell}</td>"));
            } else {
                out.push_str(&format!("<td>{cell}</td>"));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    out
}

/// Whether a cell's text (tags aside) is a figure: digits, signs, separators, brackets,
/// `%`; such cells are right-aligned and kept on one line.
fn is_number(cell: &str) -> bool {
    let mut text = String::new();
    let mut in_tag = false;
    for c in cell.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.chars().any(|c| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || "+−-.,%[] →e".contains(c))
}

/// A two-column table of facts: `(what, value as HTML)`; empty values are left out.
pub fn facts(rows: &[(&str, String)]) -> String {
    let mut out = String::from("<table class=\"facts\"><tbody>\n");
    for (k, v) in rows.iter().filter(|(_, v)| !v.is_empty()) {
        out.push_str(&format!("<tr><th>{}</th><td>{v}</td></tr>\n", esc(k)));
    }
    out.push_str("</tbody></table>\n");
    out
}

/// A heading and a sentence saying what the following numbers mean.
pub fn part(heading: &str, sentence: &str) -> String {
    format!(
        "<h3>{}</h3>\n<p class=\"what\">{}</p>\n",
        esc(heading),
        esc(sentence)
    )
}

/// A chart of `bailab plot` inlined: the SVG's fixed size and namespace attribute dropped (an
/// inline SVG in HTML needs neither), so it scales to the page through its `viewBox`.
pub(crate) fn figure(svg: &str) -> String {
    let svg = svg.trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let svg = match svg.find('>') {
        Some(end) if svg.starts_with("<svg") => {
            let open: String = svg[..end]
                .split(' ')
                .filter(|a| {
                    !(a.starts_with("xmlns=")
                        || a.starts_with("width=")
                        || a.starts_with("height="))
                })
                .collect::<Vec<_>>()
                .join(" ");
            format!("{open} role=\"img\">{}", &svg[end + 1..])
        }
        _ => svg.to_string(),
    };
    format!("<figure>{svg}</figure>\n")
}

/// Text shown as it is (a file's header, a command), escaped.
pub fn pre(text: &str) -> String {
    format!("<pre>{}</pre>\n", esc(text))
}

/// `inner` folded away under `summary`.
pub(crate) fn details(summary: &str, inner: &str) -> String {
    format!(
        "<details><summary>{}</summary>\n{inner}</details>\n",
        esc(summary)
    )
}

/// A duration in seconds as `12.3 s`, `4 min 05 s` or `2 h 03 min`.
pub(crate) fn duration(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.1} s")
    } else if s < 7200.0 {
        format!("{} min {:02} s", (s / 60.0) as u64, (s % 60.0) as u64)
    } else {
        format!(
            "{} h {:02} min",
            (s / 3600.0) as u64,
            ((s % 3600.0) / 60.0) as u64
        )
    }
}

/// [`duration`] of a time when there is one, else nothing.
pub(crate) fn duration_or_empty(s: Option<f64>) -> String {
    s.map_or(String::new(), duration)
}

/// The style sheet: system fonts only, nothing fetched.
pub(crate) const CSS: &str = "
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif;
  margin: 0 auto; max-width: 1180px; padding: 1.5em 2em 4em; color: #1d1d1f; line-height: 1.45; }
h1 { font-size: 1.8em; margin-bottom: 0.2em; }
h2 { font-size: 1.4em; border-top: 3px solid #0072b2; padding-top: 0.6em; margin-top: 2.4em; }
h3 { font-size: 1.1em; margin: 1.4em 0 0.2em; }
p.what { margin: 0.1em 0 0.6em; color: #444; max-width: 60em; }
p.sub { color: #555; margin-top: 0; }
nav.toc { background: #f4f6f8; border: 1px solid #dde3e8; padding: 0.6em 1.2em; border-radius: 6px; }
nav.toc ol { margin: 0.3em 0; padding-left: 1.8em; }
nav.toc p.cmp { margin: 0.3em 0 0; }
nav.toc .kind { color: #666; font-size: 0.9em; }
div.wrap { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.4em 0 0.8em; font-size: 0.92em; }
table.data th, table.data td { border: 1px solid #d5dbe0; padding: 0.25em 0.6em; vertical-align: top; }
table.data th { background: #eef2f5; text-align: left; font-weight: 600; }
table.data td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.data tbody tr:nth-child(even) { background: #fafbfc; }
table.facts th { text-align: left; padding: 0.15em 1.2em 0.15em 0; color: #555; font-weight: 600;
  vertical-align: top; white-space: nowrap; }
table.facts td { padding: 0.15em 0; }
.ci { color: #666; font-size: 0.88em; }
code, pre { font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: #f6f8fa; border: 1px solid #e1e4e8; padding: 0.6em 0.8em; overflow-x: auto;
  white-space: pre-wrap; word-break: break-word; }
figure { margin: 0.6em 0 1.2em; }
figure svg { max-width: 100%; height: auto; display: block; border: 1px solid #e6e9ec; }
details { margin: 0.4em 0 0.8em; }
details summary { cursor: pointer; color: #0b5394; }
table.cross td.cell { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.cross td.diag { background: #e8e8e8; }
.legend { font-size: 0.88em; color: #555; }
.warn { color: #a94400; }
";

/// The whole page: title, table of contents (`(id, title, kind)`), and the sections' HTML.
pub fn page(title: &str, intro: &str, toc: &[(String, String, String)], body: &str) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"bailab report {}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n{intro}",
        env!("CARGO_PKG_VERSION"),
        esc(title),
        esc(title)
    );
    out.push_str("<nav class=\"toc\"><strong>Contents</strong>\n");
    let (first, toc) = match toc.split_first() {
        Some((c, rest)) if c.0 == "comparison" => (Some(c), rest),
        _ => (None, toc),
    };
    if let Some((id, t, _)) = first {
        out.push_str(&format!(
            "<p class=\"cmp\"><a href=\"#{}\">{}</a></p>\n",
            esc(id),
            esc(t)
        ));
    }
    out.push_str("<ol>\n");
    for (id, t, kind) in toc {
        out.push_str(&format!(
            "<li><a href=\"#{}\">{}</a> <span class=\"kind\">({})</span></li>\n",
            esc(id),
            esc(t),
            esc(kind)
        ));
    }
    out.push_str("</ol></nav>\n");
    out.push_str(body);
    out.push_str("</body>\n</html>\n");
    out
}

/// The marker in every page's head, by which `bailab report` knows a file it may replace.
pub(crate) const GENERATOR: &str = "<meta name=\"generator\" content=\"bailab report";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_charts_lose_their_fixed_size() {
        assert_eq!(esc("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
        let f = figure("<svg width=\"960\" height=\"400\" viewBox=\"0 0 960 400\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect/></svg>");
        assert!(
            f.contains("<svg viewBox=\"0 0 960 400\" role=\"img\">"),
            "{f}"
        );
        assert!(!f.contains("http"));
        assert_eq!(duration(65.0), "65.0 s");
        assert_eq!(duration(125.0), "2 min 05 s");
        assert_eq!(num(12000.0), "12,000");
        assert!(is_number("+0.5 <span class=\"ci\">[+0.1, +0.9]</span>"));
        assert!(is_number("25.6%"));
        assert!(!is_number("1 when the first player wins"));
    }
}

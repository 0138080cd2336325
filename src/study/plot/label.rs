//! Text on the charts: short agent names, payout units, numbers, file names.

/// The longest label drawn; longer ones end in `…`.
const MAX_LABEL: usize = 40;

/// An agent spec as a short label: a parameter that is a file path (`rules:agents/x.toml`)
/// shows only its file stem (`rules:x`); anything longer than `MAX_LABEL` is cut with `…`.
pub(crate) fn short_spec(spec: &str) -> String {
    let short = match spec.split_once(':') {
        Some((name, params)) => {
            let params: Vec<String> = params.split(',').map(short_param).collect();
            format!("{name}:{}", params.join(","))
        }
        None => spec.to_string(),
    };
    cut(&short, MAX_LABEL)
}

/// `path=agents/x.toml` → `path=x`; `agents/x.toml` → `x`; anything else unchanged.
fn short_param(p: &str) -> String {
    let (key, value) = match p.split_once('=') {
        Some((k, v)) => (Some(k), v),
        None => (None, p),
    };
    let value = if value.contains('/') || value.ends_with(".toml") {
        let file = value.rsplit('/').next().unwrap_or(value);
        file.strip_suffix(".toml").unwrap_or(file)
    } else {
        value
    };
    match key {
        Some(k) => format!("{k}={value}"),
        None => value.to_string(),
    }
}

/// `text` cut to at most `max` characters, ending in `…` when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

/// A game's payout unit without its explanation: `points × stake (§8.4: …)` → `points × stake`.
pub(crate) fn short_unit(unit: &str) -> &str {
    unit.split(" (").next().unwrap_or(unit).trim()
}

/// Decimals that show differences of about `span / 100`.
pub(crate) fn decimals(span: f64) -> usize {
    if !(span.is_finite() && span > 0.0) {
        return 2;
    }
    (2.0 - span.log10().floor()).clamp(0.0, 4.0) as usize
}

/// `x` with a sign (`+0.74`, `−0.20`) and `d` decimals.
pub(crate) fn signed(x: f64, d: usize) -> String {
    let s = format!("{:.*}", d, x.abs());
    let zero = s.chars().all(|c| c == '0' || c == '.');
    match (x < 0.0 && !zero, zero) {
        (true, _) => format!("−{s}"),
        (false, true) => s,
        (false, false) => format!("+{s}"),
    }
}

/// A share as a percentage with `d` decimals (`25.6%`).
pub(crate) fn percent(x: f64, d: usize) -> String {
    format!("{:.*}%", d, 100.0 * x)
}

/// A name usable in a file name: letters, digits, `-` and `_`; anything else becomes `_`.
pub(crate) fn file_part(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A rough width in pixels of `text` at `size` px in a sans-serif font (for label areas).
pub(crate) fn text_px(text: &str, size: f64) -> u32 {
    (text.chars().count() as f64 * size * 0.56).ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_shorten_paths_and_keep_parameters() {
        assert_eq!(
            short_spec("rules:agents/tusac-classic.toml"),
            "rules:tusac-classic"
        );
        assert_eq!(
            short_spec("ismcts:iters=1000,root=ucb"),
            "ismcts:iters=1000,root=ucb"
        );
        assert_eq!(short_spec("greedy"), "greedy");
        assert_eq!(short_spec("rules:path=a/b.toml"), "rules:path=b");
        assert_eq!(short_spec(&"x".repeat(60)).chars().count(), MAX_LABEL);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(signed(0.7394, 2), "+0.74");
        assert_eq!(signed(-0.2, 2), "−0.20");
        assert_eq!(signed(-0.001, 2), "0.00");
        assert_eq!(percent(0.2561, 1), "25.6%");
        assert_eq!(decimals(1.5), 2);
        assert_eq!(decimals(15.0), 1);
        assert_eq!(short_unit("points × stake (§8.4: x)"), "points × stake");
        assert_eq!(file_part("a b/c"), "a_b_c");
    }
}

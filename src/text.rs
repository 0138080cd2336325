//! Small helpers shared across layers: how a TOML error is shown, string equality in
//! constants, and counts with thousands separators. Nothing here knows of games, agents or the
//! runner.

/// A TOML error as the parser words it, with the offending line and the one before it shown
/// (a parser often notices a fault, such as a missing quote or bracket, on the next line).
pub fn toml_error(text: &str, origin: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim_end();
    let Some(span) = e.span() else {
        return format!("{origin}: {message}");
    };
    let at = span.start.min(text.len());
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = format!("{origin}: line {line}, column {column}: {message}");
    for n in line.saturating_sub(1).max(1)..=line {
        if let Some(l) = lines.get(n - 1) {
            out += &format!("\n  {n:>4} | {l}");
        }
    }
    out
}

/// String equality usable in constants (finding a name in a table at compile time).
pub const fn const_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A count with thousands separators: `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

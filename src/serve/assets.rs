//! The web app's files, built into the binary (nothing is fetched from elsewhere): plain HTML,
//! CSS and JavaScript modules, with no build step.

/// Every asset: its path under `/` and its content type and bytes.
const ASSETS: &[(&str, &str, &str)] = &[
    ("index.html", HTML, include_str!("web/index.html")),
    ("play.html", HTML, include_str!("web/play.html")),
    ("viewer.html", HTML, include_str!("web/viewer.html")),
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("web/app.css"),
    ),
    ("api.js", JS, include_str!("web/api.js")),
    ("cards.js", JS, include_str!("web/cards.js")),
    ("table.js", JS, include_str!("web/table.js")),
    ("home.js", JS, include_str!("web/home.js")),
    ("play.js", JS, include_str!("web/play.js")),
    ("viewer.js", JS, include_str!("web/viewer.js")),
];

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// The asset at `path` (`""` is the home page): its content type and text.
pub fn asset(path: &str) -> Option<(&'static str, &'static str)> {
    let path = if path.is_empty() { "index.html" } else { path };
    ASSETS
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|&(_, kind, text)| (kind, text))
}

//! `bailab report` end to end: a page from every kind of output folder (small runs and a deals
//! count made here, copies of committed equity, tune, learn and strength results, and a small
//! tournament folder written here), with its figures, charts and escaped text; no reference to
//! anything outside the page; several runs give the agents × runs table; an unknown folder
//! fails naming it and leaves an earlier page as it was.

use crate::common;

use common::{fails, ok, Scratch};
use std::path::Path;

/// The committed file `rel` of the repository, copied to `to` in the scratch folder.
fn copy(s: &Scratch, rel: &str, to: &str) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let to = s.path(to);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("copying {}: {e}", from.display()));
}

/// A small Tiến Lên run in `runs/NAME`.
fn small_run(s: &Scratch, name: &str, agents: &str) {
    s.write(
        &format!("{name}.toml"),
        &format!(
            "name = \"{name}\"\ngame = \"tienlen\"\nagents = [{agents}]\ndeals = 30\nseed = 5\n\
             output = \"runs/{name}\"\n"
        ),
    );
    ok(
        &s.0,
        &["run", &format!("{name}.toml"), "--threads", "1", "--quiet"],
    );
}

const EXEC: &str = "exec:./bot --mode a<b&c";

/// A tournament folder of the format bailab-tournament-1, written by hand: four agents, one
/// pair (the exec agent and ismcts:iters=300) never met.
fn fake_tournament(s: &Scratch, dir: &str) {
    let agents = ["greedy", "ismcts:iters=100", "ismcts:iters=300", EXEC];
    let doc = serde_json::json!({
        "format": "bailab-tournament-1",
        "tournament": {
            "name": "small-league", "game": "tusac", "variant": "classic", "players": 2,
            "agents": agents, "deals": 50, "seed": 9, "seating": "pairs", "anchor": "greedy",
            "output": dir,
        },
        "tables": [
            {"index": 0, "agents": ["greedy", "ismcts:iters=100"], "dir": "tables/00", "deals_done": 50},
            {"index": 1, "agents": ["greedy", "ismcts:iters=300"], "dir": "tables/01", "deals_done": 50},
        ],
        "status": "complete",
        "elapsed_s": 12.5,
        "command": "bailab tournament league.toml",
    });
    s.write(
        &format!("{dir}/tournament.json"),
        &serde_json::to_string_pretty(&doc).unwrap(),
    );
    let head = "game,variant,players,payout_unit";
    let pre = "tusac,classic,2,points";
    s.write(
        &format!("{dir}/ratings.csv"),
        &format!(
            "{head},rank,agent,rating,rating_lo95,rating_hi95,deals,games\n\
             {pre},1,ismcts:iters=300,0.9,0.5,1.3,100,200\n\
             {pre},2,ismcts:iters=100,0.4,0.1,0.7,150,300\n\
             {pre},3,greedy,0,0,0,150,300\n\
             {pre},4,{EXEC},-1.2,-1.6,-0.8,100,200\n"
        ),
    );
    // (agent, versus, mean, lo, hi); each ordered both ways
    let met = [
        ("ismcts:iters=300", "ismcts:iters=100", 0.5, 0.1, 0.9),
        ("ismcts:iters=300", "greedy", 0.9, 0.5, 1.3),
        ("ismcts:iters=100", "greedy", 0.4, 0.1, 0.7),
        ("ismcts:iters=100", EXEC, 1.6, 1.1, 2.1),
        ("greedy", EXEC, 1.2, 0.8, 1.6),
    ];
    let mut pairs =
        format!("{head},agent,versus,deals,games,mean_diff,mean_diff_lo95,mean_diff_hi95\n");
    for (a, v, m, lo, hi) in met {
        pairs.push_str(&format!("{pre},{a},{v},50,100,{m},{lo},{hi}\n"));
        pairs.push_str(&format!("{pre},{v},{a},50,100,{},{},{}\n", -m, -hi, -lo));
    }
    s.write(&format!("{dir}/pairs.csv"), &pairs);
    let mut cross = format!("agent,{}\n", agents.join(","));
    for a in agents {
        let cells: Vec<String> = agents
            .iter()
            .map(|v| {
                met.iter()
                    .find_map(|&(x, y, m, _, _)| {
                        (x == a && y == *v)
                            .then(|| m.to_string())
                            .or_else(|| (y == a && x == *v).then(|| (-m).to_string()))
                    })
                    .unwrap_or_default()
            })
            .collect();
        cross.push_str(&format!("{a},{}\n", cells.join(",")));
    }
    s.write(&format!("{dir}/crosstable.csv"), &cross);
    s.write(&format!("{dir}/tables/00/.keep"), "");
}

/// The page's text.
fn page(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Fails if the page refers to anything but itself: no URL, no `src=`, no `href=` but `#…`,
/// no `@import`, no `url(`.
fn assert_self_contained(html: &str) {
    for bad in [
        "http://", "https://", " src=", "@import", "url(", "<script", "<link",
    ] {
        assert!(!html.contains(bad), "the page holds {bad}");
    }
    for (i, _) in html.match_indices("href=") {
        assert!(
            html[i..].starts_with("href=\"#"),
            "an href outside the page: {}",
            &html[i..(i + 60).min(html.len())]
        );
    }
}

#[test]
fn a_page_shows_every_kind_of_output() {
    let s = Scratch::new("report-every-kind");
    small_run(
        &s,
        "tl-greedy",
        "\"greedy\", \"random\", \"random\", \"random\"",
    );
    ok(
        &s.0,
        &[
            "deals", "--game", "tusac", "--deals", "200", "-q", "--output", "deals",
        ],
    );
    for f in ["equity.csv", "equity.json"] {
        copy(
            &s,
            &format!("results/equity-tusac-w1/{f}"),
            &format!("equity/{f}"),
        );
    }
    for f in [
        "tusac-classic-greedy.report.csv",
        "tusac-classic-greedy.toml",
    ] {
        copy(&s, &format!("agents/{f}"), &format!("tuned/{f}"));
    }
    for f in ["tusac-classic.report.csv", "tusac-classic.toml"] {
        copy(&s, &format!("agents/{f}"), &format!("learned/{f}"));
    }
    copy(&s, "results/ismcts-strength.csv", "ismcts-strength.csv");
    copy(
        &s,
        "results/ismcts-strength/iters-100/meta.json",
        "ismcts-strength/iters-100/meta.json",
    );
    for f in ["summary.csv", "meta.json", "sprt.csv"] {
        copy(
            &s,
            &format!("results/tienlen-rules-vs-greedy-sprt/{f}"),
            &format!("sprt/{f}"),
        );
    }
    fake_tournament(&s, "league");
    let args = [
        "report",
        "runs/tl-greedy",
        "sprt/summary.csv",
        "deals",
        "equity",
        "tuned/tusac-classic-greedy.report.csv",
        "learned/tusac-classic.toml",
        "ismcts-strength.csv",
        "league",
        "--output",
        "page.html",
    ];
    let out = common::stdout(&ok(&s.0, &args));
    assert!(out.contains("page.html"), "{out}");
    let html = page(&s.path("page.html"));
    assert_self_contained(&html);
    for kind in [
        "(run)",
        "(deals)",
        "(equity)",
        "(tune report)",
        "(learn report)",
        "(ISMCTS strength)",
        "(tournament, complete)",
        "(run with early stop (SPRT))",
    ] {
        assert!(html.contains(kind), "no section {kind}");
    }
    for (i, id) in (1..=8).map(|i| (i, format!("id=\"s{i}\""))) {
        assert!(html.contains(&id), "section {i} has no anchor");
        assert!(
            html.contains(&format!("href=\"#s{i}\"")),
            "no entry {i} in the contents"
        );
    }
    // the run: its unit, intervals and chart; the payout unit of Tiến Lên
    assert!(html.contains("half-cược per game"));
    assert!(html.contains("win rate per seat-game [95% interval]"));
    // the early stop, and the committed run's paired difference with its interval
    assert!(html.contains("Early stop (SPRT)") && html.contains("accepted: H1, after 200"));
    assert!(html.contains("+0.208 <span class=\"ci\">[+0.091, +0.326]</span>"));
    // the studies' figures, from their files
    assert!(html.contains("discard yP") && html.contains("(best)"));
    assert!(
        html.contains("no_win=5.36,win_outs=1.05"),
        "the best tuning candidate"
    );
    assert!(
        html.contains("not meld_value and win_outs &lt;= 0"),
        "the first learned rule, escaped"
    );
    assert!(html.contains("ISMCTS iterations per decision"));
    assert!(html.contains("<code>trash</code>"), "the deals' means");
    // the tournament: ratings, the cross-table with its tooltips and blanks, the curve
    assert!(html.contains("rating, points per game relative to the anchor [95% interval]"));
    assert!(html.contains(
        "title=\"ismcts:iters=300 − greedy: +0.90 [+0.50, +1.30] points per game, 95% interval; \
         100 games on 50 deals\""
    ));
    assert!(html.contains("Strength per iteration: ismcts"));
    assert!(html.contains("exec:./bot --mode a&lt;b&amp;c"));
    assert!(!html.contains("a<b&c"), "an agent spec not escaped");
    assert!(html.contains("Tables played") && html.contains("tables/01"));
    // charts: runs 2, deals one per measure, equity 1, tune 1, strength 1, tournament 2
    let svgs = html.matches("<svg ").count();
    assert!(svgs >= 9, "{svgs} charts");
    assert!(
        html.contains("Agents across runs"),
        "a run and a tournament compare"
    );
}

#[test]
fn several_runs_give_the_agents_by_runs_table() {
    let s = Scratch::new("report-compare");
    small_run(&s, "one", "\"greedy\", \"random\", \"random\", \"random\"");
    small_run(&s, "two", "\"greedy\", \"first\", \"greedy\", \"first\"");
    ok(&s.0, &["report", "runs/one", "-o", "single.html", "-q"]);
    assert!(!page(&s.path("single.html")).contains("Agents × runs"));
    ok(&s.0, &["report", "runs/one", "runs/two", "-q"]);
    let html = page(&s.path("report.html"));
    assert_self_contained(&html);
    assert!(html.contains("<h3>Agents × runs</h3>"));
    for head in [
        "one: mean payout, half-cược per game [95% interval]",
        "two: mean payout, half-cược per game [95% interval]",
        "two: mean paired difference, half-cược per game [95% interval]",
    ] {
        assert!(html.contains(head), "no column {head}");
    }
    let table = &html[html.find("Agents × runs").unwrap()..html.find("id=\"s1\"").unwrap()];
    for agent in [
        "<code>greedy</code>",
        "<code>random</code>",
        "<code>first</code>",
    ] {
        assert!(table.contains(agent), "no row {agent}");
    }
    assert!(table.contains("<code>greedy</code> − <code>first</code>"));
}

#[test]
fn an_unknown_folder_fails_and_leaves_the_earlier_page() {
    let s = Scratch::new("report-unknown");
    small_run(&s, "one", "\"greedy\", \"random\", \"random\", \"random\"");
    ok(&s.0, &["report", "runs/one", "-o", "page.html", "-q"]);
    let before = page(&s.path("page.html"));
    s.write("notes/readme.txt", "not an output");
    let err = fails(&s.0, &["report", "runs/one", "notes", "-o", "page.html"]);
    assert!(
        err.contains("notes") && err.contains("expected a bailab output"),
        "{err}"
    );
    assert!(err.contains("readme.txt"), "what the folder holds: {err}");
    let err = fails(&s.0, &["report", "runs/one", "nowhere", "-o", "page.html"]);
    assert!(err.contains("nowhere: no such file or folder"), "{err}");
    s.write("bad/summary.csv", "kind,agent\nagent,greedy\n");
    let err = fails(&s.0, &["report", "bad", "-o", "page.html"]);
    assert!(err.contains("bad") && err.contains("meta.json"), "{err}");
    assert_eq!(
        page(&s.path("page.html")),
        before,
        "the earlier page is untouched"
    );
    // a file that is not a report page is replaced only with --force
    s.write("mine.html", "<p>my notes</p>");
    let err = fails(&s.0, &["report", "runs/one", "-o", "mine.html"]);
    assert!(err.contains("not a page of bailab report"), "{err}");
    assert_eq!(page(&s.path("mine.html")), "<p>my notes</p>");
    ok(
        &s.0,
        &["report", "runs/one", "-o", "mine.html", "--force", "-q"],
    );
    assert!(page(&s.path("mine.html")).contains("bailab report"));
    let left: Vec<String> = std::fs::read_dir(&s.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

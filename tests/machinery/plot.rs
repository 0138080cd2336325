//! `bailab plot` end to end: each CSV format becomes its chart (counted by its marks: interval
//! bars are `#222222` polylines, bars are rects at opacity 0.85, points are circles, the zero
//! line is `#888888`), folders, `--output`/`--title`, and every error leaves no file behind.

use crate::common;

use common::{fails, ok, stderr, Scratch};
use std::path::Path;

const SUMMARY: &str = "\
kind,agent,versus,games,wins,draws,win_rate,win_rate_lo95,win_rate_hi95,mean_payout,mean_payout_lo95,mean_payout_hi95,sd_payout,mean_win_hand_value,penalties,deals,mean_diff,mean_diff_lo95,mean_diff_hi95
agent,rules:agents/tusac-classic.toml,,400,102,4,0.255,0.214,0.300,0.55,0.12,0.98,43.4,8.3,1,,,,
agent,greedy,,1200,293,12,0.2441,0.220,0.269,-0.18,-0.42,0.05,42.6,8.3,0,,,,
pair,rules:agents/tusac-classic.toml,greedy,,,,,,,,,,,,,100,0.739,0.529,0.949
";

const META: &str = r#"{"experiment":{"name":"tiny-run","game":"tusac","variant":"classic",
"agents":["rules:agents/tusac-classic.toml","greedy","greedy","greedy"]}}"#;

const STRENGTH: &str = "\
iters,deals,games,mean_diff,mean_diff_lo95,mean_diff_hi95,ms_per_decision
100,500,2000,0.2,-0.4,0.8,1.25
1000,500,2000,0.6,-0.5,1.7,10.5
3000,500,2000,1.1,-0.3,2.4,31.0
";

const DISTRIBUTIONS: &str = "\
game,variant,measure,group,per,value,count,total,share,share_lo95,share_hi95
tusac,classic,initial_trash,,hand,0,10,100,0.10,0.055,0.174
tusac,classic,initial_trash,,hand,1,60,100,0.60,0.502,0.691
tusac,classic,initial_trash,,hand,2,30,100,0.30,0.219,0.396
tusac,classic,win_value,greedy,deal,5,40,100,0.40,0.309,0.498
tusac,classic,win_value,greedy,deal,6,60,100,0.60,0.502,0.691
tusac,classic,win_value,rules:agents/tusac-classic.toml,deal,5,55,100,0.55,0.452,0.644
tusac,classic,win_value,rules:agents/tusac-classic.toml,deal,6,45,100,0.45,0.356,0.548
";

const EQUITY: &str = "\
rank,action,samples,win_rate,win_rate_lo95,win_rate_hi95,mean_payout,mean_payout_lo95,mean_payout_hi95,diff_vs_best,diff_lo95,diff_hi95
2,discard Tượng vàng,500,0.25,0.21,0.29,0.4,-0.3,1.1,-0.8,-1.4,-0.2
1,discard Xe đỏ,500,0.30,0.26,0.34,1.2,0.5,1.9,0,0,0
3,discard Chốt xanh,500,0.20,0.17,0.24,-0.9,-1.6,-0.2,-2.1,-2.8,-1.4
";

const TUNE: &str = "\
candidate,params,round,deals,mean_diff,mean_diff_lo95,mean_diff_hi95,status
c00,\"outs=1.0,sets=2.0\",1,200,0.5,-0.2,1.2,kept
c01,\"outs=1.5,sets=2.0\",1,200,-0.9,-1.6,-0.2,dropped
c02,\"outs=2.0,sets=1.0\",1,200,0.3,-0.4,1.0,kept
c00,\"outs=1.0,sets=2.0\",2,400,0.6,0.1,1.1,best
c02,\"outs=2.0,sets=1.0\",2,400,0.1,-0.4,0.6,kept
";

/// The text of an SVG, checked to be a whole SVG document.
fn svg(path: &Path) -> String {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{} was not written: {e}", path.display()));
    assert!(text.starts_with("<svg"), "{}: not an SVG", path.display());
    assert!(
        text.trim_end().ends_with("</svg>"),
        "{}: cut short",
        path.display()
    );
    assert_eq!(count(&text, "<text"), count(&text, "</text>"));
    text
}

fn count(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

/// Interval bars, bars, points and zero lines drawn.
fn marks(text: &str) -> (usize, usize, usize, usize) {
    (
        count(text, "stroke=\"#222222\""),
        count(text, "opacity=\"0.85\""),
        count(text, "<circle"),
        count(text, "stroke=\"#888888\""),
    )
}

/// The y coordinate of the `<text>` element holding `label`.
fn text_y(svg: &str, label: &str) -> i32 {
    let at = svg.find(&format!(">\n{label}\n<")).expect("label drawn");
    let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
    let y = tag.split(" y=\"").nth(1).unwrap();
    y[..y.find('"').unwrap()].parse().unwrap()
}

/// The files of a folder (names), sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_run_summary_shows_win_rates_and_the_paired_difference() {
    let s = Scratch::new("plot-summary");
    let csv = s.write("run/summary.csv", SUMMARY);
    s.write("run/meta.json", META);
    ok(&s.0, &["plot", &csv]);
    let text = svg(&s.path("run/summary.svg"));
    assert_eq!(
        marks(&text),
        (3, 2, 1, 1),
        "3 intervals, 2 bars, 1 point, zero"
    );
    assert!(text.contains("rules:tusac-classic − greedy"));
    assert!(text.contains(">\ngreedy\n<"));
    assert!(!text.contains("agents/tusac-classic.toml"), "long spec cut");
    assert!(text.contains("tiny-run") && text.contains("Tứ Sắc"));
    assert!(text.contains("points per game"), "the game's payout unit");
    assert!(text.contains("+0.74 [+0.53, +0.95]"));
}

/// The summary format that names its study in columns: game, variant, players, payout unit,
/// and each agent's seats and seat-games.
const SUMMARY_DESCRIBED: &str = "\
game,variant,players,payout_unit,kind,agent,versus,seats,seat_games,wins,draws,win_rate,win_rate_lo95,win_rate_hi95,mean_payout,mean_payout_lo95,mean_payout_hi95,sd_payout,mean_win_hand_value,penalties,deals,mean_diff,mean_diff_lo95,mean_diff_hi95
tienlen,south,4,half-cược,agent,rules:agents/tienlen-south.toml,,1,400,102,4,0.255,0.214,0.300,0.55,0.12,0.98,43.4,8.3,1,,,,
tienlen,south,4,half-cược,agent,greedy,,3,1200,293,12,0.2441,0.220,0.269,-0.18,-0.42,0.05,42.6,8.3,0,,,,
tienlen,south,4,half-cược,pair,rules:agents/tienlen-south.toml,greedy,,,,,,,,,,,,,,100,0.739,0.529,0.949
";

#[test]
fn a_summary_alone_names_its_game_and_unit() {
    // No meta.json beside it: the CSV's own columns give the title and the unit; the older
    // header (without them) still plots, its unit unknown.
    let s = Scratch::new("plot-described");
    let csv = s.write("copied/summary.csv", SUMMARY_DESCRIBED);
    ok(&s.0, &["plot", &csv]);
    let text = svg(&s.path("copied/summary.svg"));
    assert_eq!(
        marks(&text),
        (3, 2, 1, 1),
        "the same chart as the old header's"
    );
    assert!(text.contains("Tiến Lên (south)"), "title from the columns");
    assert!(text.contains("half-cược per game"), "unit from the columns");
    let old = s.write("old/summary.csv", SUMMARY);
    ok(&s.0, &["plot", &old]);
    let text = svg(&s.path("old/summary.svg"));
    assert_eq!(marks(&text), (3, 2, 1, 1));
    assert!(text.contains("payout units per game"), "no game known");
}

#[test]
fn strength_is_drawn_against_iterations() {
    let s = Scratch::new("plot-strength");
    // Saved by a spreadsheet: a byte-order mark before the header.
    let csv = s.write("ismcts-strength.csv", &format!("\u{feff}{STRENGTH}"));
    ok(&s.0, &["plot", &csv, "--game", "tusac"]);
    let text = svg(&s.path("ismcts-strength.svg"));
    let (intervals, _, points, zero) = marks(&text);
    assert_eq!((intervals, points, zero), (3, 3, 1));
    for tick in [
        "\n100\n",
        "\n1000\n",
        "\n3000\n",
        "10.5 ms",
        "log scale",
        "points",
    ] {
        assert!(text.contains(tick), "{tick:?} missing");
    }
}

#[test]
fn distributions_get_one_histogram_per_measure() {
    let s = Scratch::new("plot-dist");
    let csv = s.write("deals/distributions.csv", DISTRIBUTIONS);
    ok(&s.0, &["plot", &csv]);
    let trash = svg(&s.path("deals/distributions-initial_trash.svg"));
    assert_eq!(marks(&trash).0, 3);
    assert_eq!(marks(&trash).1, 3);
    assert!(trash.contains("n = 100 hands"));
    assert!(
        trash.contains(">\n60.0%\n<"),
        "one series: each share above its bar"
    );
    let wins = svg(&s.path("deals/distributions-win_value.svg"));
    assert_eq!(
        (marks(&wins).0, marks(&wins).1),
        (4, 4),
        "2 groups × 2 values"
    );
    assert!(wins.contains("greedy (n = 100)") && wins.contains("rules:tusac-classic (n = 100)"));
    assert_eq!(
        files(&s.path("deals")),
        [
            "distributions-initial_trash.svg",
            "distributions-win_value.svg",
            "distributions.csv"
        ]
    );
}

#[test]
fn equity_ranks_the_actions() {
    let s = Scratch::new("plot-equity");
    let csv = s.write("w1/equity.csv", EQUITY);
    ok(&s.0, &["plot", &csv, "--game", "tusac"]);
    let text = svg(&s.path("w1/equity.svg"));
    assert_eq!(
        marks(&text),
        (6, 3, 3, 1),
        "payout points and win-rate bars"
    );
    let rows = [
        "1. discard Xe đỏ",
        "2. discard Tượng vàng",
        "3. discard Chốt xanh",
    ];
    let ys: Vec<i32> = rows.iter().map(|r| text_y(&text, r)).collect();
    assert!(ys[0] < ys[1] && ys[1] < ys[2], "rank 1 on top: {ys:?}");
    assert!(text.contains("equity per action (w1)"));
}

#[test]
fn tuning_shows_each_candidate_by_round() {
    let s = Scratch::new("plot-tune");
    let csv = s.write("tune/report.csv", TUNE);
    ok(&s.0, &["plot", &csv]);
    let text = svg(&s.path("tune/report.svg"));
    let (intervals, _, points, zero) = marks(&text);
    assert_eq!((intervals, points, zero), (5, 5, 1));
    assert!(text.contains("round 1: c01 (outs=1.5,sets=2.0)"));
    assert!(text.contains("round 2: c00"));
    for status in ["kept", "dropped", "best"] {
        assert!(text.contains(&format!(">\n{status}\n<")), "legend {status}");
    }
    assert!(text.contains("payout units"), "no game known: generic unit");
}

#[test]
fn a_folder_plots_every_recognised_csv_into_output_with_a_title() {
    let s = Scratch::new("plot-folder");
    s.write("run/summary.csv", SUMMARY);
    s.write("run/meta.json", META);
    s.write("run/report.csv", TUNE);
    s.write("run/games.csv", "deal,seat,agent\n0,0,greedy\n");
    let run = s.path("run");
    let out = s.path("charts");
    let o = ok(
        &s.0,
        &[
            "plot",
            run.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "--title",
            "My study",
        ],
    );
    assert!(stderr(&o).contains("games.csv"), "skipped file named");
    assert_eq!(files(&out), ["report.svg", "summary.svg"]);
    assert!(svg(&out.join("summary.svg")).contains(">\nMy study\n<"));
    assert_eq!(files(&run).len(), 4, "nothing written beside the CSVs");
}

#[test]
fn errors_name_the_problem_and_write_nothing() {
    let s = Scratch::new("plot-errors");
    let missing = s.path("nope.csv");
    let err = fails(&s.0, &["plot", missing.to_str().unwrap()]);
    assert!(
        err.contains("nope.csv") && err.contains("no such file"),
        "{err}"
    );

    let odd = s.write("odd.csv", "a,b,c\n1,2,3\n");
    let err = fails(&s.0, &["plot", &odd]);
    assert!(
        err.contains("odd.csv") && err.contains("unrecognised header"),
        "{err}"
    );

    // A good CSV and a bad one in one folder: the error names file, line and column, and no
    // SVG (nor temporary file) is written, and an earlier chart is left as it was.
    s.write("run/summary.csv", SUMMARY);
    s.write("run/summary.svg", "earlier chart");
    let bad = TUNE.replace("0.3,-0.4,1.0", "0.3,-0.4,abc");
    s.write("run/report.csv", &bad);
    let err = fails(&s.0, &["plot", s.path("run").to_str().unwrap()]);
    assert!(err.contains("report.csv:4:7"), "file:line:column: {err}");
    assert!(err.contains("`abc` is not a number"), "{err}");
    assert_eq!(
        files(&s.path("run")),
        ["report.csv", "summary.csv", "summary.svg"]
    );
    let earlier = std::fs::read_to_string(s.path("run/summary.svg")).unwrap();
    assert_eq!(earlier, "earlier chart");

    let empty_field = SUMMARY.replace("0.255,0.214", "0.255,");
    let csv = s.write("e/summary.csv", &empty_field);
    let err = fails(&s.0, &["plot", &csv]);
    assert!(
        err.contains("summary.csv:2:8") && err.contains("empty"),
        "{err}"
    );
    assert_eq!(files(&s.path("e")), ["summary.csv"]);

    std::fs::create_dir_all(s.path("nothing")).unwrap();
    s.write("nothing/games.csv", "deal,seat\n0,0\n");
    let err = fails(&s.0, &["plot", s.path("nothing").to_str().unwrap()]);
    assert!(err.contains("nothing") && err.contains("no CSV that bailab plot draws"));
}

#[test]
fn two_charts_with_one_name_in_one_output_are_refused() {
    let s = Scratch::new("plot-clash");
    let a = s.write("a/summary.csv", SUMMARY);
    let b = s.write("b/summary.csv", SUMMARY);
    let out = s.path("out");
    let err = fails(&s.0, &["plot", &a, &b, "--output", out.to_str().unwrap()]);
    assert!(err.contains("would both be drawn to"), "{err}");
    assert!(!out.exists());
}

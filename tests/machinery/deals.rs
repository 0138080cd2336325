//! `bailab deals`: the files of a small run per game, thread-count independence, the errors, the
//! `--games` mode, and measured shares against exact combinatorial probabilities.

use crate::common;

use bailab::game::RuleMap;
use bailab::games::chan::Chan;
use bailab::games::kind::{GameCore, GameKind};
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::sim::files::schema::{DISTRIBUTIONS_HEADER, MEANS_HEADER};
use bailab::study::deals::{count_chunk, DealCounts};
use common::{fails, ok, Scratch};
use std::collections::BTreeMap;

use crate::counting_alloc;
use counting_alloc::allocations;

/// Heap allocations of counting the deals `range` on this thread.
fn chunk_allocations<G: GameKind>(range: std::ops::Range<u64>) -> u64 {
    let game = G::build(G::INFO.variants[0], 4, &RuleMap::new()).unwrap();
    let before = allocations();
    let c = count_chunk(&game, 1, range);
    let after = allocations();
    drop(c);
    after - before
}

fn no_allocation_per_deal<G: GameKind>() {
    chunk_allocations::<G>(0..1); // the thread's first call may set up per-thread scratch
    let one = chunk_allocations::<G>(0..1);
    let many = chunk_allocations::<G>(0..3000);
    assert_eq!(
        one,
        many,
        "{}: allocations grow with the deals",
        G::INFO.name
    );
}

#[test]
fn counting_allocates_per_chunk_never_per_deal() {
    no_allocation_per_deal::<TuSac>();
    no_allocation_per_deal::<TienLen>();
    no_allocation_per_deal::<Chan>();
}

fn read_csv(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// Checks the two CSV files of `dir`: headers, the game columns, and that the counts of every
/// (measure, group) sum to its total, which means.csv repeats.
fn check_outputs(dir: &std::path::Path, game: &str, variant: &str) -> usize {
    let (h, rows) = read_csv(&dir.join("distributions.csv"));
    assert_eq!(h, DISTRIBUTIONS_HEADER);
    let (mh, means) = read_csv(&dir.join("means.csv"));
    assert_eq!(mh, MEANS_HEADER);
    let mut sums: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    for r in &rows {
        assert_eq!((r[0].as_str(), r[1].as_str()), (game, variant), "{r:?}");
        assert!(r[4] == "hand" || r[4] == "deal", "{r:?}");
        r[5].parse::<i64>().unwrap();
        let share: f64 = r[8].parse().unwrap();
        let (lo, hi): (f64, f64) = (r[9].parse().unwrap(), r[10].parse().unwrap());
        assert!(lo <= share && share <= hi, "{r:?}");
        let e = sums.entry((r[2].clone(), r[3].clone())).or_default();
        e.0 += r[6].parse::<u64>().unwrap();
        e.1 = r[7].parse().unwrap();
    }
    for ((m, g), (sum, total)) in &sums {
        assert_eq!(sum, total, "{m} {g}: counts sum to the total");
    }
    // a measure never observed (e.g. no natural win in a small run) has no distribution rows
    // and a means row with total 0
    assert!(means.len() >= sums.len());
    for r in &means {
        let sum = sums.get(&(r[2].clone(), r[3].clone())).map_or(0, |s| s.0);
        assert_eq!(r[5].parse::<u64>().unwrap(), sum, "{r:?}");
    }
    means.len()
}

#[test]
fn a_small_run_per_game_writes_tidy_files() {
    let s = Scratch::new("deals-files");
    for (game, variant) in [
        ("tusac", "classic"),
        ("tienlen", "south"),
        ("chan", "standard"),
    ] {
        let out = format!("out-{game}");
        let o = ok(
            &s.0,
            &[
                "deals", "--game", game, "--deals", "3000", "--seed", "7", "--output", &out,
            ],
        );
        let text = common::stdout(&o);
        assert!(text.contains("3,000 deals"), "{text}");
        let dir = s.path(&out);
        let measures = check_outputs(&dir, game, variant);
        assert!(measures >= 8, "{game}: {measures} measures");
        let json = |f: &str| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join(f)).unwrap()).unwrap()
        };
        let meta = json("meta.json");
        assert_eq!(meta["deals"], 3000);
        assert_eq!(meta["seed"], 7);
        assert!(meta["command"].as_str().unwrap().contains("--deals 3000"));
        assert_eq!(meta["measures"].as_array().unwrap().len(), measures);
        assert!(json("run.json")["deals_per_s"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let s = Scratch::new("deals-threads");
    for game in ["tusac", "tienlen", "chan"] {
        let files: Vec<(String, String)> = ["1", "2"]
            .iter()
            .map(|t| {
                let out = format!("{game}-{t}");
                // more than one chunk, the last one partial
                let args = [
                    "deals",
                    "--game",
                    game,
                    "--deals",
                    "20000",
                    "--threads",
                    t,
                    "-q",
                    "--output",
                    &out,
                ];
                ok(&s.0, &args);
                let read = |f: &str| std::fs::read_to_string(s.path(&out).join(f)).unwrap();
                (read("distributions.csv"), read("means.csv"))
            })
            .collect();
        assert_eq!(files[0], files[1], "{game}");
    }
}

#[test]
fn bad_input_is_a_clear_error_and_leaves_results_alone() {
    let s = Scratch::new("deals-errors");
    ok(
        &s.0,
        &[
            "deals", "--game", "tusac", "--deals", "100", "-q", "--output", "out",
        ],
    );
    let before = std::fs::read_to_string(s.path("out/distributions.csv")).unwrap();
    // --force: a failed count must leave the earlier files even when allowed to replace them
    let out = ["--output", "out", "--force"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--game", "poker"], "poker"),
        (vec!["--game", "tusac", "--players", "5"], "'players' = 5"),
        (
            vec!["--game", "tusac", "--variant", "nope"],
            "unknown variant 'nope'",
        ),
        (vec!["--game", "tienlen", "--deals", "0"], "--deals 0"),
        (vec!["--game", "tienlen", "--deals", "many"], "many"),
        (vec!["--game", "chan", "--players", "9"], "9 players"),
        (vec!["--game", "chan", "--threads", "0"], "--threads"),
        (vec!["--games", "missing-run"], "missing-run: no such file"),
        (vec!["--games", "nofile.csv"], "nofile.csv: no such file"),
    ];
    for (args, want) in cases {
        let all: Vec<&str> = ["deals"].iter().chain(&args).chain(&out).copied().collect();
        let err = fails(&s.0, &all);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let header = "deal,rotation,agent_0,agent_1,winner,winner_agent,reason,payout_0,payout_1,\
                  turns,winning_hand_value,penalized\n";
    let bad = [
        (
            "bad-number.csv",
            format!("{header}0,0,a,b,0,a,win,5,-5,3,7,\n1,0,a,b,1,b,win,-4,x4,3,2,\n"),
            "line 3, column 'payout_1': 'x4' is not an integer",
        ),
        (
            "bad-value.csv",
            format!("{header}0,0,a,b,0,a,win,5,-5,3,,\n"),
            "line 2, column 'winning_hand_value': '' is not an integer",
        ),
        (
            "no-column.csv",
            "deal,rotation,agent_0,agent_1,winner,winner_agent\n0,0,a,b,0,a\n".to_string(),
            "line 1: the header has no column 'payout_0'",
        ),
        (
            "short-row.csv",
            format!("{header}0,0,a,b,0,a,win,5\n"),
            "line 2",
        ),
        ("empty.csv", header.to_string(), "no games"),
    ];
    for (name, text, want) in bad {
        let path = s.write(name, &text);
        // --force: the earlier files may be replaced, but only by a finished count
        let err = fails(
            &s.0,
            &["deals", "--games", &path, "--output", "out", "--force"],
        );
        assert!(err.contains(want), "{name}: {err}");
        assert!(err.contains(name), "{name}: names the file: {err}");
    }
    let after = std::fs::read_to_string(s.path("out/distributions.csv")).unwrap();
    assert_eq!(before, after, "a failed command leaves the earlier result");
}

#[test]
fn a_runs_games_csv_gives_hand_values_and_payouts_per_agent() {
    let s = Scratch::new("deals-games");
    let text = "deal,rotation,agent_0,agent_1,winner,winner_agent,reason,payout_0,payout_1,\
                turns,winning_hand_value,penalized\n\
                0,0,greedy,random,0,greedy,win,12,-12,3,7,\n\
                0,1,random,greedy,1,greedy,win,-10,10,3,5,\n\
                1,0,greedy,random,,,draw,0,0,9,0,\n\
                1,1,random,greedy,0,random,win,6,-6,4,2,\n";
    s.write("run/games.csv", text);
    s.write(
        "run/meta.json",
        r#"{"experiment": {"game": "tusac", "variant": "classic"}}"#,
    );
    ok(&s.0, &["deals", "--games", "run", "-q", "--output", "out"]);
    let dir = s.path("out");
    check_outputs(&dir, "tusac", "classic");
    let (_, rows) = read_csv(&dir.join("distributions.csv"));
    let count = |m: &str, g: &str, v: &str| {
        rows.iter()
            .find(|r| r[2] == m && r[3] == g && r[5] == v)
            .map(|r| (r[6].clone(), r[7].clone()))
    };
    // greedy won twice (values 7 and 5), random once (2); the draw has no winning value
    assert_eq!(
        count("winning_hand_value", "greedy", "7"),
        Some(("1".into(), "2".into()))
    );
    assert_eq!(
        count("winning_hand_value", "greedy", "6"),
        Some(("0".into(), "2".into()))
    );
    assert_eq!(
        count("winning_hand_value", "random", "2"),
        Some(("1".into(), "1".into()))
    );
    // payouts per seat of each agent: greedy 12, 10, 0, -6; random -12, -10, 0, 6
    assert_eq!(
        count("payout", "greedy", "10"),
        Some(("1".into(), "4".into()))
    );
    assert_eq!(
        count("payout", "random", "0"),
        Some(("1".into(), "4".into()))
    );
    let (_, means) = read_csv(&dir.join("means.csv"));
    let greedy = means
        .iter()
        .find(|r| r[2] == "payout" && r[3] == "greedy")
        .unwrap();
    assert_eq!(greedy[6].parse::<f64>().unwrap(), 4.0);
    assert_eq!(greedy[4], "hand");
}

// ----- exact probabilities -----

fn choose(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// P(k of the `special` cards among `drawn` from `deck`).
fn hypergeometric(deck: u64, special: u64, drawn: u64, k: u64) -> f64 {
    choose(special, k) * choose(deck - special, drawn - k) / choose(deck, drawn)
}

/// The Wilson interval at 99.9% (z = 3.2905).
fn wilson999(x: u64, n: u64) -> (f64, f64) {
    let z = 3.290_527;
    let (n, p) = (n as f64, x as f64 / n as f64);
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}

fn counts_of<G: GameKind>(deals: u64, seed: u64) -> DealCounts {
    let game = G::build(G::INFO.variants[0], 4, &RuleMap::new()).unwrap();
    count_chunk(&game, seed, 0..deals)
}

/// The counts of a measure by value, and their total.
fn measure<G: GameKind>(c: &DealCounts, name: &str) -> (Vec<u64>, u64) {
    let i = G::DEAL_MEASURES
        .iter()
        .position(|m| m.name == name)
        .unwrap_or_else(|| panic!("no measure {name}"));
    let v = c.counts[i].clone();
    let total = v.iter().sum();
    (v, total)
}

/// Checks every value of a measured distribution against its exact probability `p(k)`; values
/// expected fewer than 5 times are pooled into one tail `≥ k`, whose rare hits say little alone.
fn assert_distribution(what: &str, counts: &[u64], n: u64, p: impl Fn(u64) -> f64) {
    let mut k = 0;
    while k < counts.len() {
        if n as f64 * (1.0 - (0..k).map(|j| p(j as u64)).sum::<f64>()) < 10.0 {
            break;
        }
        if n as f64 * p(k as u64) < 5.0 {
            break;
        }
        assert_within(&format!("{what} = {k}"), counts[k], n, p(k as u64));
        k += 1;
    }
    let tail: u64 = counts[k..].iter().sum();
    let p_tail = (k..counts.len()).map(|j| p(j as u64)).sum::<f64>();
    assert_within(&format!("{what} ≥ {k}"), tail, n, p_tail);
}

fn assert_within(what: &str, x: u64, n: u64, p: f64) {
    let (lo, hi) = wilson999(x, n);
    assert!(
        lo <= p && p <= hi,
        "{what}: measured {x}/{n} = {:.6}, 99.9% interval [{lo:.6}, {hi:.6}] misses the exact {p:.6}",
        x as f64 / n as f64
    );
}

#[test]
fn tien_len_twos_and_instant_wins_match_combinatorics() {
    // 50,000 deals = 200,000 hands of 13 from 52
    let c = counts_of::<TienLen>(50_000, 13);
    let (twos, n) = measure::<TienLen>(&c, "twos");
    assert_eq!(n, 200_000);
    assert_distribution("twos", &twos, n, |k| hypergeometric(52, 4, 13, k));
    let four = choose(48, 9) / choose(52, 13);
    assert!((four - hypergeometric(52, 4, 13, 4)).abs() < 1e-15);
    for m in ["toi_trang_TuQuyHeo", "toi_trang_TuQuy3"] {
        let (v, n) = measure::<TienLen>(&c, m);
        assert_within(m, v[1], n, four);
    }
    // 12 or 13 cards of one colour: 2 · (C(26,12)·26 + C(26,13)) / C(52,13)
    let one_colour = 2.0 * (choose(26, 12) * 26.0 + choose(26, 13)) / choose(52, 13);
    let (v, n) = measure::<TienLen>(&c, "toi_trang_DongMau");
    assert_within("DongMau", v[1], n, one_colour);
    // every rank 3..A: one card of each of the 12 ranks and a 2 (4^12 · 4), or a second card of
    // one of them (12 · C(4,2) · 4^11): 88 · 4^11 hands
    let dragon = 88.0 * 4f64.powi(11) / choose(52, 13);
    let (v, n) = measure::<TienLen>(&c, "toi_trang_SanhRong");
    assert_within("SanhRong", v[1], n, dragon);
    // tứ quý per hand by inclusion–exclusion over the ranks held four times: with
    // S_j = C(13, j) · C(52 − 4j, 13 − 4j), P(exactly k) = Σ_j (−1)^(j−k) C(j, k) S_j / C(52, 13)
    let s_j = |j: u64| choose(13, j) * choose(52 - 4 * j, 13 - 4 * j);
    let quads = |k: u64| {
        (k..=3)
            .map(|j| {
                let sign = if (j - k).is_multiple_of(2) { 1.0 } else { -1.0 };
                sign * choose(j, k) * s_j(j)
            })
            .sum::<f64>()
            / choose(52, 13)
    };
    let (v, n) = measure::<TienLen>(&c, "tu_quy");
    assert_distribution("tu_quy", &v, n, quads);
    let (v, n) = measure::<TienLen>(&c, "toi_trang_HaiTuQuy");
    assert_within("HaiTuQuy", v[1], n, quads(2) + quads(3));
    // the seed (tien-len.vi.txt, §5.2): in an initial game two seats can never both win at once
    // (both conditions need 3s), so hands that would equal deals that would
    let (hands, _) = measure::<TienLen>(&c, "toi_trang_initial");
    let (deals, _) = measure::<TienLen>(&c, "toi_trang_deal_initial");
    assert!(hands[1] > 0);
    assert_eq!(hands[1], deals[1]);
}

#[test]
fn tu_sac_copies_per_hand_match_combinatorics() {
    // 50,000 deals = 200,000 hands: the first player's of 21 cards, three of 20, from 112
    let c = counts_of::<TuSac>(50_000, 13);
    let mix = |special: u64, k: u64| {
        (hypergeometric(112, special, 21, k) + 3.0 * hypergeometric(112, special, 20, k)) / 4.0
    };
    for (m, special) in [("copies_rK", 4), ("kings", 16)] {
        let (v, n) = measure::<TuSac>(&c, m);
        assert_eq!(n, 200_000);
        assert_distribution(m, &v, n, |k| mix(special, k));
    }
    // a Quan is a type dealt four times: P(a hand holds all 4 copies of one given type) is
    // mix(4, 4); with 28 types the expected Quans per hand is 28 · mix(4, 4)
    let (v, n) = measure::<TuSac>(&c, "quans");
    let mean = v
        .iter()
        .enumerate()
        .map(|(k, &x)| k as f64 * x as f64)
        .sum::<f64>()
        / n as f64;
    let exact = 28.0 * mix(4, 4);
    assert!(
        (mean - exact).abs() < 4.0 * (exact / n as f64).sqrt(),
        "quans per hand {mean} vs {exact}"
    );
}

#[test]
fn chan_measures_add_up() {
    // every card of a hand is in a Chắn, a Cạ, or lone: 2·chan + 2·ca + lone + badau's lone
    // card = cards dealt (19, or 20 for the first player)
    let game = Chan::build("standard", 4, &RuleMap::new()).unwrap();
    let c = count_chunk(&game, 3, 0..2000);
    let mean = |name: &str| {
        let (v, n) = measure::<Chan>(&c, name);
        v.iter()
            .enumerate()
            .map(|(k, &x)| k as f64 * x as f64)
            .sum::<f64>()
            / n as f64
    };
    let cards = 2.0 * mean("chan") + 2.0 * mean("ca") + mean("lone") + mean("badau");
    assert!((cards - 19.25).abs() < 1e-9, "{cards}");
}

#[test]
fn deal_i_is_the_deal_of_play_index_i() {
    // the first deals under a seed where some seat wins at once (an initial game, as deal i of
    // a run and `play` are): play shows the tới trắng there and not in the deal before
    let game = TienLen::build("south", 4, &RuleMap::new()).unwrap();
    let s = Scratch::new("deals-play");
    let wins = |i: u64| {
        let c = count_chunk(&game, 2026, i..i + 1);
        measure::<TienLen>(&c, "toi_trang_deal_initial").0[1] == 1
    };
    let first = (0..1000)
        .find(|&i| wins(i))
        .expect("a tới trắng in 1000 deals");
    let log = |i: u64| {
        let index = i.to_string();
        let args = [
            "play", "--game", "tienlen", "--seed", "2026", "--index", &index,
        ];
        common::stdout(&ok(&s.0, &args))
    };
    assert!(
        log(first).contains("wins at once: tới trắng"),
        "{}",
        log(first)
    );
    if first > 0 {
        assert!(!log(first - 1).contains("tới trắng"));
    }
}

//! A whole `bailab run` allocates nothing per deal: the real binary, run as a child process at
//! N and 10·N deals, makes about as many heap allocations either way, in every game, with
//! greedy and random seats and with ISMCTS seats.
//!
//! Counted from outside the library: the binary's `#[global_allocator]` (src/main.rs) counts
//! every allocation of the process — startup, parsing, the thread pool, the files, the report —
//! and prints `allocations: N` at exit when `BAILAB_COUNT_ALLOCATIONS` is set. This was chosen
//! over an `LD_PRELOAD` shim built with `cc` because it needs no C compiler, no dynamic loader
//! tricks and works wherever the binary runs, while still counting the whole process the way a
//! user runs it (the library's own `tests/alloc.rs` counts only the game loop, in-process).
//!
//! The allowance is a constant, not a per-deal figure: a longer run has a few more chunks (each
//! a rayon batch), nothing per deal. The runs write no checkpoint while they play (a hidden
//! `--checkpoint-secs` longer than any run): how many checkpoints a run writes depends on how
//! long it takes, and on a loaded machine a luck-corrected run's extra checkpoint alone exceeded
//! the allowance. Before the runner reused its buffers and built its agents once per worker,
//! 1,000 → 10,000 greedy/random deals grew the count by about 9,000–10,000 (one `Vec` per deal)
//! and an ISMCTS seat by about 20 per deal.

use crate::common::*;

/// Extra allocations a run of 10·N deals may make over one of N (its chunks).
const SLACK: u64 = 300;

/// The allocations of `bailab run` on an experiment of `deals` deals, its file ending in the
/// lines `extra`.
fn allocations(s: &Scratch, (game, extra): (&str, &str), agents: &[&str], deals: u64) -> u64 {
    let agents: Vec<String> = agents.iter().map(|a| format!("\"{a}\"")).collect();
    let (game, variant) = game.split_once('/').unwrap_or((game, ""));
    let variant = if variant.is_empty() {
        String::new()
    } else {
        format!("variant = \"{variant}\"\n")
    };
    let name = format!("{game}-{deals}");
    let exp = s.write(
        &format!("{name}.toml"),
        &format!(
            "name = \"{name}\"\ngame = \"{game}\"\n{variant}agents = [{}]\ndeals = {deals}\n\
             seed = 1\nrotate = true\noutput = \"out-{name}\"\n{extra}",
            agents.join(", ")
        ),
    );
    // no checkpoint while the deals run: a checkpoint's writing allocates, and how many a run
    // writes depends on how long it takes, not on its deals
    let args = ["run", &exp, "--quiet", "--force", "--threads", "2"];
    let out = command(
        &s.0,
        &[&args[..], &["--checkpoint-secs", "1000000000"]].concat(),
    )
    .env("BAILAB_COUNT_ALLOCATIONS", "1")
    .output()
    .expect("bailab runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bailab run failed: {stderr}");
    stderr
        .lines()
        .find_map(|l| l.strip_prefix("allocations: "))
        .unwrap_or_else(|| panic!("no allocation count in: {stderr}"))
        .trim()
        .parse()
        .expect("a count")
}

/// [`flat`] with network files of random weights written first into the scratch folder, one per
/// `(name, bytes)`.
fn flat_with_nets(test: &str, game: &str, agents: &[&str], deals: u64, nets: &[(&str, Vec<u8>)]) {
    let s = Scratch::new(test);
    for (name, bytes) in nets {
        std::fs::write(s.path(name), bytes).unwrap();
    }
    flat_in(&s, (game, ""), agents, deals);
}

/// Asserts that 10·`deals` deals of the experiment (its file ending in `extra`) allocate at most
/// [`SLACK`] more than `deals` deals, in the scratch folder `s`.
fn flat_in(s: &Scratch, (game, extra): (&str, &str), agents: &[&str], deals: u64) {
    let small = allocations(s, (game, extra), agents, deals);
    let large = allocations(s, (game, extra), agents, 10 * deals);
    eprintln!(
        "{game} {agents:?}: {deals} deals {small}, {} deals {large}",
        10 * deals
    );
    assert!(
        large <= small + SLACK,
        "{game} {agents:?}: {small} allocations for {deals} deals but {large} for {}: the run \
         allocates per deal",
        10 * deals
    );
}

/// Asserts that 10·`deals` deals allocate at most [`SLACK`] more than `deals` deals.
fn flat(test: &str, game: &str, agents: &[&str], deals: u64) {
    flat_with_nets(test, game, agents, deals, &[]);
}

const GREEDY_RANDOM: [&str; 4] = ["greedy", "random", "random", "random"];

#[test]
fn tusac_run_allocates_nothing_per_deal() {
    flat("alloc-run-tusac", "tusac/classic", &GREEDY_RANDOM, 1000);
}

#[test]
fn chan_run_allocates_nothing_per_deal() {
    flat("alloc-run-chan", "chan", &GREEDY_RANDOM, 1000);
}

#[test]
fn tienlen_run_allocates_nothing_per_deal() {
    flat("alloc-run-tienlen", "tienlen", &GREEDY_RANDOM, 1000);
}

#[test]
fn ismcts_run_allocates_nothing_per_deal() {
    // the default one-level tree and the unlimited one
    let agents = [
        "ismcts:iters=10",
        "ismcts:iters=10,depth=off",
        "greedy",
        "greedy",
    ];
    flat("alloc-run-ismcts", "tusac/classic", &agents, 10);
}

#[test]
fn net_runs_allocate_nothing_per_deal() {
    use crate::common::nets::random_net_file;
    use bailab::games::{chan::Chan, tienlen::TienLen, tusac::TuSac};
    let agents = ["net:n.safetensors", "greedy", "greedy", "greedy"];
    let tienlen = [("n.safetensors", random_net_file::<TienLen>("south", 4, 1))];
    flat_with_nets("alloc-run-net-tienlen", "tienlen", &agents, 200, &tienlen);
    let chan = [("n.safetensors", random_net_file::<Chan>("standard", 4, 1))];
    flat_with_nets("alloc-run-net-chan", "chan", &agents, 200, &chan);
    let tusac = [("n.safetensors", random_net_file::<TuSac>("classic", 4, 1))];
    flat_with_nets("alloc-run-net-tusac", "tusac/classic", &agents, 200, &tusac);
    // the network's move checked by a one-step lookahead
    let searched = ["net:n.safetensors,search=12", "greedy", "greedy", "greedy"];
    flat_with_nets(
        "alloc-run-net-search",
        "tusac/classic",
        &searched,
        20,
        &tusac,
    );
}

#[test]
fn a_luck_corrected_run_allocates_nothing_per_deal() {
    // The corrector and its playouts run beside every game of every worker.
    let luck = "estimator = \"luck-corrected\"\n[value]\nplayouts = 2\n";
    let s = Scratch::new("alloc-luck");
    flat_in(
        &s,
        ("tusac", luck),
        &["greedy", "first", "greedy", "first"],
        100,
    );
    flat_in(
        &s,
        ("chan", luck),
        &["greedy", "random", "random", "random"],
        100,
    );
}

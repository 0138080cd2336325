//! The search itself, on tiny games whose best move is known, including one where a search that
//! peeks at hidden information (a cheating determinization) chooses differently from ISMCTS.

use bailab::agent::Agent;
use bailab::game::{Game, GameState, Outcome, OwnedView, Seat, SeatView, MAX_SEATS};
use bailab::generic_agents::ismcts::{FinalMove, Ismcts, IsmctsParams, LeafValue, Root};
use bailab::generic_agents::{FirstAgent, RandomAgent};
use bailab::rng::{stream_rng, GameRng};
use rand::Rng;
use std::fmt;

/// The toy: a hidden bit `H` that seat 0 cannot see. Seat 0 either takes a safe `Stop` (+2) or
/// `Gamble`s and then `Guess`es `H`: +10 if right, −10 if wrong. Seat 1 only pays.
/// Not knowing `H`, the gamble is worth 0 on average, so `Stop` is right; knowing `H` (cheating),
/// the gamble is always worth +10.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ToyAction {
    Stop,
    Gamble,
    Guess(bool),
}

impl fmt::Display for ToyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct ToyState {
    hidden: bool,
    gambled: bool,
    payout: Option<i64>,
    /// When true, determinization leaks the hidden bit (the "cheating" search).
    cheat: bool,
    /// When true, seat 0 is shown the hidden bit (a perfect-information variant).
    seen: bool,
}

struct ToyView<'a> {
    state: &'a ToyState,
    seat: Seat,
}

impl SeatView for ToyView<'_> {
    type State = ToyState;
    fn seat(&self) -> Seat {
        self.seat
    }
    fn owned(&self) -> OwnedView<ToyState> {
        OwnedView::new(*self.state, self.seat)
    }
    fn determinize(&self, rng: &mut GameRng) -> ToyState {
        let mut s = *self.state;
        if !(s.cheat || s.seen) {
            s.hidden = rng.random();
        }
        s
    }
}

impl GameState for ToyState {
    type Action = ToyAction;
    type Actions = arrayvec::ArrayVec<ToyAction, 2>;
    type Event = ToyAction;
    type View<'a> = ToyView<'a>;

    fn to_move(&self) -> Option<Seat> {
        self.payout.is_none().then_some(0)
    }
    fn legal_actions(&self, out: &mut Self::Actions) {
        out.clear();
        if self.payout.is_some() {
            return;
        }
        if self.gambled {
            out.extend([ToyAction::Guess(false), ToyAction::Guess(true)]);
        } else {
            out.extend([ToyAction::Stop, ToyAction::Gamble]);
        }
    }
    fn apply(&mut self, a: ToyAction) {
        match a {
            ToyAction::Stop => self.payout = Some(2),
            ToyAction::Gamble => self.gambled = true,
            ToyAction::Guess(g) => self.payout = Some(if g == self.hidden { 10 } else { -10 }),
        }
    }
    fn last_events(&self) -> &[ToyAction] {
        &[]
    }
    fn outcome(&self) -> Option<Outcome> {
        let p = self.payout?;
        let mut payouts = [0; MAX_SEATS];
        payouts[0] = p;
        payouts[1] = -p;
        Some(Outcome {
            seats: 2,
            winner: Some(0),
            reason: "toy",
            payouts,
            hand_value: 0,
            turns: 1,
            penalized: None,
            places: [0; MAX_SEATS],
        })
    }
    fn payout_scale(&self) -> f64 {
        10.0
    }
    fn seats(&self) -> usize {
        2
    }
    fn view(&self, seat: Seat) -> ToyView<'_> {
        ToyView { state: self, seat }
    }
}

struct Toy {
    cheat: bool,
    seen: bool,
}

impl Game for Toy {
    type State = ToyState;
    fn name(&self) -> &'static str {
        "toy"
    }
    fn variant(&self) -> &'static str {
        "toy"
    }
    fn seats(&self) -> usize {
        2
    }
    fn deal(&self, rng: &mut GameRng) -> ToyState {
        ToyState {
            hidden: rng.random(),
            gambled: false,
            payout: None,
            cheat: self.cheat,
            seen: self.seen,
        }
    }
}

/// The toy game dealt from `seed`: the hidden bit leaked to determinizations with `cheat`, in
/// the view with `seen`.
fn dealt(cheat: bool, seen: bool, seed: u64) -> ToyState {
    Toy { cheat, seen }.deal(&mut stream_rng(seed, 0, 0))
}

fn search(state: &ToyState, iters: u32, seed: u64) -> (ToyAction, Vec<u32>) {
    let params = IsmctsParams {
        iterations: iters,
        ..IsmctsParams::default()
    };
    let mut agent: Ismcts<ToyState> = Ismcts::new(params, Box::new(RandomAgent));
    let mut actions = <ToyState as GameState>::Actions::default();
    state.legal_actions(&mut actions);
    let k = agent.search(&state.view(0), &actions, &mut stream_rng(seed, 0, 1));
    (actions[k], agent.root_visits(&actions))
}

#[test]
fn ismcts_does_not_gamble_on_what_it_cannot_see() {
    for seed in 0..20 {
        let s = dealt(false, false, seed);
        let (a, visits) = search(&s, 2000, seed);
        assert_eq!(a, ToyAction::Stop, "seed {seed}: visits {visits:?}");
    }
}

#[test]
fn a_cheating_determinization_gambles() {
    // The same search fed determinizations that leak the hidden bit finds the guess node always
    // right and prefers the gamble: strategy fusion, which ISMCTS's shared tree avoids.
    for seed in 0..20 {
        let s = dealt(true, false, seed);
        let (a, _) = search(&s, 2000, seed);
        assert_eq!(a, ToyAction::Gamble, "seed {seed}");
    }
}

#[test]
fn with_the_bit_in_view_it_gambles_and_guesses_right() {
    for seed in 0..20 {
        let mut s = dealt(false, true, seed);
        let (a, _) = search(&s, 2000, seed);
        assert_eq!(a, ToyAction::Gamble, "seed {seed}");
        s.apply(a);
        let (guess, _) = search(&s, 500, seed);
        assert_eq!(guess, ToyAction::Guess(s.hidden), "seed {seed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_search_and_one_action_is_not_searched() {
    let s = dealt(false, false, 1);
    assert_eq!(search(&s, 300, 9), search(&s, 300, 9));
    let params = IsmctsParams {
        iterations: 100,
        ..IsmctsParams::default()
    };
    let mut agent: Ismcts<ToyState> = Ismcts::new(params, Box::new(FirstAgent));
    let one = [ToyAction::Stop];
    assert_eq!(agent.act(&s.view(0), &one, &mut stream_rng(1, 1, 1)), 0);
    assert_eq!(
        agent.last_iterations, 0,
        "a single legal action skips the search"
    );
    agent.search(
        &s.view(0),
        &[ToyAction::Stop, ToyAction::Gamble],
        &mut stream_rng(1, 1, 1),
    );
    assert_eq!(agent.last_iterations, 100);
}

#[test]
fn visits_add_up_to_the_iterations() {
    let s = dealt(false, false, 2);
    let (_, visits) = search(&s, 1000, 3);
    assert_eq!(visits.iter().sum::<u32>(), 1000);
    assert!(visits[0] > visits[1], "Stop is visited more: {visits:?}");
}

/// The last legal action: a poor rollout policy for the hidden toy (it gambles).
struct LastAgent;

impl Agent<ToyState> for LastAgent {
    fn act(&mut self, _: &ToyView<'_>, legal: &[ToyAction], _: &mut GameRng) -> usize {
        legal.len() - 1
    }
}

fn sweep(state: &ToyState, deviate: Option<f64>, policy: Box<dyn Agent<ToyState>>) -> ToyAction {
    let params = IsmctsParams {
        iterations: 1000,
        root: Root::Sweep,
        deviate,
        final_move: FinalMove::Mean,
        ..IsmctsParams::default()
    };
    let mut agent: Ismcts<ToyState> = Ismcts::new(params, policy);
    let mut actions = <ToyState as GameState>::Actions::default();
    state.legal_actions(&mut actions);
    let k = agent.search(&state.view(0), &actions, &mut stream_rng(4, 0, 1));
    let visits = agent.root_visits(&actions);
    assert_eq!(
        visits,
        vec![500, 500],
        "a sweep visits every root action in turn"
    );
    actions[k]
}

#[test]
fn a_sweep_compares_root_actions_on_the_same_determinizations() {
    let hidden = dealt(false, false, 5);
    assert_eq!(sweep(&hidden, None, Box::new(RandomAgent)), ToyAction::Stop);
    let seen = dealt(false, true, 5);
    assert_eq!(sweep(&seen, None, Box::new(RandomAgent)), ToyAction::Gamble);
}

#[test]
fn deviate_leaves_the_rollout_policy_only_for_a_clear_gain() {
    // the policy's Stop is right when the bit is hidden: kept
    let hidden = dealt(false, false, 6);
    assert_eq!(
        sweep(&hidden, Some(2.5), Box::new(FirstAgent)),
        ToyAction::Stop
    );
    // a policy that gambles blind loses 2 a game on average against Stop: the search leaves it
    assert_eq!(
        sweep(&hidden, Some(2.5), Box::new(LastAgent)),
        ToyAction::Stop
    );
    // with the bit in view the gamble wins 10: it leaves Stop for it
    let seen = dealt(false, true, 6);
    assert_eq!(
        sweep(&seen, Some(2.5), Box::new(FirstAgent)),
        ToyAction::Gamble
    );
    // a bar far above the evidence keeps even a poor policy's move
    assert_eq!(
        sweep(&hidden, Some(99.0), Box::new(LastAgent)),
        ToyAction::Gamble
    );
}

/// The paired-root search of `params` on `state` from seat 0, with a random rollout policy.
fn paired_search(state: &ToyState, params: IsmctsParams) -> ToyAction {
    let mut agent: Ismcts<ToyState> = Ismcts::new(params, Box::new(RandomAgent));
    let mut actions = <ToyState as GameState>::Actions::default();
    state.legal_actions(&mut actions);
    actions[agent.search(&state.view(0), &actions, &mut stream_rng(7, 0, 1))]
}

#[test]
fn depth_one_leaves_the_later_guess_to_the_rollout_policy() {
    // With the bit in view, the gamble pays only if the later guess is right. A tree of any
    // depth plans that guess and gambles; at depth 1 the random rollout policy guesses, which
    // loses on average, so the search stops.
    let seen = dealt(false, true, 8);
    for root in [Root::Sweep, Root::Halving] {
        let params = |depth| IsmctsParams {
            iterations: 1000,
            root,
            deviate: Some(2.5),
            depth,
            ..IsmctsParams::default()
        };
        // the rollout baseline is random here: compare with Stop's payout of 0 either way
        assert_eq!(
            paired_search(&seen, params(None)),
            ToyAction::Gamble,
            "{root:?}"
        );
        assert_eq!(
            paired_search(&seen, params(Some(1))),
            ToyAction::Stop,
            "{root:?}"
        );
    }
}

/// A judge of the guess the toy leaves to seat 0 after a gamble: `value` for it, and the count
/// of the positions it was asked about.
struct GuessJudge {
    value: f64,
    asked: std::sync::Arc<std::sync::atomic::AtomicU32>,
}

impl LeafValue<ToyState> for GuessJudge {
    fn value(&mut self, s: &ToyState, seat: Seat, legal: &[ToyAction], _: &mut GameRng) -> f64 {
        assert!(s.gambled && s.payout.is_none(), "asked at the guess only");
        assert_eq!((seat, legal.len()), (0, 2));
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.value
    }
}

#[test]
fn a_leaf_judge_values_the_seats_next_choice_in_place_of_the_playout() {
    // With the bit in view a depth-1 search with a random rollout stops (the test above). A
    // judge that values the guess as the seat would play it (+10) makes it gamble; one that
    // values it at -10 keeps it stopped. Stop ends the game: its payout is played, not judged,
    // so the judge is asked once per sweep, at the gamble's guess.
    let seen = dealt(false, true, 8);
    for (value, expected) in [(10.0, ToyAction::Gamble), (-10.0, ToyAction::Stop)] {
        let asked = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let params = IsmctsParams {
            iterations: 1000,
            root: Root::Sweep,
            deviate: Some(2.5),
            depth: Some(1),
            ..IsmctsParams::default()
        };
        let judge = GuessJudge {
            value,
            asked: asked.clone(),
        };
        let mut agent: Ismcts<ToyState> =
            Ismcts::new(params, Box::new(RandomAgent)).with_leaf(Box::new(judge));
        let mut actions = <ToyState as GameState>::Actions::default();
        seen.legal_actions(&mut actions);
        let k = agent.search(&seen.view(0), &actions, &mut stream_rng(7, 0, 1));
        assert_eq!(actions[k], expected, "judge {value}");
        assert_eq!(asked.load(std::sync::atomic::Ordering::Relaxed), 500);
    }
}

/// The `ismcts` spec's search plays a committed ladder table exactly: random against
/// `ismcts:iters=100` in the sisepai21 ladder (`results/tournament-tusac-sisepai21`, table 03,
/// 24 deals in every rotation). The search's safe-improvement test compares a mean gain with
/// `z` standard errors; computing them any other way (such as through the `prior=` weighting
/// with a weight of 0, `n · mean / n`) moved one of these 96 games.
#[test]
fn the_default_search_plays_a_committed_ladder_table_exactly() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let s = crate::common::Scratch::new("ismcts-committed-table");
    crate::common::ok(
        &s.0,
        &[
            "tournament",
            "--game",
            "tusac",
            "--variant",
            "sisepai21",
            "--agent",
            "random",
            "--agent",
            "ismcts:iters=100",
            "--deals",
            "24",
            "--seed",
            "2027",
            "--output",
            "out",
            "--quiet",
        ],
    );
    let tally = |path: std::path::PathBuf| -> serde_json::Value {
        let text = std::fs::read_to_string(&path).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["tally"].clone()
    };
    let committed = tally(root.join("results/tournament-tusac-sisepai21/tables/03/tally.json"));
    assert_eq!(
        committed["agents"][1], "ismcts:iters=100",
        "the committed table"
    );
    assert_eq!(tally(s.path("out/tables/00/tally.json")), committed);
}

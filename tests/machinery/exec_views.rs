//! What an outside agent is sent (`exec:COMMAND`, docs/agent-protocol.md) hides what its seat may
//! not see. Over 1,000 seeded games per table — Tứ Sắc classic, 4sac, sisepai21 and dirtyking26
//! at 4 seats, Chắn at 4, Tiến Lên at 4 and 2, and 250 at multi-pack tables of 8 and 6 seats — played
//! by greedy and random agents, every decision's exact `decide` message
//! ([`decide_message`]) is checked twice:
//!
//! 1. against the other seats' hidden cards (the state's truth). Tiến Lên holds one copy of each
//!    card, so no card of another seat's hand appears in any string of the message, save the
//!    pool `unseen` (which must be exactly the 52 cards less those the message shows) and the
//!    public exceptions the rules make (a leaver's shown 2, the leader's required card). Chắn and
//!    Tứ Sắc hold several copies of each card, so a card name proves nothing: there the check is
//!    structural — the message and every seat entry carry only the documented keys
//!    (docs/observations/), no other seat has a hand field, the hand sizes are the true ones,
//!    the seat's own hidden cards are its own, and `unseen` is the pool of every other seat's
//!    hidden cards and the hidden stock, not one seat's hand.
//! 2. invariance under what the seat cannot see (the strong check): the message built from the
//!    same seat's view of a determinization of its view (other hands and the stock resampled;
//!    two per decision, one at the 6- and 8-seat tables), with the same seed, is the same
//!    message, and the seat has the same legal actions there. Had the message read anything
//!    hidden, resampling would change it.

use crate::observation_keys as keys;
use bailab::agent::Agent;
use bailab::game::{ActionBuffer, GameState, RuleMap, Seat, SeatView};
use bailab::games::chan::{Chan, ChanState};
use bailab::games::kind::GameKind;
use bailab::games::tienlen::{TienLen, TienLenState};
use bailab::games::tusac::card::Card as TuSacCard;
use bailab::games::tusac::{PacksState, TuSac, TuSacState};
use bailab::generic_agents::catalogue::make_agent;
use bailab::generic_agents::exec::decide_message;
use bailab::rng::{stream_rng, DEAL_STREAM};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// Games played per table: 1,000, or 250 at the multi-pack tables of more than four seats
/// (hundreds of cards in each message; still over 25,000 decisions each).
fn games(players: usize) -> u64 {
    if players > 4 {
        250
    } else {
        1_000
    }
}
/// Determinizations of each decision's view: two, or one at the large multi-pack tables, whose
/// messages (hundreds of cards in `unseen`) are costly to build.
fn determinizations(players: usize) -> u64 {
    if players > 4 {
        1
    } else {
        2
    }
}

/// A card list as a multiset: copies per card string.
type Multiset = BTreeMap<String, usize>;

/// The multiset of a list of card strings.
fn multiset<I: IntoIterator<Item = String>>(cards: I) -> Multiset {
    let mut m = Multiset::new();
    for c in cards {
        *m.entry(c).or_default() += 1;
    }
    m
}

/// Whether `small` is contained in `big`, copies counted.
fn within(small: &Multiset, big: &Multiset) -> bool {
    small
        .iter()
        .all(|(c, n)| big.get(c).copied().unwrap_or(0) >= *n)
}

/// The strings of a JSON array.
fn strings(v: &Value) -> Vec<String> {
    let a = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    a.iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// The sorted keys of a JSON object.
fn keys(v: &Value) -> BTreeSet<&str> {
    let map = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"));
    map.keys().map(String::as_str).collect()
}

/// The path of the first place where `a` and `b` differ, with both values there.
fn first_difference(a: &Value, b: &Value, path: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) if keys(a) == keys(b) => x
            .iter()
            .find_map(|(k, v)| first_difference(v, &y[k], format!("{path}.{k}"))),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, format!("{path}[{i}]"))),
        _ => (a != b).then(|| format!("{path}: {a} vs {b}")),
    }
}

/// What one table's run checked.
#[derive(Default, Debug)]
struct Counts {
    decisions: u64,
    determinizations: u64,
    /// Determinizations in which another seat's hidden cards changed (the check's power).
    resampled: u64,
    /// Time spent building and checking messages.
    checking: Duration,
    /// Time spent by the agents and the game.
    playing: Duration,
}

/// A game's check 1: `(message, true state, deciding seat)`, panicking with what leaked.
type Check1<S> = fn(&Value, &S, Seat);
/// A game's other seats' hidden cards in a state, by seat (empty for the deciding seat).
type Hidden<S> = fn(&S, Seat) -> Vec<Vec<String>>;

/// Plays [`games`] seeded games of `game` with greedy and random agents and checks every
/// decision's message (both checks of the module doc).
fn check_table<G: GameKind>(
    game: &G,
    master: u64,
    check1: Check1<G::State>,
    hidden: Hidden<G::State>,
) {
    let n = game.seats();
    let determinizations = determinizations(n);
    let mut agents: Vec<Box<dyn Agent<G::State>>> = (0..n)
        .map(|s| make_agent::<G>(if s % 2 == 0 { "greedy" } else { "random" }).unwrap())
        .collect();
    let mut counts = Counts::default();
    let mut legal = <G::State as GameState>::Actions::default();
    let mut again = <G::State as GameState>::Actions::default();
    for index in 0..games(n) {
        let mut state = game.deal(&mut stream_rng(master, index, DEAL_STREAM));
        let mut rngs: Vec<_> = (0..n as u64)
            .map(|s| stream_rng(master, index, 1 + s))
            .collect();
        let mut det = stream_rng(master, index, 100);
        while let Some(seat) = state.to_move() {
            let started = Instant::now();
            state.legal_actions(&mut legal);
            let seed = master ^ (counts.decisions << 8);
            let view = state.view(seat);
            let message = decide_message(game, &view, legal.as_slice(), seed);
            let at = || {
                format!(
                    "{} {} {n}p game {index}, decision {}, seat {seat}",
                    game.name(),
                    game.variant(),
                    counts.decisions
                )
            };
            check1(&message, &state, seat);
            let truth = hidden(&state, seat);
            for _ in 0..determinizations {
                let d = view.determinize(&mut det);
                assert_eq!(d.to_move(), Some(seat), "{}: another seat to move", at());
                d.legal_actions(&mut again);
                assert_eq!(again.as_slice(), legal.as_slice(), "{}: legal", at());
                let resent = decide_message(game, &d.view(seat), again.as_slice(), seed);
                if resent != message {
                    let diff = first_difference(&message, &resent, String::new());
                    panic!(
                        "{}: the message differs in a determinization at {diff:?}",
                        at()
                    );
                }
                counts.determinizations += 1;
                counts.resampled += u64::from(hidden(&d, seat) != truth);
            }
            let checked = Instant::now();
            let chosen =
                agents[seat as usize].act(&view, legal.as_slice(), &mut rngs[seat as usize]);
            drop(view);
            counts.decisions += 1;
            let action = legal.as_slice()[chosen];
            state.apply(action);
            counts.checking += checked - started;
            counts.playing += checked.elapsed();
        }
    }
    eprintln!("{} {} {n}p: {counts:?}", game.name(), game.variant());
    // the test checked something: every game has decisions, and determinization did resample
    assert!(counts.decisions >= 10 * games(n), "{counts:?}");
    assert!(counts.resampled * 2 > counts.determinizations, "{counts:?}");
}

/// Game `G` in `variant` at `players` seats, with the default rules.
fn build<G: GameKind>(variant: &str, players: usize) -> G {
    G::build(variant, players, &RuleMap::new()).unwrap()
}

// ---------- Tiến Lên: one copy of each card ----------

/// The cards of a Tiến Lên card set as strings.
fn tl(cards: impl IntoIterator<Item = impl ToString>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

/// Every other seat's hand.
fn tienlen_hidden(state: &TienLenState, seat: Seat) -> Vec<Vec<String>> {
    (0..state.players() as Seat)
        .map(|o| if o == seat { vec![] } else { tl(state.hand(o)) })
        .collect()
}

/// Collects every string in `v` into `out`, each with its path (`.observation.seats[1].played[0]`).
fn all_strings(v: &Value, path: String, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) => out.push((path, s.clone())),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                all_strings(x, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                all_strings(x, format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// Check 1 for Tiến Lên: no card of another seat's hand in any string of the message, save
/// `unseen` (exactly the cards the message does not show) and the public exceptions.
fn tienlen_check1(message: &Value, state: &TienLenState, seat: Seat) {
    let o = &message["observation"];
    let n = state.players() as Seat;
    // the cards the rules make public while still held: a leaver's shown 2 (§4.3), and in an
    // initial game the required card, held by the leader (§2.5)
    let mut public: BTreeSet<String> = BTreeSet::new();
    for s in o["seats"].as_array().unwrap() {
        public.extend(strings(&s["shown"]));
    }
    if let Some(r) = o["required"].as_str() {
        let holder = (0..n).find(|&x| state.hand(x).iter().any(|c| c.to_string() == r));
        assert!(
            holder.is_none() || holder == Some(state.leader()),
            "required {r} held by {holder:?}, not the leader {}",
            state.leader()
        );
        public.insert(r.to_string());
    }
    let others: BTreeSet<String> = tienlen_hidden(state, seat).into_iter().flatten().collect();
    let mut found = Vec::new();
    all_strings(message, String::new(), &mut found);
    for (path, text) in found {
        if path == ".observation.required" || path.starts_with(".observation.unseen[") {
            continue;
        }
        for token in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let shown = public.contains(token) && path.contains(".shown[");
            assert!(
                !others.contains(token) || shown,
                "seat {seat} is sent another seat's card {token} at {path} (\"{text}\")"
            );
        }
    }
    // unseen is what the message itself leaves: 52 cards less the own hand, the played and
    // the shown cards; it holds every other hand's unshown card
    let all: BTreeSet<String> = (0..n)
        .flat_map(|s| tl(state.hand(s)).into_iter().chain(tl(state.played_by(s))))
        .chain(tl(state.set_aside()))
        .collect();
    assert_eq!(all.len(), 52);
    let mut shown_here: BTreeSet<String> = strings(&o["hand"]).into_iter().collect();
    for s in o["seats"].as_array().unwrap() {
        shown_here.extend(strings(&s["played"]));
        shown_here.extend(strings(&s["shown"]));
    }
    let unseen: BTreeSet<String> = strings(&o["unseen"]).into_iter().collect();
    let expected: BTreeSet<String> = all.difference(&shown_here).cloned().collect();
    assert_eq!(
        unseen, expected,
        "seat {seat}: unseen is not what the message leaves"
    );
    assert!(others.difference(&public).all(|c| unseen.contains(c)));
}

#[test]
fn tienlen_messages_hide_the_other_hands() {
    for (players, master) in [(4, 1), (2, 2)] {
        let game: TienLen = build("south", players);
        check_table(&game, 900 + master, tienlen_check1, tienlen_hidden);
    }
}

// ---------- Chắn and Tứ Sắc: several copies of each card ----------

/// The structural check of a multi-copy game: the observation has exactly `top` keys and each
/// seat entry exactly `seat_keys`; each entry's `hand_size` is the true one; the own `hand`
/// field holds the seat's own hidden cards `own`; and `unseen` holds every other seat's hidden
/// cards and `hidden_stock` more, so it is the pool and not one seat's hand.
fn check_pool(
    message: &Value,
    seat: Seat,
    (top, seat_keys): (&[&str], &[&str]),
    own: &[String],
    hidden: &[Vec<String>],
    sizes: &[usize],
    hidden_stock: usize,
) {
    let o = &message["observation"];
    assert_eq!(
        keys(message),
        BTreeSet::from(["legal", "observation", "seat", "seed", "type"])
    );
    assert_eq!(keys(o), top.iter().copied().collect(), "observation keys");
    for (s, entry) in o["seats"].as_array().unwrap().iter().enumerate() {
        assert_eq!(
            keys(entry),
            seat_keys.iter().copied().collect(),
            "seat {s}'s keys"
        );
        assert_eq!(entry["hand_size"], sizes[s], "seat {s}'s hand size");
    }
    assert_eq!(
        multiset(strings(&o["hand"])),
        multiset(own.to_vec()),
        "own hand"
    );
    let unseen = multiset(strings(&o["unseen"]));
    let mut pool = 0;
    for (s, cards) in hidden
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat as usize)
    {
        assert!(
            within(&multiset(cards.clone()), &unseen),
            "seat {s}'s cards in unseen"
        );
        pool += cards.len();
    }
    assert_eq!(
        strings(&o["unseen"]).len(),
        pool + hidden_stock,
        "unseen is the other hands and the hidden stock"
    );
}

/// Chắn's documented observation keys (docs/observations/chan.md).
const CHAN_KEYS: (&[&str], &[&str]) = (&keys::CHAN_KEYS, &keys::CHAN_SEAT_KEYS);

/// Every other seat's concealed hand.
fn chan_hidden(state: &ChanState, seat: Seat) -> Vec<Vec<String>> {
    (0..state.players() as Seat)
        .map(|o| {
            let hand = state.seat(o).concealed;
            if o == seat {
                vec![]
            } else {
                hand.cards().map(|c| c.to_string()).collect()
            }
        })
        .collect()
}

/// Check 1 for Chắn.
fn chan_check1(message: &Value, state: &ChanState, seat: Seat) {
    let n = state.players() as Seat;
    let own: Vec<String> = state
        .seat(seat)
        .concealed
        .cards()
        .map(|c| c.to_string())
        .collect();
    let sizes: Vec<usize> = (0..n).map(|s| state.seat(s).concealed.len()).collect();
    let hidden = chan_hidden(state, seat);
    check_pool(
        message,
        seat,
        CHAN_KEYS,
        &own,
        &hidden,
        &sizes,
        state.stock_len(),
    );
}

#[test]
fn chan_messages_hide_the_other_hands() {
    let game: Chan = build("standard", 4);
    check_table(&game, 910, chan_check1, chan_hidden);
}

/// The cards of Tứ Sắc copy counts as strings.
fn tusac_counts(counts: &[u8]) -> Vec<String> {
    let cards = counts.iter().enumerate();
    cards
        .flat_map(|(i, &k)| std::iter::repeat_n(TuSacCard::from_index(i).to_string(), k.into()))
        .collect()
}

/// Every other seat's hidden cards: one-pack its private block, multi-pack its hand and
/// face-down block.
fn tusac_hidden(state: &TuSacState, seat: Seat) -> Vec<Vec<String>> {
    (0..state.players() as Seat)
        .map(|o| {
            if o == seat {
                vec![]
            } else {
                tusac_secret(state, o)
            }
        })
        .collect()
}

/// A seat's hidden cards (see [`tusac_hidden`]).
fn tusac_secret(state: &TuSacState, o: Seat) -> Vec<String> {
    match state {
        TuSacState::OnePack(s) => s.private(o).cards().map(|c| c.to_string()).collect(),
        TuSacState::MultiPack(s) => {
            let mut cards = tusac_counts(s.hand(o));
            cards.extend(face_down(s, o));
            cards
        }
    }
}

/// A multi-pack seat's face-down block, 4 copies per quad type.
fn face_down(state: &PacksState, seat: Seat) -> Vec<String> {
    let types = state.face_down(seat);
    types
        .flat_map(|c| std::iter::repeat_n(c.to_string(), 4))
        .collect()
}

/// Tứ Sắc's documented observation keys (docs/observations/tusac.md), one-pack core.
const ONE_PACK_KEYS: (&[&str], &[&str]) = (&keys::ONE_PACK_KEYS, &keys::ONE_PACK_SEAT_KEYS);
/// The same, multi-pack core.
const MULTI_PACK_KEYS: (&[&str], &[&str]) = (&keys::PACKS_KEYS, &keys::PACKS_SEAT_KEYS);

/// Check 1 for Tứ Sắc, both cores; in 4sac another seat's Khaps (hidden) are `null`.
fn tusac_check1(message: &Value, state: &TuSacState, seat: Seat) {
    let n = state.players() as Seat;
    let hidden = tusac_hidden(state, seat);
    let o = &message["observation"];
    match state {
        TuSacState::OnePack(s) => {
            let own: Vec<String> = s.private(seat).cards().map(|c| c.to_string()).collect();
            let sizes: Vec<usize> = (0..n).map(|x| s.private(x).cards().count()).collect();
            check_pool(
                message,
                seat,
                ONE_PACK_KEYS,
                &own,
                &hidden,
                &sizes,
                s.stock_len(),
            );
            for (x, entry) in o["seats"].as_array().unwrap().iter().enumerate() {
                let khaps = &entry["khaps"];
                if x != seat as usize && !s.khaps_announced() {
                    assert!(
                        khaps.is_null(),
                        "seat {x}'s unannounced khaps sent: {khaps}"
                    );
                } else {
                    assert_eq!(khaps, &s.khaps(x as Seat), "seat {x}'s khaps");
                }
            }
        }
        TuSacState::MultiPack(s) => {
            let own = tusac_counts(s.hand(seat));
            let sizes: Vec<usize> = (0..n).map(|x| s.hand_len(x)).collect();
            // the stock's known cards: the double rank's, or after a reshuffle all (§4.7)
            let known = if s.reshuffled() {
                s.stock_len()
            } else {
                s.public_stock().len()
            };
            let stock = s.stock_len() - known;
            check_pool(message, seat, MULTI_PACK_KEYS, &own, &hidden, &sizes, stock);
            let own_face_down = multiset(face_down(s, seat));
            assert_eq!(multiset(strings(&o["face_down"])), own_face_down);
            for (x, entry) in o["seats"].as_array().unwrap().iter().enumerate() {
                assert_eq!(entry["face_down_size"], s.face_down_len(x as Seat));
            }
        }
    }
}

/// Checks the games of Tứ Sắc `variant` at `players` seats.
fn tusac_table(variant: &str, players: usize, master: u64) {
    let game: TuSac = build(variant, players);
    check_table(&game, master, tusac_check1, tusac_hidden);
}

#[test]
fn tusac_classic_messages_hide_the_other_hands() {
    tusac_table("classic", 4, 920);
}

#[test]
fn tusac_4sac_messages_hide_the_other_hands() {
    tusac_table("4sac", 4, 921);
}

#[test]
fn tusac_sisepai21_messages_hide_the_other_hands() {
    tusac_table("sisepai21", 4, 922);
    tusac_table("sisepai21", 8, 923);
}

#[test]
fn tusac_dirtyking26_messages_hide_the_other_hands() {
    tusac_table("dirtyking26", 4, 924);
    tusac_table("dirtyking26", 6, 925);
}

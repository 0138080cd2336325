//! What the fuzz targets share: reading fuzzer bytes as choices, and one game driven from a
//! fuzzer-chosen deck and fuzzer-chosen legal actions with every contract asserted at every step
//! ([`drive`]). The targets are in `fuzz_targets/`; `docs/fuzzing.md` says how to run them.

use bailab::game::{ActionBuffer, Decision, GameState, RuleMap, Seat, SeatView};
use bailab::games::chan::{Chan, ChanState};
use bailab::games::kind::{GameKind, RecordSetup};
use bailab::games::tienlen::{Cards, TienLen, TienLenState};
use bailab::games::tusac::onepack::deck::DECK_SIZE;
use bailab::games::tusac::{TuSac, TuSacState};
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::recorder::{check, Recorder};
use std::cell::RefCell;
use std::collections::HashMap;

/// Decisions after which a game counts as endless (a hang to report).
pub const MAX_STEPS: usize = 10_000;

/// Fuzzer bytes read front to back as choices; once they run out every choice is 0.
pub struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Choices<'a> {
    /// Choices read from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Choices { data, at: 0 }
    }

    /// The next byte (0 when none is left).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// A number below `n` (`n` ≥ 1): one byte, or two when `n` exceeds 256.
    pub fn below(&mut self, n: usize) -> usize {
        let v = if n > 256 {
            usize::from(self.byte()) << 8 | usize::from(self.byte())
        } else {
            usize::from(self.byte())
        };
        v % n
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.at.min(self.data.len())..]
    }
}

/// The bytes as text, or `None` when they are not UTF-8 (readers take text).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Whether `text` names a device or process file, which readers given a path would open
/// (`/dev/zero` never ends): the targets skip such inputs.
pub fn names_special_file(text: &str) -> bool {
    text.contains("/dev") || text.contains("/proc") || text.contains("/sys")
}

/// A game whose cards the fuzz targets count in every state.
pub trait Counted: GameKind {
    /// Asserts that every card of the deal is in exactly one place of `state`.
    fn assert_conserved(state: &Self::State);
}

impl Counted for TuSac {
    fn assert_conserved(state: &TuSacState) {
        match state {
            TuSacState::OnePack(s) => assert_eq!(s.total_cards(), DECK_SIZE, "cards conserved"),
            TuSacState::MultiPack(s) => {
                assert_eq!(s.total_cards(), s.deck().len(), "cards conserved")
            }
        }
    }
}

impl Counted for Chan {
    fn assert_conserved(s: &ChanState) {
        let seats: usize = (0..s.players() as Seat)
            .map(|x| s.seat(x).concealed.len() + s.seat(x).exposed().len())
            .sum();
        let total = seats + s.dead().len() + s.stock_len() + usize::from(s.live().is_some());
        assert_eq!(total, 100, "cards conserved");
    }
}

impl Counted for TienLen {
    fn assert_conserved(s: &TienLenState) {
        let mut all = s.set_aside();
        let mut total = s.set_aside().len();
        for seat in 0..s.players() as Seat {
            all = all.union(s.hand(seat)).union(s.played_by(seat));
            total += s.hand(seat).len() + s.played_by(seat).len();
        }
        assert_eq!((all, total), (Cards::ALL, 52), "52 cards conserved");
    }
}

/// The record setup of a seeded deal of `game` (its deck, in the game's notation), dealt once
/// per game, variant and seat count: a multi-pack deal takes milliseconds.
fn seeded_setup<G: GameKind>(game: &G, variant: &str, players: usize) -> RecordSetup {
    thread_local! {
        static SETUPS: RefCell<HashMap<(&'static str, String, usize), RecordSetup>> =
            RefCell::new(HashMap::new());
    }
    SETUPS.with(|m| {
        m.borrow_mut()
            .entry((G::INFO.name, variant.to_string(), players))
            .or_insert_with(|| G::record_setup(&game.deal(&mut stream_rng(0xF022, 0, DEAL_STREAM))))
            .clone()
    })
}

/// Plays one game of `G` chosen by `data`: the first byte picks the variant, the second the
/// seat count, the next bytes permute the deck of a seeded deal (dealt again through
/// [`GameKind::deal_recorded`]), and each following byte picks the deciding seat's action.
/// Asserts at every step that the cards are conserved, that the deciding seat has a legal
/// action and that the determinization of its view has the same seat to move and the same
/// legal actions (another seat's view, one seat per step in turn: the same seat to move); at the end that the game
/// ended within [`MAX_STEPS`], the payouts sum to zero, and the record checks and survives
/// JSON. A deck the rules refuse to deal (a redeal) ends the input without a finding.
pub fn drive<G: Counted>(data: &[u8]) {
    let mut c = Choices::new(data);
    let info = &G::INFO;
    let variant = info.variants[c.below(info.variants.len())];
    let (lo, hi) = info.seats_of(variant);
    let players = lo + c.below(hi - lo + 1);
    let Ok(game) = G::build(variant, players, &RuleMap::new()) else {
        return; // a variant's rules may seat fewer than its range (they say so)
    };
    let setup = seeded_setup(&game, variant, players);
    let mut cards: Vec<&str> = setup.deck.split(' ').collect();
    for i in (1..cards.len()).rev() {
        let j = c.below(i + 1);
        cards.swap(i, j);
    }
    let deck = cards.join(" ");
    let mut state = match game.deal_recorded(&deck, &setup.setup) {
        Ok(s) => s,
        Err(e) => {
            assert!(e.starts_with("deck"), "a permuted deck refused: {e}");
            return;
        }
    };
    let start = state.clone();
    let mut rng = stream_rng(0xF022, 1, 1);
    let mut actions = <G::State as GameState>::Actions::default();
    let mut other = <G::State as GameState>::Actions::default();
    let mut recorder = Recorder::<G>::default();
    recorder.observe(&state, None);
    G::assert_conserved(&state);
    let mut steps = 0;
    while let Some(seat) = state.to_move() {
        assert!(
            steps < MAX_STEPS,
            "the game does not end in {MAX_STEPS} decisions"
        );
        assert!(state.outcome().is_none(), "an outcome before the end");
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        assert!(
            !legal.is_empty(),
            "seat {seat} is to move without a legal action"
        );
        let d = state.view(seat).determinize(&mut rng);
        assert_eq!(d.to_move(), Some(seat), "a determinization moves the turn");
        G::assert_conserved(&d);
        d.legal_actions(&mut other);
        assert_eq!(
            other.as_slice(),
            legal,
            "a determinization's legal actions differ"
        );
        let x = (seat as usize + 1 + steps % (players - 1)) % players;
        let d = state.view(x as Seat).determinize(&mut rng);
        assert_eq!(
            d.to_move(),
            Some(seat),
            "seat {x}'s determinization moves the turn"
        );
        let chosen = c.below(legal.len());
        let action = legal[chosen];
        let decision = Decision {
            seat,
            legal: legal.len(),
            chosen,
        };
        state.apply(action);
        G::assert_conserved(&state);
        recorder.observe(&state, Some((decision, action)));
        steps += 1;
    }
    let outcome = state.outcome().expect("a finished game has an outcome");
    assert_eq!(
        outcome.payouts().iter().sum::<i64>(),
        0,
        "payouts are zero-sum"
    );
    let agents = vec!["first".to_string(); players];
    let record = recorder.finish(&game, &start, &state, &agents, None);
    if let Err(e) = check(&record) {
        panic!("the game's record does not check: {e}");
    }
    let json = serde_json::to_string(&record).expect("a record is JSON");
    let back: bailab::record::Record = serde_json::from_str(&json).expect("a record reads back");
    assert_eq!(back, record, "a record survives JSON");
}

/// Something done with one game type (as [`bailab::games::GameVisitor`], for [`Counted`] games).
pub trait Visit {
    /// Does it with game `G`.
    fn visit<G: Counted>(self);
}

/// Runs `v` with the game `byte` picks (modulo the three games).
pub fn on_game<V: Visit>(byte: u8, v: V) {
    match byte % 3 {
        0 => v.visit::<TuSac>(),
        1 => v.visit::<Chan>(),
        _ => v.visit::<TienLen>(),
    }
}

/// The variant of `G` that `byte` picks.
pub fn variant_of<G: GameKind>(byte: u8) -> &'static str {
    let v = G::INFO.variants;
    v[usize::from(byte) % v.len()]
}

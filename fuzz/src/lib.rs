//! What the fuzz targets share: reading fuzzer bytes as choices, and one game driven from a
//! fuzzer-chosen deck and fuzzer-chosen legal actions with every contract asserted at every step
//! ([`drive`]). The targets are in `fuzz_targets/`; `docs/fuzzing.md` says how to run them.

use bailab::game::{ActionBuffer, Decision, GameState};
use bailab::games::chan::Chan;
use bailab::games::kind::{DealError, GameError, GameKind, RecordSetup};
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::rng::{stream_rng, DEAL_STREAM};
use bailab::sim::files::seal::{seal, Layout};
use bailab::sim::invariants::{Checker, MAX_STEPS};
use bailab::sim::soak::rule_sets;
use std::cell::RefCell;
use std::collections::HashMap;

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

/// The text of a sealed file (a checkpoint, a shard's tally) from fuzzer bytes: byte 0 picks
/// whether the rest is taken as it is (its checksum must then check) or sealed first in
/// `layout` (so that the reader's checks behind the checksum are reached too). `None` when the
/// bytes are empty or not UTF-8.
pub fn sealed_or_raw(data: &[u8], layout: Layout) -> Option<String> {
    let (&pick, rest) = data.split_first()?;
    let text = text(rest)?;
    Some(match pick % 2 {
        0 => text.to_string(),
        _ => seal(text, layout),
    })
}

/// Whether `text` names a device or process file, which readers given a path would open
/// (`/dev/zero` never ends): the targets skip such inputs.
pub fn names_special_file(text: &str) -> bool {
    text.contains("/dev") || text.contains("/proc") || text.contains("/sys")
}

/// A table of a game: its name, variant, rule set and seat count.
type SetupKey = (&'static str, String, String, usize);

/// The record setup of a seeded deal of `game` (its deck, in the game's notation), dealt once
/// per game, variant, rule set and seat count: a multi-pack deal takes milliseconds.
fn seeded_setup<G: GameKind>(game: &G, rules: &str, players: usize) -> RecordSetup {
    thread_local! {
        static SETUPS: RefCell<HashMap<SetupKey, RecordSetup>> =
            RefCell::new(HashMap::new());
    }
    let variant = game.variant().to_string();
    SETUPS.with(|m| {
        m.borrow_mut()
            .entry((G::INFO.name, variant, rules.to_string(), players))
            .or_insert_with(|| G::record_setup(&game.deal(&mut stream_rng(0xF022, 0, DEAL_STREAM))))
            .clone()
    })
}

/// Plays one game of `G` chosen by `data`: the first byte picks the variant, the second the
/// seat count, the third the rule set (the variant's own or one of the game's rule samples the
/// table accepts, as `bailab soak` plays them), the next bytes permute the deck of a seeded deal
/// (dealt again through [`Records::deal_recorded`](bailab::games::kind::Records::deal_recorded)), and each following byte picks the deciding
/// seat's action. Every contract of [`Checker`] is asserted, deeply (determinizations at every
/// decision and the record), and the record survives JSON. A deck the rules refuse to deal (a
/// redeal) ends the input without a finding.
pub fn drive<G: GameKind>(data: &[u8]) {
    let mut c = Choices::new(data);
    let info = &G::INFO;
    let variant = info.variants[c.below(info.variants.len())];
    let (lo, hi) = info.seats_of(variant);
    let players = lo + c.below(hi - lo + 1);
    let Ok(games) = rule_sets::<G>(variant, players) else {
        return; // a variant's rules may seat fewer than its range (they say so)
    };
    let (rules, game) = &games[c.below(games.len())];
    let setup = seeded_setup(game, rules, players);
    let mut cards: Vec<&str> = setup.deck.split(' ').collect();
    for i in (1..cards.len()).rev() {
        let j = c.below(i + 1);
        cards.swap(i, j);
    }
    let deck = cards.join(" ");
    let mut state = match game.deal_recorded(&deck, &setup.setup) {
        Ok(s) => s,
        Err(e) => {
            let deck_error = matches!(
                &e,
                GameError::Deal(
                    DealError::Cards(_)
                        | DealError::Size { .. }
                        | DealError::ShortPack { .. }
                        | DealError::OverPack
                        | DealError::Deck(_)
                )
            );
            assert!(deck_error, "a permuted deck refused: {e}");
            return;
        }
    };
    let mut checker = Checker::<G>::new(MAX_STEPS, 0xF022);
    checker.begin(&state, true);
    let verdict = checker.step((&state, None));
    verdict.unwrap_or_else(|e| panic!("{e}"));
    let mut actions = <G::State as GameState>::Actions::default();
    while let Some(seat) = state.to_move() {
        state.legal_actions(&mut actions);
        let legal = actions.as_slice();
        let chosen = c.below(legal.len());
        let action = legal[chosen];
        let decision = Decision {
            seat,
            legal: legal.len(),
            chosen,
        };
        state.apply(action);
        let verdict = checker.step((&state, Some((decision, action))));
        verdict.unwrap_or_else(|e| panic!("{e}"));
    }
    let agents = vec!["first".to_string(); players];
    let (_, record) = checker
        .end(game, &state, &agents)
        .unwrap_or_else(|e| panic!("{e}"));
    let record = record.expect("a deep check gives the record");
    let json = serde_json::to_string(&record).expect("a record is JSON");
    let back: bailab::record::Record = serde_json::from_str(&json).expect("a record reads back");
    assert_eq!(back, record, "a record survives JSON");
}

/// Something done with one game type (as [`bailab::games::GameVisitor`]).
pub trait Visit {
    /// Does it with game `G`.
    fn visit<G: GameKind>(self);
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

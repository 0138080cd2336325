//! Integration tests of the classic trash solver (`src/games/tusac/onepack/trash.rs`) against the rules
//! reference, `docs/games/tusac.md` §3.
//!
//! * The §3.5 worked examples, loaded from `tests/data/vectors/tusac-trash.jsonl`.
//! * Named checks of the §3.5 points that the count alone does not show (values, the Khap lock,
//!   the partitions of the two full hands).
//! * An independent brute-force solver that implements §3.1 directly: lock every type with
//!   exactly 3 copies, then recurse on the lowest card type still present, either leaving one copy
//!   as trash or removing a set of one of the six free kinds that contains it. It does not use the
//!   per-colour decomposition of §3.2 item 5 that the table solver relies on. The table solver
//!   is compared with it on 2.1 million random blocks, and the waiting-pair exception of §4.4 C3
//!   is compared with an enumeration of the leftover sets of every optimal partition.

use bailab::games::tusac::card::{Card, Colour, Rank, CARD_TYPES, COLOURS};
use bailab::games::tusac::onepack::trash::{
    is_waiting_pair_hand, optimal_partition, trash, trash_and_value, Partition,
};
use bailab::games::tusac::sets::{SetInstance, SetKind};
use bailab::games::tusac::Hand;
use bailab::rng::{stream_rng, GameRng};
use rand::Rng;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/vectors/tusac-trash.jsonl"
);

fn h(s: &str) -> Hand {
    s.parse().unwrap_or_else(|e| panic!("bad hand {s:?}: {e}"))
}

fn c(s: &str) -> Card {
    s.parse().unwrap_or_else(|e| panic!("bad card {s:?}: {e}"))
}

/// The §3.5 rows as `(id, block, trash)`.
fn vector_rows() -> Vec<(String, String, u8)> {
    let text =
        std::fs::read_to_string(VECTORS).unwrap_or_else(|e| panic!("cannot read {VECTORS}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let row: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("line {} of {VECTORS} is not JSON: {e}", i + 1));
            let id = row["id"]
                .as_str()
                .unwrap_or_else(|| panic!("line {}: no string `id`", i + 1))
                .to_string();
            let block = row["block"]
                .as_str()
                .unwrap_or_else(|| panic!("row {id}: no string `block`"))
                .to_string();
            let t = row["trash"]
                .as_u64()
                .unwrap_or_else(|| panic!("row {id}: no integer `trash`"));
            (id, block, u8::try_from(t).expect("trash fits in u8"))
        })
        .collect()
}

/// The block of §3.5 row `n` (1-based), read from the vectors file.
fn row(n: usize) -> Hand {
    let rows = vector_rows();
    let (id, block, _) = &rows[n - 1];
    assert_eq!(id, &format!("3.5-{n}"), "rows are in order");
    h(block)
}

// ---------------------------------------------------------------------------------------------
// Brute force (§3.1 directly)
// ---------------------------------------------------------------------------------------------

/// A multiplicative hasher for the `u64` (and `(u64, u8)`) memo keys: the default SipHash
/// dominates the brute force's run time otherwise.
#[derive(Default)]
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(26)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<MulHasher>>;

/// A set kind of the free part of a block (§3.1 admissible partition), with its classic value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum FreeKind {
    King,
    Pair,
    KingAdvisorElephant,
    RookCannonHorse,
    Pawns3,
    Pawns4,
}

impl FreeKind {
    /// §2.5 classic values.
    fn value(self) -> u8 {
        match self {
            FreeKind::Pair => 0,
            FreeKind::Pawns4 => 2,
            FreeKind::King
            | FreeKind::KingAdvisorElephant
            | FreeKind::RookCannonHorse
            | FreeKind::Pawns3 => 1,
        }
    }
}

/// One candidate set: its kind and its cards.
#[derive(Clone, Debug)]
struct Candidate {
    kind: FreeKind,
    cards: Vec<Card>,
}

/// Every set of the six free kinds that can exist (45 of them), written out from §2.1.
fn all_candidates() -> Vec<Candidate> {
    let card = |col: Colour, r: Rank| Card::new(col, r);
    let mut out = Vec::new();
    for col in COLOURS {
        out.push(Candidate {
            kind: FreeKind::King,
            cards: vec![card(col, Rank::King)],
        });
        out.push(Candidate {
            kind: FreeKind::KingAdvisorElephant,
            cards: vec![
                card(col, Rank::King),
                card(col, Rank::Advisor),
                card(col, Rank::Elephant),
            ],
        });
        out.push(Candidate {
            kind: FreeKind::RookCannonHorse,
            cards: vec![
                card(col, Rank::Rook),
                card(col, Rank::Cannon),
                card(col, Rank::Horse),
            ],
        });
        // Pawns3: every colour except `col`.
        out.push(Candidate {
            kind: FreeKind::Pawns3,
            cards: COLOURS
                .iter()
                .filter(|&&o| o != col)
                .map(|&o| card(o, Rank::Pawn))
                .collect(),
        });
    }
    out.push(Candidate {
        kind: FreeKind::Pawns4,
        cards: COLOURS.iter().map(|&o| card(o, Rank::Pawn)).collect(),
    });
    for t in Card::all() {
        out.push(Candidate {
            kind: FreeKind::Pair,
            cards: vec![t, t],
        });
    }
    assert_eq!(out.len(), 45);
    out
}

/// Better result: less trash, then more value.
fn better(a: (u8, u8), b: (u8, u8)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 > b.1)
}

/// The brute-force solver. Its memo (free block bits -> (trash, best value)) is shared by every
/// block it is asked about.
struct Brute {
    /// For each card type, the candidate sets that contain it.
    by_card: Vec<Vec<Candidate>>,
    memo: FastMap<u64, (u8, u8)>,
    /// Memo of the leftover enumeration: (free block bits, budget) -> leftover multisets.
    leftover_memo: FastMap<(u64, u8), Vec<Hand>>,
}

/// Blocks seen so far are forgotten when the memo holds this many entries, so that the memory
/// stays bounded however many blocks are checked (results do not depend on it).
const MEMO_LIMIT: usize = 1 << 21;

impl Brute {
    fn new() -> Brute {
        let all = all_candidates();
        let by_card = Card::all()
            .map(|t| {
                all.iter()
                    .filter(|s| s.cards.contains(&t))
                    .cloned()
                    .collect()
            })
            .collect();
        Brute {
            by_card,
            memo: FastMap::default(),
            leftover_memo: FastMap::default(),
        }
    }

    /// `L(B)` and `F(B)` of §3.1: the locked types (exactly 3 copies) and the free rest.
    fn split_locked(block: Hand) -> (Vec<Card>, Hand) {
        let locked: Vec<Card> = Card::all().filter(|&t| block.count(t) == 3).collect();
        let mut free = block;
        for &t in &locked {
            free = free.without_all(&[t, t, t]);
        }
        (locked, free)
    }

    /// (trash, best value among optimal partitions) of a private block, Khaps worth 3.
    fn solve(&mut self, block: Hand) -> (u8, u8) {
        let (locked, free) = Brute::split_locked(block);
        if self.memo.len() > MEMO_LIMIT {
            self.memo.clear();
        }
        let (t, v) = self.solve_free(free);
        (t, v + 3 * locked.len() as u8)
    }

    fn solve_free(&mut self, free: Hand) -> (u8, u8) {
        if free.is_empty() {
            return (0, 0);
        }
        if let Some(&r) = self.memo.get(&free.bits()) {
            return r;
        }
        let lowest = free.types().next().expect("not empty");
        // Leave one copy of the lowest type as a trash card.
        let (t, v) = self.solve_free(free.without(lowest));
        let mut best = (t + 1, v);
        // Or take a set that contains it.
        for i in 0..self.by_card[lowest.index()].len() {
            let set = &self.by_card[lowest.index()][i];
            if !free.contains_all(&set.cards) {
                continue;
            }
            let (rest, value) = (free.without_all(&set.cards), set.kind.value());
            let (t, v) = self.solve_free(rest);
            if better((t, v + value), best) {
                best = (t, v + value);
            }
        }
        self.memo.insert(free.bits(), best);
        best
    }

    /// Every leftover multiset `R` of at most `budget` cards that some admissible partition of
    /// the free block leaves. The optimal partitions' leftovers are those of size `trash`.
    fn leftovers(&mut self, free: Hand, budget: u8) -> Vec<Hand> {
        if free.is_empty() {
            return vec![Hand::EMPTY];
        }
        if let Some(r) = self.leftover_memo.get(&(free.bits(), budget)) {
            return r.clone();
        }
        let lowest = free.types().next().expect("not empty");
        let mut out = Vec::new();
        if budget > 0 {
            for mut left in self.leftovers(free.without(lowest), budget - 1) {
                left.add(lowest);
                out.push(left);
            }
        }
        for i in 0..self.by_card[lowest.index()].len() {
            let cards = self.by_card[lowest.index()][i].cards.clone();
            if free.contains_all(&cards) {
                out.extend(self.leftovers(free.without_all(&cards), budget));
            }
        }
        out.sort_unstable_by_key(|r| r.bits());
        out.dedup();
        self.leftover_memo
            .insert((free.bits(), budget), out.clone());
        out
    }

    /// The leftover multisets of every optimal partition of a block.
    fn optimal_leftovers(&mut self, block: Hand) -> Vec<Hand> {
        let (_, free) = Brute::split_locked(block);
        let (t, _) = self.solve_free(free);
        if self.leftover_memo.len() > MEMO_LIMIT / 8 {
            self.leftover_memo.clear();
        }
        let out: Vec<Hand> = self
            .leftovers(free, t)
            .into_iter()
            .filter(|r| r.len() == usize::from(t))
            .collect();
        assert!(!out.is_empty(), "{block}: no optimal leftover found");
        out
    }
}

/// §3.1 without the Khap lock: every type is free (up to 3 copies) and a `Triple` is one more
/// kind. Only the count is computed; this is the "No lock" column of §3.5.
fn trash_without_lock(block: Hand) -> u8 {
    fn go(free: Hand, sets: &[Candidate], memo: &mut HashMap<u64, u8>) -> u8 {
        if free.is_empty() {
            return 0;
        }
        if let Some(&t) = memo.get(&free.bits()) {
            return t;
        }
        let lowest = free.types().next().expect("not empty");
        let mut best = go(free.without(lowest), sets, memo) + 1;
        if free.count(lowest) == 3 {
            best = best.min(go(free.without_all(&[lowest; 3]), sets, memo));
        }
        for s in sets.iter().filter(|s| s.cards.contains(&lowest)) {
            if free.contains_all(&s.cards) {
                best = best.min(go(free.without_all(&s.cards), sets, memo));
            }
        }
        memo.insert(free.bits(), best);
        best
    }
    go(block, &all_candidates(), &mut HashMap::new())
}

// ---------------------------------------------------------------------------------------------
// Random blocks and partition checks
// ---------------------------------------------------------------------------------------------

/// The 112-card deck: 4 copies of each of the 28 types.
fn deck() -> Vec<Card> {
    Card::all().flat_map(|t| [t; 4]).collect()
}

/// A block of `size` cards drawn uniformly from the deck without replacement, redrawn while some
/// type has 4 copies (a private block never holds 4, §1.4).
fn random_block(deck: &mut [Card], size: usize, rng: &mut GameRng) -> Hand {
    loop {
        // Partial Fisher–Yates: deck[..size] becomes a uniform sample.
        for i in 0..size {
            let j = rng.random_range(i..deck.len());
            deck.swap(i, j);
        }
        let mut counts = [0u8; CARD_TYPES];
        for &t in &deck[..size] {
            counts[t.index()] += 1;
        }
        if counts.iter().all(|&n| n <= 3) {
            return Hand::from_counts(&counts);
        }
    }
}

/// Checks that a partition is a valid optimal partition of `block` with the given trash and
/// value (§3.1, §3.6). Returns a description of the first problem.
fn check_partition(block: Hand, p: &Partition, trash: u8, value: u8) -> Result<(), String> {
    let mut counts = [0u8; CARD_TYPES];
    for set in &p.sets {
        let kind = SetKind::of(set.cards());
        if kind != Some(set.kind) {
            return Err(format!(
                "set {set} is labelled {} but its cards are {kind:?}",
                set.kind
            ));
        }
        match set.kind {
            SetKind::Quad => return Err(format!("set {set}: a private block has no Quad")),
            SetKind::Triple => {
                if block.count(set.cards()[0]) != 3 {
                    return Err(format!("set {set}: a Triple must be a locked Khap"));
                }
            }
            _ => {
                if let Some(t) = set.cards().iter().find(|&&t| block.count(t) == 3) {
                    return Err(format!("set {set} uses {t} of a locked Khap"));
                }
            }
        }
        for t in set.cards() {
            counts[t.index()] += 1;
        }
    }
    for t in &p.trash {
        if block.count(*t) == 3 {
            return Err(format!("trash card {t} belongs to a locked Khap"));
        }
        counts[t.index()] += 1;
    }
    if counts != block.counts() {
        return Err(format!(
            "sets and trash are not the block: counts {counts:?} vs {:?}",
            block.counts()
        ));
    }
    if p.trash.len() != trash as usize {
        return Err(format!("{} trash cards, expected {trash}", p.trash.len()));
    }
    if p.value() != u32::from(value) {
        return Err(format!("value {}, expected {value}", p.value()));
    }
    Ok(())
}

fn show(p: &Partition) -> String {
    let sets: Vec<String> = p.sets.iter().map(SetInstance::to_string).collect();
    let trash: Vec<String> = p.trash.iter().map(Card::to_string).collect();
    format!("{} | {}", sets.join(" "), trash.join(" "))
}

// ---------------------------------------------------------------------------------------------
// §3.5 rows
// ---------------------------------------------------------------------------------------------

#[test]
fn spec_3_5_rows_from_vectors() {
    let rows = vector_rows();
    assert_eq!(rows.len(), 24, "§3.5 has 24 rows");
    let mut brute = Brute::new();
    for (id, block, expected) in &rows {
        let hand = h(block);
        assert_eq!(trash(hand), *expected, "row {id}: trash({block})");
        assert_eq!(
            brute.solve(hand).0,
            *expected,
            "row {id}: brute-force trash({block})"
        );
    }
}

#[test]
fn row_21_best_value_is_4_as_two_pawns4() {
    let hand = row(21);
    assert_eq!(trash_and_value(hand), (0, 4), "§3.6: worth 4, not 0");
    assert_eq!(Brute::new().solve(hand), (0, 4));
    let p = optimal_partition(hand);
    let kinds: Vec<SetKind> = p.sets.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [SetKind::Pawns4, SetKind::Pawns4], "{}", show(&p));
    check_partition(hand, &p, 0, 4).unwrap();
}

#[test]
fn row_20_is_worth_3() {
    let hand = row(20);
    assert_eq!(trash_and_value(hand), (0, 3));
    assert_eq!(Brute::new().solve(hand), (0, 3));
    let p = optimal_partition(hand);
    let mut kinds: Vec<SetKind> = p.sets.iter().map(|s| s.kind).collect();
    kinds.sort();
    assert_eq!(kinds, [SetKind::Pawns3, SetKind::Pawns4], "{}", show(&p));
    check_partition(hand, &p, 0, 3).unwrap();
}

#[test]
fn rows_7_12_18_khap_lock_leaves_two_trash() {
    let mut brute = Brute::new();
    for (n, khap, left) in [(7, "yK", "yA yE"), (12, "rR", "rC rH"), (18, "rP", "yP gP")] {
        let hand = row(n);
        let khap = c(khap);
        let left = h(left);
        // Khap worth 3 (plus nothing else: the two leftovers are trash).
        assert_eq!(trash_and_value(hand), (2, 3), "row {n}");
        assert_eq!(brute.solve(hand), (2, 3), "row {n}");
        assert_eq!(trash_without_lock(hand), 0, "row {n}: no lock gives 0");
        let p = optimal_partition(hand);
        check_partition(hand, &p, 2, 3).unwrap_or_else(|e| panic!("row {n}: {e}"));
        assert_eq!(p.sets.len(), 1, "row {n}: {}", show(&p));
        assert_eq!(p.sets[0].kind, SetKind::Triple, "row {n}");
        assert_eq!(p.sets[0].cards(), [khap; 3], "row {n}");
        assert_eq!(p.sets[0].classic_name(), Some("Khap"), "row {n}");
        assert_eq!(
            p.trash.to_vec(),
            left.cards().collect::<Vec<_>>(),
            "row {n}"
        );
        // The leftover is forced: no optimal partition leaves anything else.
        assert_eq!(brute.optimal_leftovers(hand), [left], "row {n}");
    }
}

#[test]
fn row_24_lock_matters_and_row_19_khap_sits_beside_a_chow() {
    // §3.5 row 24: "Without the lock, wK wA wE + wK wK would give 3."
    assert_eq!(trash(row(24)), 5);
    assert_eq!(trash_without_lock(row(24)), 3);
    // Row 19: the Khap and a Pawns3, trash 0, worth 3 + 1.
    assert_eq!(trash_and_value(row(19)), (0, 4));
}

#[test]
fn rows_23_and_24_partitions_have_five_trash_and_valid_sets() {
    let mut brute = Brute::new();
    for n in [23, 24] {
        let hand = row(n);
        assert_eq!(hand.len(), 20, "row {n} is a full 20-card hand");
        let (t, v) = trash_and_value(hand);
        assert_eq!(t, 5, "row {n}");
        assert_eq!((t, v), brute.solve(hand), "row {n}");
        let p = optimal_partition(hand);
        assert_eq!(p.trash.len(), 5, "row {n}: {}", show(&p));
        check_partition(hand, &p, t, v).unwrap_or_else(|e| panic!("row {n}: {e}: {}", show(&p)));
        assert!(
            p.trash.iter().all(|t| !t.is_king()),
            "row {n}: §3.2 item 1, a King is never trash: {}",
            show(&p)
        );
        // The table's trash cards are the leftover of some optimal partition.
        let mut left = Hand::EMPTY;
        p.trash.iter().for_each(|&t| left.add(t));
        assert!(
            brute.optimal_leftovers(hand).contains(&left),
            "row {n}: {}",
            show(&p)
        );
    }
    // The partition printed in §3.5 is one of the optimal ones.
    for (n, printed) in [(23, "yA gA gH wR wC"), (24, "wA wE gE rR yH")] {
        assert!(
            brute.optimal_leftovers(row(n)).contains(&h(printed)),
            "row {n}: the spec's trash {printed} is optimal"
        );
    }
}

#[test]
fn rows_4_and_22_have_two_optimal_leftovers() {
    // §3.1: "Different optimal partitions may leave different trash cards."
    let mut brute = Brute::new();
    let mut left4 = brute.optimal_leftovers(row(4));
    left4.sort_by_key(|r| r.bits());
    let mut want4 = vec![h("gA"), h("gE")];
    want4.sort_by_key(|r| r.bits());
    assert_eq!(left4, want4);
    let mut left22 = brute.optimal_leftovers(row(22));
    left22.sort_by_key(|r| r.bits());
    let mut want22 = vec![h("yA"), h("yE")];
    want22.sort_by_key(|r| r.bits());
    assert_eq!(left22, want22);
}

// ---------------------------------------------------------------------------------------------
// Table solver vs brute force on random blocks
// ---------------------------------------------------------------------------------------------

const BLOCKS_PER_SIZE: usize = 100_000;
const PARTITION_EVERY: usize = 50;

/// Checks sizes `sizes` with one brute-force solver; returns the number of blocks checked.
fn compare_sizes(sizes: &[usize]) -> usize {
    let mut brute = Brute::new();
    let mut deck = deck();
    let mut checked = 0;
    for &size in sizes {
        let mut rng = stream_rng(0x7A5A_C001, size as u64, 1);
        let mut trash_seen = [0usize; 22];
        for i in 0..BLOCKS_PER_SIZE {
            let hand = random_block(&mut deck, size, &mut rng);
            assert_eq!(hand.len(), size);
            let got = trash_and_value(hand);
            let want = brute.solve(hand);
            assert_eq!(got, want, "{hand}: table (trash, value) vs brute force");
            assert_eq!(trash(hand), want.0, "{hand}: trash()");
            trash_seen[usize::from(want.0)] += 1;
            if i % PARTITION_EVERY == 0 {
                let p = optimal_partition(hand);
                check_partition(hand, &p, want.0, want.1)
                    .unwrap_or_else(|e| panic!("{hand}: {e}: {}", show(&p)));
            }
            checked += 1;
        }
        // The sample is not degenerate: blocks of this size take several trash counts.
        if size >= 2 {
            let distinct = trash_seen.iter().filter(|&&n| n > 0).count();
            assert!(distinct >= 2, "size {size}: trash counts {trash_seen:?}");
        }
    }
    checked
}

#[test]
fn table_matches_brute_force_on_random_blocks() {
    let start = Instant::now();
    // Two threads, each with its own memo; sizes interleaved so the work is balanced.
    let (even, odd): (Vec<usize>, Vec<usize>) = (1..=21).partition(|s| s % 2 == 0);
    let checked = std::thread::scope(|s| {
        let a = s.spawn(|| compare_sizes(&even));
        let b = s.spawn(|| compare_sizes(&odd));
        a.join().unwrap() + b.join().unwrap()
    });
    assert_eq!(checked, 21 * BLOCKS_PER_SIZE);
    eprintln!("{checked} random blocks checked in {:?}", start.elapsed());
}

// ---------------------------------------------------------------------------------------------
// The waiting-pair exception of §4.4 C3
// ---------------------------------------------------------------------------------------------

/// §4.4 C3, from the definition: trash 2 and some optimal partition leaves two pawns of
/// different colours, or two same-colour cards of different ranks in {R, C, H}.
fn waiting_pair_brute(brute: &mut Brute, block: Hand) -> bool {
    if brute.solve(block).0 != 2 {
        return false;
    }
    let rch = [Rank::Rook, Rank::Cannon, Rank::Horse];
    brute.optimal_leftovers(block).iter().any(|left| {
        let cards: Vec<Card> = left.cards().collect();
        let [u, v] = cards[..] else {
            panic!("{block}: optimal leftover {left} is not 2 cards")
        };
        let pawns = u.is_pawn() && v.is_pawn() && u.colour() != v.colour();
        let chow_wait = u.colour() == v.colour()
            && rch.contains(&u.rank())
            && rch.contains(&v.rank())
            && u.rank() != v.rank();
        pawns || chow_wait
    })
}

/// A block made of random sets (of the six free kinds, or a Khap) plus two random cards, of at
/// most `size` cards and never 4 copies of a type: such blocks often have trash 2, which uniform
/// large blocks rarely do.
fn near_complete_block(size: usize, rng: &mut GameRng) -> Hand {
    let mut sets: Vec<Vec<Card>> = all_candidates().into_iter().map(|s| s.cards).collect();
    sets.extend(Card::all().map(|t| vec![t; 3]));
    let mut counts = [0u8; CARD_TYPES];
    let mut len = 0;
    for _ in 0..50 {
        let set = &sets[rng.random_range(0..sets.len())];
        let mut next = counts;
        set.iter().for_each(|t| next[t.index()] += 1);
        if len + set.len() + 2 <= size && next.iter().all(|&n| n <= 3) {
            counts = next;
            len += set.len();
        }
    }
    // Two more cards: random ones, or a shape that may be a wait (a same-colour pair of R/C/H,
    // two pawns of different colours, or the unprotected A–E).
    let random_card = |rng: &mut GameRng| Card::from_index(rng.random_range(0..CARD_TYPES));
    let colour = COLOURS[rng.random_range(0..4)];
    let other = COLOURS[rng.random_range(0..4)];
    let rch = [Rank::Rook, Rank::Cannon, Rank::Horse];
    let (r1, r2) = (rch[rng.random_range(0..3)], rch[rng.random_range(0..3)]);
    let extra = match rng.random_range(0..4) {
        0 => [random_card(rng), random_card(rng)],
        1 => [Card::new(colour, r1), Card::new(colour, r2)],
        2 => [Card::new(colour, Rank::Pawn), Card::new(other, Rank::Pawn)],
        _ => [
            Card::new(colour, Rank::Advisor),
            Card::new(colour, Rank::Elephant),
        ],
    };
    for t in extra.into_iter().take(size) {
        if counts[t.index()] < 3 {
            counts[t.index()] += 1;
        }
    }
    Hand::from_counts(&counts)
}

#[test]
fn waiting_pair_exception_matches_brute_force() {
    let mut brute = Brute::new();
    let mut deck = deck();
    let mut rng = stream_rng(0x7A5A_C003, 0, 2);
    let (mut trash2, mut waiting) = (0, 0);
    for i in 0..40_000usize {
        let size = 2 + i % 20;
        // 20,000 uniform blocks, then 20,000 built to be close to complete.
        let hand = if i < 20_000 {
            random_block(&mut deck, size, &mut rng)
        } else {
            near_complete_block(size, &mut rng)
        };
        let want = waiting_pair_brute(&mut brute, hand);
        assert_eq!(
            is_waiting_pair_hand(hand),
            want,
            "{hand}: trash {}, optimal leftovers {:?}",
            brute.solve(hand).0,
            if brute.solve(hand).0 == 2 {
                brute
                    .optimal_leftovers(hand)
                    .iter()
                    .map(Hand::to_string)
                    .collect::<Vec<_>>()
            } else {
                Vec::new()
            }
        );
        trash2 += usize::from(brute.solve(hand).0 == 2);
        waiting += usize::from(want);
    }
    // Both answers occur often among the trash-2 blocks, so the comparison means something.
    eprintln!("{trash2} trash-2 blocks, {waiting} waiting");
    assert!(waiting >= 1000, "only {waiting} waiting hands");
    assert!(
        trash2 - waiting >= 1000,
        "only {} non-waiting trash-2 hands",
        trash2 - waiting
    );
}

#[test]
fn waiting_pair_exception_examples() {
    let mut brute = Brute::new();
    for (block, want) in [
        ("rR rC yP yP", true),        // same-colour R/C wait
        ("rR gC yP yP", false),       // different colours
        ("rP gP yR yR", true),        // two pawns of different colours
        ("rA rE yP yP", false),       // an A–E pair waiting for its King is not protected
        ("rR rR rR rC rH", true),     // row 12: the Khap leaves rC rH
        ("rP rP rP yP gP", true),     // row 18
        ("yK yK yK yA yE", false),    // row 7: A–E
        ("gR gC gH gR gC yP", false), // pairs gR gR, gC gC leave gH yP
        ("rR rC rH yP gP", true),     // a chow and a pawn wait
        ("rK rA yR yH", false),       // trash 3, not 2
    ] {
        let hand = h(block);
        assert_eq!(waiting_pair_brute(&mut brute, hand), want, "brute {block}");
        assert_eq!(is_waiting_pair_hand(hand), want, "table {block}");
    }
}

//! The meld rules of the one-pack core: classic (§2.3, §4.4 `LegalMelds`, `CanWin`, C7) and the
//! restrictions 4sac adds by its options (§4.5: drawn Kings, the passed draw, any non-King
//! discard).

use super::trash::{is_waiting_pair_hand, trash, trash_and_value};
use crate::games::tusac::card::{Card, Colour, Rank, COLOURS};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::options::{DiscardRule, DrawnKing, PassedDraw};
use crate::games::tusac::sets::{pawn, SetKind};
use arrayvec::ArrayVec;

use crate::games::tusac::meld::{Meld, Melds};
use crate::games::tusac::options::Options;

/// Who takes the active card, for the restrictions of §4.5 on what each seat may make.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Taker {
    /// A seat winning on the card (C1/F1): any set kind.
    Winner,
    /// An out-of-turn claim that is not a win (F2: Kong or Pong).
    Claimant,
    /// The turn player on a discard (C5, F3).
    Turn,
    /// The drawer on its own draw (C5, F3).
    Drawer,
    /// The next seat on a passed draw (C6, F5).
    Passed,
}

/// Whether `taker` may make a set of `kind` with `active` under these options: the drawn King
/// rule (§4.5 Drawn King, option `drawn_king`) and the passed draw (F5, option `passed_draw`).
/// Classic's options allow every kind.
pub fn kind_allowed(opts: &Options, kind: SetKind, active: Card, taker: Taker) -> bool {
    use SetKind::*;
    let chow = matches!(
        kind,
        KingAdvisorElephant | RookCannonHorse | Pawns3 | Pawns4 | Pair
    );
    if taker == Taker::Passed && opts.passed_draw == PassedDraw::ChowPawnsOrPair && !chow {
        return false;
    }
    if active.is_king() && opts.drawn_king == DrawnKing::WinKongThenDrawer {
        // never a Pair or Pong of a King; others only win or Kong; the next seat KAE only
        return match taker {
            Taker::Winner | Taker::Drawer => matches!(kind, King | Quad | KingAdvisorElephant),
            Taker::Claimant => kind == Quad,
            Taker::Passed => kind == KingAdvisorElephant,
            Taker::Turn => false,
        };
    }
    true
}

/// [`legal_melds`] narrowed to what `taker` may make under `opts` ([`kind_allowed`]).
pub(crate) fn legal_melds_for(
    opts: &Options,
    hand: Hand,
    active: Card,
    taker: Taker,
    out: &mut Melds,
) {
    legal_melds(hand, active, out);
    out.retain(|m| kind_allowed(opts, m.kind, active, taker));
}

/// Whether every set kind is open to a winner on `active` (then [`can_win`] decides alone).
fn winner_unrestricted(opts: &Options, active: Card) -> bool {
    !(active.is_king() && opts.drawn_king == DrawnKing::WinKongThenDrawer)
}

/// `CanWin(X, A)` under `opts`: [`can_win`] with the set kinds a winner may make.
pub fn can_win_with(opts: &Options, hand: Hand, active: Card) -> bool {
    if !can_win(hand, active) {
        return false;
    }
    if winner_unrestricted(opts, active) {
        return true;
    }
    let mut shapes = Melds::new();
    meld_shapes(hand, active, &mut shapes);
    shapes.iter().any(|m| {
        kind_allowed(opts, m.kind, active, Taker::Winner) && trash(hand.without_all(m.used())) == 0
    })
}

/// The legal discards under `opts` as a bit set: C7 ([`legal_discards`]) or, under
/// `AnyNonKing` (§4.5 MustDiscard), every held type that is not a King.
pub(crate) fn discards_for(opts: &Options, hand: Hand) -> u32 {
    match opts.discard_rule {
        DiscardRule::ReduceTrashByOne => legal_discards(hand),
        DiscardRule::AnyNonKing => hand
            .types()
            .filter(|c| !c.is_king())
            .fold(0, |set, c| set | 1 << c.index()),
    }
}

/// Every meld shape `{active} ⊎ U` with `U` in `hand` that respects the Khap lock (§2.3 and
/// LegalMelds (a)), in canonical action order (§3.6). The trash rule is not applied here.
pub fn meld_shapes(hand: Hand, active: Card, out: &mut Melds) {
    out.clear();
    let free = |c: Card| hand.count(c) > 0 && hand.count(c) < 3;
    let n = hand.count(active);
    if active.is_king() {
        out.push(Meld::new(SetKind::King, &[]));
    }
    if n == 1 || n == 2 {
        out.push(Meld::new(SetKind::Pair, &[active]));
    }
    if n == 2 {
        out.push(Meld::new(SetKind::Triple, &[active, active]));
    }
    if n == 3 {
        out.push(Meld::new(SetKind::Quad, &[active, active, active]));
    }
    let colour = active.colour();
    for (kind, ranks) in [
        (
            SetKind::KingAdvisorElephant,
            [Rank::King, Rank::Advisor, Rank::Elephant],
        ),
        (
            SetKind::RookCannonHorse,
            [Rank::Rook, Rank::Cannon, Rank::Horse],
        ),
    ] {
        if ranks.contains(&active.rank()) {
            let others: ArrayVec<Card, 2> = ranks
                .iter()
                .filter(|&&r| r != active.rank())
                .map(|&r| Card::new(colour, r))
                .collect();
            if others.iter().all(|&c| free(c)) {
                out.push(Meld::new(kind, &others));
            }
        }
    }
    if active.is_pawn() {
        let others: ArrayVec<Colour, 3> = COLOURS.into_iter().filter(|&c| c != colour).collect();
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            let used = [pawn(others[i]), pawn(others[j])];
            if used.iter().all(|&c| free(c)) {
                out.push(Meld::new(SetKind::Pawns3, &used));
            }
        }
        let used: ArrayVec<Card, 3> = others.iter().map(|&c| pawn(c)).collect();
        if used.iter().all(|&c| free(c)) {
            out.push(Meld::new(SetKind::Pawns4, &used));
        }
    }
}

/// The legal melds of §4.4: shapes that do not raise the holder's trash (rule (b)).
pub fn legal_melds(hand: Hand, active: Card, out: &mut Melds) {
    meld_shapes(hand, active, out);
    let now = trash(hand);
    out.retain(|m| trash(hand.without_all(m.used())) <= now);
}

/// `CanWin(X, A)` of §4.4: some legal meld leaves trash 0.
///
/// A meld removes at most 3 free cards, each lowering trash by at most one (§3.2 item 2), or a
/// Khap, whose cards are not counted; so a hand with trash above 3 cannot win and needs no search.
/// And a winning meld with the zero-trash rest is a partition of `hand` plus the active card
/// into sets, so that block must have trash 0 — when it holds at most 2 copies of the active
/// card (3 would read as a Khap, which the meld may split).
pub fn can_win(hand: Hand, active: Card) -> bool {
    if hand.count(active) < 2 {
        let mut with = hand;
        with.add(active);
        if trash(with) != 0 {
            return false;
        }
    }
    trash(hand) <= 3 && can_win_by_search(hand, active)
}

/// `CanWin` by trying every meld shape (the reference for [`can_win`]).
pub(crate) fn can_win_by_search(hand: Hand, active: Card) -> bool {
    let mut shapes = Melds::new();
    meld_shapes(hand, active, &mut shapes);
    shapes
        .iter()
        .any(|m| trash(hand.without_all(m.used())) == 0)
}

/// C3's conditions on one seat's block (§4.4): the card is not a King, the block holds a pair of
/// it, the triple does not raise trash, and the waiting-pair exception does not apply. (Whether
/// the seat may claim at all, i.e. is not the turn player, is the caller's question.)
pub(crate) fn pair_priority_binds(block: Hand, card: Card, opts: &Options) -> bool {
    !card.is_king()
        && block.count(card) == 2
        && trash(block.without_all(&[card, card])) <= trash(block)
        && !(opts.pair_waiting_exception && is_waiting_pair_hand(block))
}

/// The optional out-of-turn claim of F2 (§4.5) that `block` may make on `card`: a Kong from a
/// Pong (when `khui_rule = Optional`), or a Pong from a pair (when `pair_claim_rule = Optional`;
/// never on a King; rule (b): it must not raise trash). No waiting-pair exception. `None` when
/// the seat has no claim (it is then not asked).
pub fn optional_claim(opts: &Options, block: Hand, card: Card) -> Option<Meld> {
    use crate::games::tusac::options::ClaimRule::Optional;
    match block.count(card) {
        3 if opts.khui_rule == Optional => Some(Meld::new(SetKind::Quad, &[card; 3])),
        2 if opts.pair_claim_rule == Optional
            && !card.is_king()
            && trash(block.without_all(&[card, card])) <= trash(block) =>
        {
            Some(Meld::new(SetKind::Triple, &[card; 2]))
        }
        _ => None,
    }
}

/// The winning meld chosen by §3.6 and the value it gives: the highest hand value, then a meld
/// that makes `m = 2` (a Khui), then the first in canonical action order. `public_value` is the
/// value of the holder's public sets and `has_quan_or_khui` whether they include one.
/// Under `opts`: only the kinds a winner may make ([`kind_allowed`]),
/// valued by the options' point table; the `m = 2` tie-break only under the classic payout.
/// The private block is valued by [`trash_and_value`], whose values (Khap/Pong 3, `Pawns4` 2,
/// `Pair` 0, others 1) are the same in the classic and 4sac tables.
pub(crate) fn best_winning_meld_with(
    opts: &Options,
    hand: Hand,
    active: Card,
    public_value: u32,
    has_quan_or_khui: bool,
) -> Option<(Meld, u32)> {
    let mut shapes = Melds::new();
    meld_shapes(hand, active, &mut shapes);
    let mut best: Option<(Meld, u32, bool)> = None;
    let m2 = opts.payout == crate::games::tusac::options::Payout::Classic;
    for &m in &shapes {
        if !kind_allowed(opts, m.kind, active, Taker::Winner) {
            continue;
        }
        let (t, private_value) = trash_and_value(hand.without_all(m.used()));
        if t != 0 {
            continue;
        }
        let hv = public_value + m.value_in(opts.point_table) + u32::from(private_value);
        let doubled = m2 && (has_quan_or_khui || m.kind == SetKind::Quad);
        let better = match best {
            None => true,
            Some((_, bhv, bd)) => (hv, doubled) > (bhv, bd),
        };
        if better {
            best = Some((m, hv, doubled));
        }
    }
    best.map(|(m, hv, _)| (m, hv))
}

/// The legal discards of C7: a held card not in a Khap whose removal lowers trash by exactly one.
/// Returned as a bit set over canonical card indices (from the trash tables).
pub fn legal_discards(hand: Hand) -> u32 {
    super::trash::discard_set(hand)
}

/// C7 written out directly: the reference that [`legal_discards`] is tested against.
#[cfg(test)]
pub(crate) fn legal_discards_by_definition(hand: Hand) -> u32 {
    let t = trash(hand);
    let mut set = 0u32;
    for c in hand.types() {
        if hand.count(c) < 3 && t > 0 && trash(hand.without(c)) == t - 1 {
            set |= 1 << c.index();
        }
    }
    set
}

/// The cards of a bit set over canonical indices, in canonical order.
pub fn cards_of(set: u32) -> impl Iterator<Item = Card> {
    (0..28)
        .filter(move |i| set >> i & 1 == 1)
        .map(Card::from_index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kind::RuleError;

    fn h(s: &str) -> Hand {
        s.parse().unwrap()
    }
    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }
    fn shapes(hand: &str, active: &str) -> Vec<String> {
        let mut out = Melds::new();
        meld_shapes(h(hand), c(active), &mut out);
        out.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn meld_shapes_follow_section_2_3() {
        assert_eq!(
            shapes("rP yP gP wP", "rP"),
            [
                "Pair rP",
                "Pawns3 yP gP",
                "Pawns3 yP wP",
                "Pawns3 gP wP",
                "Pawns4 yP gP wP"
            ]
        );
        assert_eq!(
            shapes("rP rP yP gP wP", "rP"),
            [
                "Pair rP",
                "Triple rP rP",
                "Pawns3 yP gP",
                "Pawns3 yP wP",
                "Pawns3 gP wP",
                "Pawns4 yP gP wP"
            ]
        );
        assert_eq!(
            shapes("gH gH gH", "gH"),
            ["Quad gH gH gH"],
            "a Khap only makes the Khui"
        );
        assert_eq!(shapes("wA wE", "wK"), ["King", "KingAdvisorElephant wA wE"]);
        assert_eq!(
            shapes("yK yK yK yE", "yA"),
            Vec::<String>::new(),
            "a Khap of Kings is locked"
        );
        assert_eq!(
            shapes("rR rR rR rC", "rH"),
            Vec::<String>::new(),
            "Khap cards are locked"
        );
        assert_eq!(
            shapes("rR rC", "gH"),
            Vec::<String>::new(),
            "chows need one colour"
        );
    }

    #[test]
    fn melds_must_not_raise_trash() {
        // §4.8 scenario 5: the triple would leave gR gC yA (3 > 2)
        let hand = h("gH gH gR gC yA");
        assert_eq!(trash(hand), 2);
        let mut out = Melds::new();
        legal_melds(hand, c("gH"), &mut out);
        let names: Vec<String> = out.iter().map(|m| m.to_string()).collect();
        // the pair leaves gH gR gC yA (trash 1); the triple would leave gR gC yA (3 > 2)
        assert_eq!(names, ["Pair gH", "RookCannonHorse gR gC"]);
        assert!(!can_win(hand, c("gH")));
    }

    #[test]
    fn winning_meld_tie_break_prefers_the_first_kind() {
        // §3.6: holding rP rP yP gP wP and taking rP, Pair, Triple and Pawns4 all leave a hand
        // of equal value; the record names the first in canonical order.
        let (m, hv) =
            best_winning_meld_with(&Options::classic(4), h("rP rP yP gP wP"), c("rP"), 0, false)
                .unwrap();
        assert_eq!(m.to_string(), "Pair rP");
        assert_eq!(hv, 2);
    }

    #[test]
    fn winning_meld_prefers_higher_value_then_khui() {
        // rR rC rH + rR rR rR? no: a Khap of rH plus rH makes a Khui worth 6 against nothing else
        let (m, hv) =
            best_winning_meld_with(&Options::classic(4), h("rH rH rH rK"), c("rH"), 0, false)
                .unwrap();
        assert_eq!((m.kind, hv), (SetKind::Quad, 7));
    }

    #[test]
    fn rules_round_trip_and_bad_rules_are_named() {
        let mut o = Options::classic(3);
        o.first_player = 2;
        o.stock_floor = 9;
        assert_eq!(Options::from_rules("classic", &o.to_rules()), Ok(o));
        let mut r = o.to_rules();
        r.insert("colour".into(), 1.into());
        let e = Options::from_rules("classic", &r).unwrap_err();
        assert!(matches!(&e, RuleError::UnknownOf { key, .. } if key == "colour"));
        assert!(e.to_string().starts_with("rules: unknown option 'colour'"));
        let mut r = o.to_rules();
        r.insert("stock_floor".into(), "seven".into());
        let e = Options::from_rules("classic", &r).unwrap_err();
        assert!(matches!(&e, RuleError::Value { key, .. } if key == "stock_floor"));
        assert!(e.to_string().contains("'stock_floor'"));
        let mut r = o.to_rules();
        r.insert("worst_card_rule".into(), "OutsV2".into());
        let e = Options::from_rules("classic", &r).unwrap_err();
        assert!(matches!(&e, RuleError::Fixed { key, .. } if key == "worst_card_rule"));
        assert!(e.to_string().contains("not supported"));
    }

    #[test]
    fn can_win_shortcut_equals_the_search() {
        use crate::game::Game;
        let game = crate::games::tusac::OnePack::classic(4).unwrap();
        let mut wins = 0;
        for i in 0..5_000 {
            let s = game.deal(&mut crate::rng::stream_rng(2, i, 0));
            for seat in 0..4 {
                let mut h = s.private(seat);
                while !h.is_empty() {
                    for c in Card::all() {
                        assert_eq!(can_win(h, c), can_win_by_search(h, c), "{h} + {c}");
                        wins += usize::from(can_win(h, c));
                    }
                    let first = h.cards().nth((i as usize) % h.len()).unwrap();
                    h.remove(first);
                }
            }
        }
        assert!(wins > 1000);
    }

    #[test]
    fn table_discards_equal_the_definition() {
        let game = crate::games::tusac::OnePack::classic(4).unwrap();
        use crate::game::Game;
        for i in 0..20_000 {
            let s = game.deal(&mut crate::rng::stream_rng(1, i, 0));
            for seat in 0..4 {
                let mut h = s.private(seat);
                // shrink the hand card by card to cover every size
                while !h.is_empty() {
                    assert_eq!(legal_discards(h), legal_discards_by_definition(h), "{h}");
                    let first = h.cards().nth((i as usize) % h.len()).unwrap();
                    h.remove(first);
                }
            }
        }
    }

    #[test]
    fn discards_lower_trash_by_exactly_one_and_never_break_a_khap() {
        let hand = h("yK yK yK yA yE rR");
        let d: Vec<Card> = cards_of(legal_discards(hand)).collect();
        assert_eq!(d, [c("yA"), c("yE"), c("rR")]);
        // Kings are never legal discards
        assert_eq!(
            cards_of(legal_discards(h("rK gA"))).collect::<Vec<_>>(),
            [c("gA")]
        );
    }
}

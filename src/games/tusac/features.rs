//! Tứ Sắc's features of a candidate action, for rule lists (`rules:PATH`): computed from the
//! acting seat's view only (see [`crate::agent::features`]).
//!
//! A classic decision is a discard (`MustDiscard`, C7) or, in `TurnOption`, a meld of the active
//! card (C5) or its decline (`Draw` / `PassDrawn`, C6). 4sac adds the optional claim (a meld,
//! or `Pass`, a decline) and the exposed Pong upgrade (`Upgrade`, a meld of no private card
//! whose value is what the Kong adds to the Pong). The features come in families:
//! - the kind of action (`is_discard`, `is_meld`, `is_decline`), so a rule can target one;
//! - the situation, the same for every action of a decision (stock, own trash, the other
//!   seats' public Khap counts, card counts and discards);
//! - the discarded card: its outs and whether it is worst (§5, what `greedy` reads, and the
//!   penalty of §5.3), and what it may give the other seats (unseen copies, a forced Khui,
//!   the sets it could complete for them);
//! - the meld: its kind, size and value, and how safe the discard that must follow it can be;
//! - the private block once the action is done: trash, cards, value, pairs, and how many unseen
//!   cards would let it win or lower its trash.
//!
//! Type-specific features are 0 for actions of the other types. Everything is computed from the
//! view (own block, public sets, dead pile, stock size, counts, [`OnePackView::unseen`](super::onepack::view::OnePackView::unseen)) with table
//! lookups into fixed arrays: no heap allocation. The trash tables answer "what would this card
//! do to the block" per trash part (§3.2 item 5), so the work shared by a decision's actions is
//! done once: about 1 µs of CPU per decision on the positions of greedy games
//! (`time_features_per_decision` in `tests/tusac/tusac_features.rs`).

use crate::agent::features::FeatureInfo;

/// Declares the row slots (enum `F`) and [`FEATURES`] from one list, so their orders agree.
macro_rules! features {
    ($($slot:ident $name:literal $about:literal;)*) => {
        /// A feature's slot in a row, in the order of [`FEATURES`].
        #[derive(Copy, Clone)]
        pub(crate) enum F {
            $($slot),*
        }
        /// The features, in row order.
        pub const FEATURES: &[FeatureInfo] = &[$(FeatureInfo { name: $name, about: $about }),*];
    };
}

features! {
    IsDiscard "is_discard"
        "1 for a discard (MustDiscard, C7), else 0";
    IsMeld "is_meld"
        "1 for a meld of the active card (TurnOption, C5), else 0";
    IsDecline "is_decline"
        "1 for declining the active card (draw on a discard or passed draw, pass on one's own \
         draw, C6), else 0";
    ActiveSource "active_source"
        "situation: where the active card came from: 0 none (a discard decision), 1 the previous \
         seat's discard, 2 this seat's own draw (declining passes it to the next seat), 3 a draw \
         the previous seat passed; 0..3";
    DrawsLeft "draws_left"
        "situation: draws left before the game is drawn (stock size minus the floor of 7, §4.7), \
         cards; 0..64";
    TrashNow "trash_now"
        "situation: this seat's trash before the action (§3.1), cards; 0..21";
    OppKhaps "opp_khaps"
        "situation: Khaps the other seats hold in all (public counts, §1.4), count; 0..18";
    OppMinHand "opp_min_hand"
        "situation: fewest private cards held by another seat, cards; 0..21";
    OppMaxDiscards "opp_max_discards"
        "situation: most discards made by another seat (each lowered its trash by one, C7), \
         count; 0..20";
    Doubled "doubled"
        "situation: 1 if this seat owns a Quan or Khui, so that its win would pay double \
         (m = 2, §6.1), else 0";
    Rank "rank"
        "discard: rank of the card, 1 A, 2 E, 3 R, 4 C, 5 H, 6 P (Kings are never discarded); \
         0 for other actions";
    Outs "outs"
        "discard: the card's outs (§5.1): unseen copies of its partner types, cards; 0..~40; \
         0 for other actions";
    OutsOverMin "outs_over_min"
        "discard: outs minus the least outs among the legal discards, cards; 0 for a worst card \
         and for other actions; 0..~40";
    IsWorst "is_worst"
        "discard: 1 if the card is worst (§5.1, least outs; greedy discards one), so it can never \
         draw the penalty of §5.3; 0 otherwise and for other actions";
    UnseenSame "unseen_same"
        "discard: unseen copies of the card (in other hands or the stock), cards; 0..3; 0 for \
         other actions";
    DeadSame "dead_same"
        "discard: copies of the card already in the dead pile, cards; 0..3; 0 for other actions";
    KhuiChance "khui_chance"
        "discard: rough chance that another seat holds a Khap of the card and must make a Khui \
         of it (C2): when its 3 other copies are all unseen, 100 × opp_khaps / number of types \
         with 3 or more unseen copies, else 0; percent, 0..100; 0 for other actions";
    FeedCombos "feed_combos"
        "discard, or pass of one's own draw: ways the other seats could set the card given away \
         from unseen cards: its unseen copies (pair) plus, for each chow or pawn set holding it, \
         the product of the unseen copies of the set's other cards (+1 for a lone King); count, \
         0..116; 0 for other actions";
    MeldKind "meld_kind"
        "meld: kind of the set made, 1 King, 2 Pair, 3 Triple, 4 Quad, 5 KingAdvisorElephant, \
         6 RookCannonHorse, 7 Pawns3, 8 Pawns4; 0 for other actions";
    MeldCards "meld_cards"
        "meld: private cards the meld exposes with the active card, cards; 0..3; 0 for other \
         actions";
    MeldValue "meld_value"
        "meld: classic value of the set made (§2.5: Pair 0, Pawns4 2, Khui 6, others 1), points; \
         0..6; 0 for other actions";
    FollowupCombos "followup_combos"
        "meld: the least feed_combos among the discards legal after the meld (one must follow \
         it, C7), count; 0..116; 0 for other actions";
    TrashAfter "trash_after"
        "trash of the private block after the action (a discard lowers it by one, a meld by \
         0..3, a decline keeps it), cards; 0..21";
    TrashDrop "trash_drop"
        "trash_now minus trash_after: 1 for a discard, 0..3 for a meld, 0 for a decline; cards";
    CardsAfter "cards_after"
        "private cards after the action, cards; 0..21";
    ValueAfter "value_after"
        "hand value after the action: public sets (with the meld's) plus the best partition of \
         the private block among its least-trash ones (§3.6, a Khap 3), points; 0..~40";
    PairsAfter "pairs_after"
        "types held exactly twice in the private block after the action (each a chance of an \
         out-of-turn triple, C3), count; 0..10";
    WinOuts "win_outs"
        "unseen cards that would let this seat win as the active card (C1) once the action is \
         done: the block after a discard; after a meld, the most over the discards that may \
         follow it; after a decline, the block as it is; cards; 0..~60";
    ImproveOuts "improve_outs"
        "unseen cards a legal meld of which would lower this seat's trash, for the block as in \
         win_outs (most over the follow-up discards of a meld); cards; 0..~80";
}

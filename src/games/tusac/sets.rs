//! Set kinds (§2.1), how a list of cards is recognised as one under a variant's rules, and the
//! point values of every variant (§2.5).

use super::card::{Card, Colour, Rank, COLOURS};
use super::options::{KingIdenticalSets, Options, PointTable};
use arrayvec::ArrayVec;
use std::fmt;

/// The kind of a set, named as in §2.1 and ordered as that table (the order is the winning-meld
/// tie-break of §3.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SetKind {
    /// One King.
    King,
    /// Two identical cards.
    Pair,
    /// Three identical cards (a Khap when private).
    Triple,
    /// Four identical cards (a Quan when dealt, a Khui when melded).
    Quad,
    /// `cK cA cE` of one colour.
    KingAdvisorElephant,
    /// `cR cC cH` of one colour.
    RookCannonHorse,
    /// Three pawns of three different colours.
    Pawns3,
    /// Four pawns, one of each colour.
    Pawns4,
    /// Three cards of one rank other than K and P, in three colours (dirtyking26).
    Colours3,
    /// Four cards of one rank other than K and P, one of each colour (dirtyking26).
    Colours4,
    /// Four Kings, one of each colour (dirtyking26, dealt only).
    Kings4Colours,
    /// Four Kings neither all identical nor all different colours (dirtyking26, dealt only).
    Kings4Mixed,
}

impl SetKind {
    /// The identifier used in logs and JSON (the spec's name).
    pub const fn name(self) -> &'static str {
        match self {
            SetKind::King => "King",
            SetKind::Pair => "Pair",
            SetKind::Triple => "Triple",
            SetKind::Quad => "Quad",
            SetKind::KingAdvisorElephant => "KingAdvisorElephant",
            SetKind::RookCannonHorse => "RookCannonHorse",
            SetKind::Pawns3 => "Pawns3",
            SetKind::Pawns4 => "Pawns4",
            SetKind::Colours3 => "Colours3",
            SetKind::Colours4 => "Colours4",
            SetKind::Kings4Colours => "Kings4Colours",
            SetKind::Kings4Mixed => "Kings4Mixed",
        }
    }

    /// The kind of the set made of exactly these cards, if they form one (classic kinds); none
    /// for more than four cards (no set has more).
    pub fn of(cards: &[Card]) -> Option<SetKind> {
        let mut s: ArrayVec<Card, 4> = ArrayVec::try_from(cards).ok()?;
        s.sort();
        let same = s.windows(2).all(|w| w[0] == w[1]);
        let one_colour = s.iter().all(|c| c.colour() == s[0].colour());
        let ranks: ArrayVec<Rank, 4> = s.iter().map(|c| c.rank()).collect();
        let all_pawns = s.iter().all(|c| c.is_pawn());
        let distinct = s.windows(2).all(|w| w[0] != w[1]);
        match (s.len(), same) {
            (1, _) if s[0].is_king() => Some(SetKind::King),
            (2, true) => Some(SetKind::Pair),
            (3, true) => Some(SetKind::Triple),
            (4, true) => Some(SetKind::Quad),
            (3, false)
                if one_colour && ranks[..] == [Rank::King, Rank::Advisor, Rank::Elephant] =>
            {
                Some(SetKind::KingAdvisorElephant)
            }
            (3, false) if one_colour && ranks[..] == [Rank::Rook, Rank::Cannon, Rank::Horse] => {
                Some(SetKind::RookCannonHorse)
            }
            (3, false) if all_pawns && distinct => Some(SetKind::Pawns3),
            (4, false) if all_pawns && distinct => Some(SetKind::Pawns4),
            _ => None,
        }
    }
}

impl SetKind {
    /// The kind of the set made of exactly these cards under a variant's set rules (§2.1):
    /// King identical sets per `king_identical`, `Colours3/4` only with cross-colour sets, the
    /// King groups only when `king_groups`. `Kings4Mixed` is four Kings neither all identical
    /// nor all of different colours.
    pub fn of_with(cards: &[Card], rules: &SetRules) -> Option<SetKind> {
        if cards.is_empty() || cards.len() > 4 {
            return None;
        }
        let mut s: ArrayVec<Card, 4> = cards.iter().copied().collect();
        s.sort();
        let kings = s[0].is_king();
        let same_rank = s.iter().all(|c| c.rank() == s[0].rank());
        let identical = s.windows(2).all(|w| w[0] == w[1]);
        let distinct = s.windows(2).all(|w| w[0] != w[1]);
        let kind = if s.len() > 1 && identical {
            [SetKind::Pair, SetKind::Triple, SetKind::Quad][s.len() - 2]
        } else if kings && same_rank && s.len() == 4 {
            if distinct {
                SetKind::Kings4Colours
            } else {
                SetKind::Kings4Mixed
            }
        } else if same_rank && distinct && s.len() >= 3 && !kings {
            match (s[0].is_pawn(), s.len()) {
                (true, 3) => SetKind::Pawns3,
                (true, _) => SetKind::Pawns4,
                (false, 3) => SetKind::Colours3,
                (false, _) => SetKind::Colours4,
            }
        } else {
            match SetKind::of(&s)? {
                k @ (SetKind::King | SetKind::KingAdvisorElephant | SetKind::RookCannonHorse) => k,
                _ => return None,
            }
        };
        rules.allows(kind, kings).then_some(kind)
    }
}

impl fmt::Display for SetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a set's cards came from (§2.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// All cards were dealt to the holder.
    Dealt,
    /// The set contains a card taken as the active card.
    Melded,
}

/// Whether a set is exposed or still in the private block (§2.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// In the concealed hand.
    Private,
    /// Exposed on the table.
    Public,
    /// Dealt and set aside face down, locked (sisepai21, dirtyking26).
    FaceDown,
}

/// A set instance: its kind, cards, zone and origin. A plain `Copy` value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetInstance {
    /// The kind.
    pub kind: SetKind,
    cards: [Card; 4],
    len: u8,
    /// Private or public.
    pub zone: Zone,
    /// Dealt or melded.
    pub origin: Origin,
}

impl SetInstance {
    /// A set of `kind` made of `cards` (1 to 4 cards; stored in canonical order).
    pub fn new(kind: SetKind, cards: &[Card], zone: Zone, origin: Origin) -> SetInstance {
        let mut arr = [Card::default(); 4];
        arr[..cards.len()].copy_from_slice(cards);
        arr[..cards.len()].sort();
        SetInstance {
            kind,
            cards: arr,
            len: cards.len() as u8,
            zone,
            origin,
        }
    }

    /// The cards, canonical order.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// The classic point value of §2.5: Quan 8, Khui 6, Khap 3, public Triple 1, `Pawns4` 2,
    /// `Pair` 0, every other kind 1.
    pub fn classic_value(&self) -> u32 {
        classic_value(self.kind, self.zone, self.origin)
    }

    /// The classic special name (§2.2), if any: `Quan`, `Khui` or `Khap`.
    pub fn classic_name(&self) -> Option<&'static str> {
        match (self.kind, self.zone, self.origin) {
            (SetKind::Quad, _, Origin::Dealt) => Some("Quan"),
            (SetKind::Quad, _, Origin::Melded) => Some("Khui"),
            (SetKind::Triple, Zone::Private, _) => Some("Khap"),
            _ => None,
        }
    }
}

/// The point value of a set under a variant's table (§2.5), before dirtyking26's double-rank
/// doubling. `king_quad` marks a `Quad` of Kings (12 in dirtyking26). Kinds a table does not
/// know are worth 0.
pub const fn value(
    table: PointTable,
    kind: SetKind,
    zone: Zone,
    origin: Origin,
    king_quad: bool,
) -> u32 {
    use SetKind::*;
    let dealt = matches!(origin, Origin::Dealt);
    match table {
        PointTable::Classic => classic_value(kind, zone, origin),
        PointTable::FourSac => match kind {
            Pair => 0,
            Triple => 3,
            Quad if dealt => 8,
            Quad => 6,
            Pawns4 => 2,
            King | KingAdvisorElephant | RookCannonHorse | Pawns3 => 1,
            _ => 0,
        },
        PointTable::Sisepai21 | PointTable::DirtyKing26 => {
            let dirty = matches!(table, PointTable::DirtyKing26);
            match kind {
                Pair => 0,
                Triple if dealt => 3,
                Triple => 1,
                Quad if king_quad && dirty => 12,
                Quad if dealt => 8,
                Quad => 6,
                KingAdvisorElephant => 2,
                Pawns4 => 4,
                King | RookCannonHorse | Pawns3 => 1,
                Colours3 if dirty => 1,
                Colours4 if dirty => 4,
                Kings4Colours if dirty && dealt => 10,
                Kings4Mixed if dirty && dealt => 8,
                _ => 0,
            }
        }
    }
}

/// The classic point value of a set (§2.5).
pub const fn classic_value(kind: SetKind, zone: Zone, origin: Origin) -> u32 {
    match kind {
        SetKind::Pair => 0,
        SetKind::Triple => match zone {
            Zone::Private | Zone::FaceDown => 3,
            Zone::Public => 1,
        },
        SetKind::Quad => match origin {
            Origin::Dealt => 8,
            Origin::Melded => 6,
        },
        SetKind::Pawns4 => 2,
        _ => 1,
    }
}

impl fmt::Display for SetInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}]",
            super::card::format_cards(self.cards().iter().copied())
        )?;
        if let Some(name) = self.classic_name() {
            write!(f, "{name}")?;
        }
        Ok(())
    }
}

/// The pawn of colour `c`.
pub(crate) const fn pawn(c: Colour) -> Card {
    Card::new(c, Rank::Pawn)
}

/// The pawns of every colour except `missing`, canonical order.
pub(crate) fn pawns_without(missing: Colour) -> ArrayVec<Card, 3> {
    COLOURS
        .iter()
        .filter(|&&c| c != missing)
        .map(|&c| pawn(c))
        .collect()
}

/// Which sets a partition may use and how they score: from the options and the game's double rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SetRules {
    /// Which identical sets Kings form (§2.1).
    pub king_identical: KingIdenticalSets,
    /// `Colours3`/`Colours4` are sets (dirtyking26).
    pub cross_colour: bool,
    /// `Kings4Colours`/`Kings4Mixed` are sets (dirtyking26).
    pub king_groups: bool,
    /// The point table of §2.5.
    pub table: PointTable,
    /// The double rank (dirtyking26, §2.5 doubling), if any.
    pub double_rank: Option<Rank>,
}

impl SetRules {
    /// The set rules of these options, with the game's double rank (`None` without one).
    pub fn new(opts: &Options, double_rank: Option<Rank>) -> SetRules {
        SetRules {
            king_identical: opts.king_identical_sets,
            cross_colour: opts.cross_colour_sets,
            king_groups: opts.dealt_only_king_groups,
            table: opts.point_table,
            double_rank,
        }
    }

    /// Whether a set of `kind` (of Kings when `kings`) is a set under these rules (§2.1).
    pub(crate) const fn allows(&self, kind: SetKind, kings: bool) -> bool {
        use SetKind::*;
        match kind {
            Pair | Triple if kings => matches!(self.king_identical, KingIdenticalSets::All),
            Quad if kings => !matches!(self.king_identical, KingIdenticalSets::None),
            Colours3 | Colours4 => self.cross_colour,
            Kings4Colours | Kings4Mixed => self.king_groups,
            _ => true,
        }
    }

    /// A small number identifying these rules, for the solver caches' keys.
    pub(crate) fn tag(&self) -> u32 {
        let ki = self.king_identical as u32;
        let dr = self.double_rank.map_or(0, |r| r as u32 + 1);
        ki | (self.cross_colour as u32) << 2
            | (self.king_groups as u32) << 3
            | (self.table as u32) << 4
            | dr << 6
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tusac::card::parse_cards;

    fn kind(s: &str) -> Option<SetKind> {
        SetKind::of(&parse_cards(s, 4).unwrap())
    }

    #[test]
    fn set_kinds_follow_section_2_1() {
        assert_eq!(kind("rK"), Some(SetKind::King));
        assert_eq!(kind("rA"), None);
        assert_eq!(kind("rK rK"), Some(SetKind::Pair));
        assert_eq!(kind("yP yP yP"), Some(SetKind::Triple));
        assert_eq!(kind("gH gH gH gH"), Some(SetKind::Quad));
        assert_eq!(kind("rE rK rA"), Some(SetKind::KingAdvisorElephant));
        assert_eq!(kind("rK rA yE"), None);
        assert_eq!(kind("wH wR wC"), Some(SetKind::RookCannonHorse));
        assert_eq!(kind("wR wC gH"), None, "a chow needs one colour");
        assert_eq!(kind("rP yP wP"), Some(SetKind::Pawns3));
        assert_eq!(kind("rP rP yP"), None, "same-colour pawns are not Pawns3");
        assert_eq!(kind("rP yP gP wP"), Some(SetKind::Pawns4));
        assert_eq!(kind("rA rE"), None, "A/E without the King is not a set");
        assert_eq!(kind("rR rC"), None, "2-card chows are not sets");
    }
}

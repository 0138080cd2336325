//! The deal-measures capability: what `bailab deals` counts on a freshly dealt game
//! (`docs/deals.md`).

use crate::game::{Game, MAX_SEATS};

/// What `bailab deals` measures on a dealt game; a game without measures keeps the defaults.
pub trait DealMeasures: Game {
    /// What `bailab deals` measures on a dealt game (`docs/deals.md`); none by default.
    const DEAL_MEASURES: &'static [MeasureInfo] = &[];
    /// Writes the measures of a freshly dealt game into `out`, one row per entry of
    /// [`DealMeasures::DEAL_MEASURES`]: a per-hand measure fills slots `0..seats` (one per seat),
    /// a per-deal measure slot 0; a slot left at [`NOT_MEASURED`] is not counted (a measure that
    /// does not apply to that hand), a row left at [`NOT_APPLICABLE`] marks a measure the
    /// variant never takes. Never allocates.
    fn measure_deal(state: &Self::State, out: &mut [[i32; MAX_SEATS]]) {
        let _ = (state, out);
    }
}

/// Whether a deal measure is taken once per hand (seat) or once per deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Per {
    /// One value per seat.
    Hand,
    /// One value per deal.
    Deal,
}

impl Per {
    /// `hand` or `deal`, as in `distributions.csv`.
    pub const fn name(self) -> &'static str {
        match self {
            Per::Hand => "hand",
            Per::Deal => "deal",
        }
    }
}

/// A quantity `bailab deals` counts: an integer in `0..=max` per hand or per deal.
#[derive(Copy, Clone, Debug)]
pub struct MeasureInfo {
    /// The name in the CSV files (`trash`).
    pub name: &'static str,
    /// Per hand or per deal.
    pub per: Per,
    /// The largest value it can take (the counter keeps `max + 1` counts).
    pub max: u16,
    /// What it is, with the spec section.
    pub doc: &'static str,
}

impl MeasureInfo {
    /// A measure of each hand.
    pub const fn hand(name: &'static str, max: u16, doc: &'static str) -> MeasureInfo {
        MeasureInfo {
            name,
            per: Per::Hand,
            max,
            doc,
        }
    }

    /// A measure of the whole deal.
    pub const fn deal(name: &'static str, max: u16, doc: &'static str) -> MeasureInfo {
        MeasureInfo {
            name,
            per: Per::Deal,
            max,
            doc,
        }
    }
}

/// A measure slot that holds no value (the measure does not apply there).
pub const NOT_MEASURED: i32 = -1;

/// A measure row that does not apply to this game's variant at all (a one-pack Tứ Sắc measure
/// in a multi-pack deal, or the reverse): a measure left at it in every slot of every deal is
/// left out of `bailab deals`' files, so appending a variant's measures leaves the others'
/// files as they were.
pub const NOT_APPLICABLE: i32 = -2;

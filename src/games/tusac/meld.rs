//! A meld: the set kind a seat makes with the active card and the private cards it uses
//! (§4.2), shared by both rule cores, and the bound on the meld shapes of one active card.

use super::card::Card;
use super::options::PointTable;
use super::sets::{classic_value, value, Origin, SetKind, Zone};
use arrayvec::ArrayVec;
use std::fmt;

/// A meld: the set kind made and the private cards used; the active card completes it (§4.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Meld {
    /// The kind of set made.
    pub kind: SetKind,
    used: [Card; 3],
    len: u8,
}

impl Meld {
    /// A meld of `kind` with these private cards (canonical order is restored).
    pub fn new(kind: SetKind, used: &[Card]) -> Meld {
        let mut arr = [Card::default(); 3];
        arr[..used.len()].copy_from_slice(used);
        arr[..used.len()].sort();
        Meld {
            kind,
            used: arr,
            len: used.len() as u8,
        }
    }

    /// The private cards used.
    pub fn used(&self) -> &[Card] {
        &self.used[..self.len as usize]
    }

    /// The value of the public set this meld makes (§2.5: a melded Quad is a Khui).
    pub const fn value(&self) -> u32 {
        classic_value(self.kind, Zone::Public, Origin::Melded)
    }

    /// The value of the public set this meld makes under a point table (§2.5).
    pub(crate) const fn value_in(&self, table: PointTable) -> u32 {
        value(table, self.kind, Zone::Public, Origin::Melded, false)
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        for c in self.used() {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

/// The largest number of meld shapes for one active card: Pair + Triple, or one of King / Quad,
/// plus one chow, three `Pawns3` and one `Pawns4`.
pub(crate) const MAX_MELD_SHAPES: usize = 8;

/// Meld shapes, canonical order.
pub type Melds = ArrayVec<Meld, MAX_MELD_SHAPES>;

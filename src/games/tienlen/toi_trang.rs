//! The tới trắng conditions of §5.1 as values: their stable identifiers and sets of them (an
//! option, `toi_trang_lists`, and what a hand meets). Which ones a hand meets is
//! [`super::combo::toi_trang`].

/// The tới trắng conditions of §5.1, by their stable identifiers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToiTrang {
    /// Initial game: all four 3s.
    TuQuy3,
    /// Initial game: `3s`, another 3, two 4s, two 5s.
    BaDoiThongCo3Bich,
    /// Sảnh rồng: every rank 3..A.
    SanhRong,
    /// 6 đôi: Σ floor(count/2) ≥ 6.
    SauDoi,
    /// 5 đôi thông: five consecutive ranks in 3..A held twice.
    NamDoiThong,
    /// 4 sám: four ranks held three times.
    BonSam,
    /// 2 tứ quý: two ranks held four times.
    HaiTuQuy,
    /// Tứ quý heo: all four 2s.
    TuQuyHeo,
    /// 12 or 13 cards of one colour.
    DongMau,
}

impl ToiTrang {
    /// Every condition, initial list first, in the order of §5.1.
    pub const ALL: [ToiTrang; 9] = [
        ToiTrang::TuQuy3,
        ToiTrang::BaDoiThongCo3Bich,
        ToiTrang::SanhRong,
        ToiTrang::SauDoi,
        ToiTrang::NamDoiThong,
        ToiTrang::BonSam,
        ToiTrang::HaiTuQuy,
        ToiTrang::TuQuyHeo,
        ToiTrang::DongMau,
    ];
    /// The identifier of §5.1.
    pub const fn id(self) -> &'static str {
        match self {
            ToiTrang::TuQuy3 => "TuQuy3",
            ToiTrang::BaDoiThongCo3Bich => "BaDoiThongCo3Bich",
            ToiTrang::SanhRong => "SanhRong",
            ToiTrang::SauDoi => "SauDoi",
            ToiTrang::NamDoiThong => "NamDoiThong",
            ToiTrang::BonSam => "BonSam",
            ToiTrang::HaiTuQuy => "HaiTuQuy",
            ToiTrang::TuQuyHeo => "TuQuyHeo",
            ToiTrang::DongMau => "DongMau",
        }
    }
    /// The condition with this identifier.
    pub(crate) fn from_id(id: &str) -> Option<ToiTrang> {
        ToiTrang::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// A set of tới trắng conditions (bit = position in [`ToiTrang::ALL`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ToiTrangSet(pub u16);

impl ToiTrangSet {
    /// No condition.
    pub const EMPTY: ToiTrangSet = ToiTrangSet(0);
    /// Every condition.
    pub const ALL: ToiTrangSet = ToiTrangSet(0x1FF);
    /// The initial-game list (§5.1).
    pub const INITIAL: ToiTrangSet = ToiTrangSet(0b11);
    /// The normal-game list (§5.1).
    pub(crate) const GENERAL: ToiTrangSet = ToiTrangSet(0x1FC);
    /// True when `t` is in the set.
    pub const fn contains(self, t: ToiTrang) -> bool {
        self.0 >> t as u16 & 1 == 1
    }
    /// The set with `t` added.
    #[must_use]
    pub const fn with(self, t: ToiTrang) -> ToiTrangSet {
        ToiTrangSet(self.0 | 1 << t as u16)
    }
    /// Intersection.
    #[must_use]
    pub const fn inter(self, o: ToiTrangSet) -> ToiTrangSet {
        ToiTrangSet(self.0 & o.0)
    }
    /// True when empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The first condition in §5.1 order.
    pub fn first(self) -> Option<ToiTrang> {
        self.iter().next()
    }
    /// The conditions in §5.1 order.
    pub fn iter(self) -> impl Iterator<Item = ToiTrang> {
        ToiTrang::ALL.into_iter().filter(move |&t| self.contains(t))
    }
}

//! The rule options of §7 and the four variant presets (`classic`, `4sac`, `sisepai21`,
//! `dirtyking26`). Each rule of the engine reads its option where it is applied.
//!
//! The engine has two rule cores behind one game: the one-pack core (trash with the Khap lock,
//! §3.1; classic and 4sac) and the multi-pack core (loose cards, §3.3; sisepai21 and
//! dirtyking26). [`Options::core`] says which one a set of options runs on.

/// What happens to four identical dealt cards (§1.4 step 3, option `dealt_quad`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DealtQuad {
    /// Exposed at once as a Quan (classic).
    ExposeQuan,
    /// Exposed at once as a dealt Kong (4sac; scores as a Quan does).
    ExposeKong,
    /// Non-King quadruples go to the locked face-down block (sisepai21, dirtyking26).
    FaceDownLocked,
}

/// Which discards are legal (option `discard_rule`, §4.4 C7, §4.5, §4.6 S6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DiscardRule {
    /// A card outside the Khaps that lowers trash by exactly one (classic C7).
    ReduceTrashByOne,
    /// Any private card that is not a King (4sac, sisepai21, dirtyking26).
    AnyNonKing,
}

/// Whether an out-of-turn Khui/Kong or pair claim is forced or offered (options `khui_rule`,
/// `pair_claim_rule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClaimRule {
    /// The engine makes the claim (classic C2, C3).
    Forced,
    /// The seat is asked and may pass (4sac F2, Sisepai S2).
    Optional,
}

/// What becomes of an own draw its drawer declines (option `passed_draw`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PassedDraw {
    /// The next seat may meld it with any set kind (classic C6).
    AnySet,
    /// The next seat may meld it only as a chow, `Pawns4` or `Pair` (4sac F5).
    ChowPawnsOrPair,
    /// No passed draw: the drawer discards the drawn card (Sisepai S4).
    DrawerDiscards,
}

/// How a drawn King is handled (option `drawn_king`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawnKing {
    /// An ordinary card: anyone may take it by the usual rules (classic).
    Ordinary,
    /// Win or Kong by anyone; the drawer may take it (lone or KAE); the next seat KAE only (4sac).
    WinKongThenDrawer,
    /// Win calls, then (dirtyking26) the King Quad claim, then the drawer's forced lone meld;
    /// never in a KAE (Sisepai S1).
    WinCallsThenForcedLone,
}

/// Which identical sets Kings may form (option `king_identical_sets`, §2.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KingIdenticalSets {
    /// Pair, Triple and Quad of Kings (classic, 4sac).
    All,
    /// None (sisepai21).
    None,
    /// Only the Quad of Kings, worth 12 (dirtyking26).
    QuadOnly,
}

/// The point table of §2.5 (option `point_table`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PointTable {
    /// Classic values.
    Classic,
    /// 4sac values (a Pong is 3 in hand or exposed).
    FourSac,
    /// sisepai21 dealt / melded values.
    Sisepai21,
    /// dirtyking26 dealt / melded values, with double-rank doubling.
    DirtyKing26,
}

/// The win test of §4.7 (option `win_test`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinTest {
    /// Trash 0 (classic, 4sac).
    TrashZero,
    /// A complete hand worth more than 9 in all (sisepai21).
    CompleteOver9,
    /// A complete hand with some partition worth more than 20 and even in all (dirtyking26).
    CompleteOver20Even,
}

/// The payout rule of §6 (option `payout`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Payout {
    /// `m·(base + hv) + flat` with Quan/Khui/Khap side payments (§6.1).
    Classic,
    /// `k·WP − kong_L` (§6.2).
    KongDeduction,
    /// `k·WP` (§6.3, §6.4).
    Points,
}

/// The rule core a set of options runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Core {
    /// One pack, trash with the Khap lock (§3.1): classic and 4sac.
    OnePack,
    /// Several packs, loose cards (§3.3): sisepai21 and dirtyking26.
    MultiPack,
}

/// Every rule option of §7. A `Copy` value held by each state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The variant's name (the preset the options started from).
    pub variant: &'static str,
    /// Number of players (classic and 4sac 2–4, Sisepai 2–8).
    pub players: u8,
    /// The first player `F` (§1.2).
    pub first_player: u8,
    /// Packs shuffled together (§1.1): 1, or `max(2, ceil(n/2))` for Sisepai.
    pub decks: u8,
    /// Cards dealt to each player; `F` gets one more (§1.3).
    pub hand_size: u8,
    /// Deals where some seat holds neither a non-King triple nor a King are redealt (§1.4 step 1).
    pub redeal_dead_hands: bool,
    /// A double rank is drawn from the bottom of the stock (§1.4 step 2).
    pub double_rank: bool,
    /// What happens to dealt quadruples (§1.4 step 3).
    pub dealt_quad: DealtQuad,
    /// `F` wins at once with a complete dealt hand (§1.4 step 5).
    pub natural_win_for_first: bool,
    /// Which identical sets Kings form (§2.1).
    pub king_identical_sets: KingIdenticalSets,
    /// `Colours3`/`Colours4` of any non-King rank are sets (dirtyking26, §2.1).
    pub cross_colour_sets: bool,
    /// The dealt-only King groups `Kings4Colours` (10) and `Kings4Mixed` (8) are sets (§2.5).
    pub dealt_only_king_groups: bool,
    /// The point table (§2.5).
    pub point_table: PointTable,
    /// Private identical triples are locked (§3.1).
    pub khap_lock: bool,
    /// No meld may raise the melder's trash (§4.4 LegalMelds (b), §4.5).
    pub meld_must_not_raise_trash: bool,
    /// Which discards are legal.
    pub discard_rule: DiscardRule,
    /// Out-of-turn Khui / Kong claims (§4.4 C2, §4.5 F2, §4.6 S2).
    pub khui_rule: ClaimRule,
    /// Out-of-turn pair (triple) claims (§4.4 C3, §4.5 F2, §4.6 S2).
    pub pair_claim_rule: ClaimRule,
    /// C3 pair priority does not bind the turn player (§4.4).
    pub pair_priority_excludes_turn_player: bool,
    /// C3's waiting-pair exception is in force (§4.4).
    pub pair_waiting_exception: bool,
    /// A declined own draw (§4.4 C6, §4.5 F5, §4.6 S4).
    pub passed_draw: PassedDraw,
    /// How a drawn King is handled (§4.5, §4.6 S1).
    pub drawn_king: DrawnKing,
    /// A drawer may add its own drawn card to its exposed Triple (4sac F3).
    pub exposed_triple_upgrade: bool,
    /// A `Pair` meld needs more than this many current points (§4.6 S5); `None`: no gate.
    pub pair_meld_min_points: Option<u8>,
    /// The win test (§4.7).
    pub win_test: WinTest,
    /// No draw may take the stock below this many cards (§4.7).
    pub stock_floor: u8,
    /// Times the dead pile may be shuffled into a new stock (§4.7).
    pub reshuffles: u8,
    /// The payout rule (§6).
    pub payout: Payout,
    /// `m` when the winner owns a Quan or Khui (§6.1).
    pub quan_khui_multiplier: i64,
    /// `base` of `Wamt = m·(base + hv) + flat` (§6.1).
    pub base: i64,
    /// `flat` of `Wamt` (§6.1).
    pub flat: i64,
    /// `k` of `k·WP` (§6.2–6.4).
    pub points_multiplier: i64,
    /// A loser's `k·WP − kong_L` is floored at 0 (§6.2).
    pub kong_deduction_floor_zero: bool,
    /// The worst-card penalty of §5.3 is in force.
    pub worst_card_penalty: bool,
}

impl Options {
    /// The `classic` preset for `players` players (§7).
    pub const fn classic(players: u8) -> Options {
        Options {
            variant: "classic",
            players,
            first_player: 0,
            decks: 1,
            hand_size: 20,
            redeal_dead_hands: false,
            double_rank: false,
            dealt_quad: DealtQuad::ExposeQuan,
            natural_win_for_first: true,
            king_identical_sets: KingIdenticalSets::All,
            cross_colour_sets: false,
            dealt_only_king_groups: false,
            point_table: PointTable::Classic,
            khap_lock: true,
            meld_must_not_raise_trash: true,
            discard_rule: DiscardRule::ReduceTrashByOne,
            khui_rule: ClaimRule::Forced,
            pair_claim_rule: ClaimRule::Forced,
            pair_priority_excludes_turn_player: true,
            pair_waiting_exception: true,
            passed_draw: PassedDraw::AnySet,
            drawn_king: DrawnKing::Ordinary,
            exposed_triple_upgrade: false,
            pair_meld_min_points: None,
            win_test: WinTest::TrashZero,
            stock_floor: 7,
            reshuffles: 0,
            payout: Payout::Classic,
            quan_khui_multiplier: 2,
            base: 3,
            flat: 10,
            points_multiplier: 1,
            kong_deduction_floor_zero: false,
            worst_card_penalty: true,
        }
    }

    /// The `4sac` preset (§4.5, §6.2, §7).
    pub const fn four_sac(players: u8) -> Options {
        Options {
            variant: "4sac",
            dealt_quad: DealtQuad::ExposeKong,
            point_table: PointTable::FourSac,
            discard_rule: DiscardRule::AnyNonKing,
            khui_rule: ClaimRule::Optional,
            pair_claim_rule: ClaimRule::Optional,
            pair_waiting_exception: false,
            passed_draw: PassedDraw::ChowPawnsOrPair,
            drawn_king: DrawnKing::WinKongThenDrawer,
            exposed_triple_upgrade: true,
            stock_floor: 6,
            payout: Payout::KongDeduction,
            worst_card_penalty: false,
            ..Options::classic(players)
        }
    }

    /// The `sisepai21` preset (§4.6, §6.3, §7).
    pub const fn sisepai21(players: u8) -> Options {
        Options {
            variant: "sisepai21",
            decks: Options::sisepai_decks(players),
            redeal_dead_hands: true,
            dealt_quad: DealtQuad::FaceDownLocked,
            king_identical_sets: KingIdenticalSets::None,
            point_table: PointTable::Sisepai21,
            khap_lock: false,
            meld_must_not_raise_trash: false,
            discard_rule: DiscardRule::AnyNonKing,
            khui_rule: ClaimRule::Optional,
            pair_claim_rule: ClaimRule::Optional,
            pair_waiting_exception: false,
            passed_draw: PassedDraw::DrawerDiscards,
            drawn_king: DrawnKing::WinCallsThenForcedLone,
            pair_meld_min_points: Some(9),
            win_test: WinTest::CompleteOver9,
            stock_floor: 0,
            reshuffles: 1,
            payout: Payout::Points,
            worst_card_penalty: false,
            ..Options::classic(players)
        }
    }

    /// The `dirtyking26` preset (§4.6, §6.4, §7).
    pub const fn dirtyking26(players: u8) -> Options {
        Options {
            variant: "dirtyking26",
            hand_size: 25,
            double_rank: true,
            king_identical_sets: KingIdenticalSets::QuadOnly,
            cross_colour_sets: true,
            dealt_only_king_groups: true,
            point_table: PointTable::DirtyKing26,
            pair_meld_min_points: Some(20),
            win_test: WinTest::CompleteOver20Even,
            ..Options::sisepai21(players)
        }
    }

    /// The preset of a variant by name.
    pub fn preset(variant: &str, players: u8) -> Result<Options, String> {
        match variant {
            "classic" => Ok(Options::classic(players)),
            "4sac" => Ok(Options::four_sac(players)),
            "sisepai21" => Ok(Options::sisepai21(players)),
            "dirtyking26" => Ok(Options::dirtyking26(players)),
            _ => Err(format!(
                "unknown variant '{variant}' of tusac (known: classic, 4sac, sisepai21, dirtyking26)"
            )),
        }
    }

    /// Packs for a Sisepai table of `players` (§1.1): 2 up to 4 players, `ceil(n/2)` above.
    pub const fn sisepai_decks(players: u8) -> u8 {
        let half = players.div_ceil(2);
        if half < 2 {
            2
        } else {
            half
        }
    }

    /// The rule core these options run on.
    pub const fn core(&self) -> Core {
        if self.khap_lock {
            Core::OnePack
        } else {
            Core::MultiPack
        }
    }

    /// Copies of each card type in play (`4 × decks`, §1.1).
    pub const fn copies(&self) -> u8 {
        4 * self.decks
    }

    /// Cards in play (`112 × decks`).
    pub const fn deck_len(&self) -> usize {
        112 * self.decks as usize
    }

    /// Every rule option in force as `name → value` (records, §7 names).
    pub fn to_rules(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        let mut put = |k: &str, v: serde_json::Value| {
            m.insert(k.to_string(), v);
        };
        put("players", self.players.into());
        put("first_player", self.first_player.into());
        put("hand_size", self.hand_size.into());
        put("stock_floor", self.stock_floor.into());
        put("natural_win_for_first", self.natural_win_for_first.into());
        put(
            "pair_priority_excludes_turn_player",
            self.pair_priority_excludes_turn_player.into(),
        );
        put("pair_waiting_exception", self.pair_waiting_exception.into());
        put("pair_exception_same_colour", true.into());
        put("worst_card_penalty", self.worst_card_penalty.into());
        put("worst_card_rule", "OutsV1".into());
        put("quan_khui_multiplier", self.quan_khui_multiplier.into());
        put("base", self.base.into());
        put("flat", self.flat.into());
        m
    }

    /// Options from a `name → value` map as written by [`Options::to_rules`], starting from the
    /// `variant` preset. Unknown names, wrong types and values the engine cannot run are errors.
    pub fn from_rules(
        variant: &str,
        rules: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Options, String> {
        if variant != "classic" {
            return Err(format!(
                "variant '{variant}' is not implemented (known: classic)"
            ));
        }
        let players = rules
            .get("players")
            .and_then(|v| v.as_u64())
            .ok_or("rules: 'players' is missing")?;
        let mut o = Options::classic(players as u8);
        let preset = o.to_rules();
        for (k, v) in rules {
            let bad = || format!("rules: '{k}' = {v} is not a valid value");
            let int = || v.as_i64().ok_or_else(bad);
            let small = || int().and_then(|x| u8::try_from(x).map_err(|_| bad()));
            let flag = || v.as_bool().ok_or_else(bad);
            match k.as_str() {
                "players" => o.players = small()?,
                "first_player" => o.first_player = small()?,
                "hand_size" => o.hand_size = small()?,
                "stock_floor" => o.stock_floor = small()?,
                "natural_win_for_first" => o.natural_win_for_first = flag()?,
                "pair_priority_excludes_turn_player" => {
                    o.pair_priority_excludes_turn_player = flag()?
                }
                "pair_waiting_exception" => o.pair_waiting_exception = flag()?,
                "worst_card_penalty" => o.worst_card_penalty = flag()?,
                "quan_khui_multiplier" => o.quan_khui_multiplier = int()?,
                "base" => o.base = int()?,
                "flat" => o.flat = int()?,
                "pair_exception_same_colour" | "worst_card_rule" if preset.get(k) == Some(v) => {}
                "pair_exception_same_colour" | "worst_card_rule" => {
                    return Err(format!(
                        "rules: '{k}' = {v} is not supported (the engine runs {})",
                        preset[k]
                    ));
                }
                _ => return Err(format!("rules: unknown option '{k}'")),
            }
        }
        if o.hand_size != 20 {
            return Err(format!(
                "rules: hand_size {} is not supported for classic (20)",
                o.hand_size
            ));
        }
        Ok(o)
    }
}

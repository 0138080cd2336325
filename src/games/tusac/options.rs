//! The rule options of §7 and the four variant presets (`classic`, `4sac`, `sisepai21`,
//! `dirtyking26`). Each rule of the engine reads its option where it is applied.
//!
//! The engine has two rule cores behind one game: the one-pack core (trash with the Khap lock,
//! §3.1; classic and 4sac) and the multi-pack core (loose cards, §3.3; sisepai21 and
//! dirtyking26). [`Options::core`] says which one a set of options runs on.
//!
//! Options are read and written by their §7 names ([`OPTIONS`], `to_rules` / `from_rules`), and
//! [`Options::validate`] checks a combination against what each core honours ([`CORE_TABLE`]).

use crate::game::RuleMap;
use crate::games::kind::{RuleDoc, RuleError, TableError, ValueError};
pub use crate::games::rule_table::Named;
use crate::games::rule_table::{self, int, named, rule_option, RuleOption};
use serde_json::Value;

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
    pub fn preset(variant: &str, players: u8) -> Result<Options, RuleError> {
        match variant {
            "classic" => Ok(Options::classic(players)),
            "4sac" => Ok(Options::four_sac(players)),
            "sisepai21" => Ok(Options::sisepai21(players)),
            "dirtyking26" => Ok(Options::dirtyking26(players)),
            _ => Err(RuleError::Table(TableError::UnknownVariant {
                variant: variant.to_string(),
                game: "tusac",
                known: "classic, 4sac, sisepai21, dirtyking26".to_string(),
            })),
        }
    }

    /// Packs for a Sisepai table of `players` (§1.1): 2 up to 4 players, `ceil(n/2)` above.
    pub(crate) const fn sisepai_decks(players: u8) -> u8 {
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

    /// Every rule option in force as `name → value` (records, `bailab rules`): each field of
    /// [`OPTIONS`] by its §7 name, then the fixed readings of `FIXED`.
    pub fn to_rules(&self) -> RuleMap {
        let mut m = rule_table::to_rules(OPTIONS, self);
        for x in FIXED {
            m.insert(x.name.to_string(), x.value.json());
        }
        m
    }

    /// Options from a `name → value` map as written by [`Options::to_rules`], starting from the
    /// `variant` preset for the map's `players`: a key not given keeps the preset's value (so
    /// records written with fewer keys still load). Unknown names, wrong types and bad values
    /// are errors naming the key and the accepted values; the result is [`Options::validate`]d.
    pub fn from_rules(variant: &str, rules: &RuleMap) -> Result<Options, RuleError> {
        let players = rules
            .get("players")
            .ok_or(RuleError::Missing { key: "players" })?;
        let n = int::<u8>(players, 0, 255).map_err(|reason| RuleError::Value {
            key: "players".to_string(),
            value: players.clone(),
            reason,
        })?;
        let mut o = Options::preset(variant, n)?;
        for (k, v) in rules {
            o.set(k, v)?;
        }
        o.validate()?;
        Ok(o)
    }

    /// Sets one option by its §7 name (or an alias of `ALIASES`) from its JSON value. Errors
    /// name the key and the accepted values; combinations are checked by
    /// [`Options::validate`], not here.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<(), RuleError> {
        let key = ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name, |&(_, key)| key);
        if let Some(done) = rule_table::set(OPTIONS, self, key, name, value) {
            return done;
        }
        if let Some(x) = FIXED.iter().find(|x| x.name == key) {
            if x.value.json() == *value {
                return Ok(());
            }
            return Err(RuleError::Fixed {
                key: name.to_string(),
                value: value.clone(),
                runs: x.value.json(),
                section: x.section,
            });
        }
        let known = rule_table::names(OPTIONS);
        let fixed: Vec<&str> = FIXED.iter().map(|x| x.name).collect();
        Err(RuleError::UnknownOf {
            key: name.to_string(),
            known: known.join(", "),
            fixed: fixed.join(", "),
        })
    }

    /// Checks that the engine can honour these options: the player count, the first player,
    /// enough cards for the deal and the stock floor, and every option against the values its
    /// rule core runs ([`CORE_TABLE`]). Errors name the options and what would work instead.
    pub fn validate(&self) -> Result<(), RuleError> {
        let core = self.core();
        if let Some(row) = CORE_TABLE.iter().find(|r| !r.honours(core, self)) {
            return Err(RuleError::Unsupported(row.error(self, core)));
        }
        if self.first_player >= self.players {
            return Err(RuleError::Unsupported(format!(
                "rules: 'first_player' = {} is not a seat of {} players (seats 0 to {})",
                self.first_player,
                self.players,
                self.players - 1
            )));
        }
        let dealt = usize::from(self.players) * usize::from(self.hand_size) + 1;
        let need = dealt + usize::from(self.stock_floor);
        if need > self.deck_len() {
            return Err(RuleError::Unsupported(format!(
                "rules: 'players' = {}, 'hand_size' = {} and 'stock_floor' = {} need {need} cards \
                 ({dealt} dealt, then the stock floor), but 'decks' = {} holds {}; lower \
                 hand_size or stock_floor{}",
                self.players,
                self.hand_size,
                self.stock_floor,
                self.decks,
                self.deck_len(),
                if core == Core::MultiPack {
                    ", or raise decks"
                } else {
                    ""
                }
            )));
        }
        Ok(())
    }
}

named!(DealtQuad: ExposeQuan, ExposeKong, FaceDownLocked);
named!(DiscardRule: ReduceTrashByOne, AnyNonKing);
named!(ClaimRule: Forced, Optional);
named!(PassedDraw: AnySet, ChowPawnsOrPair, DrawerDiscards);
named!(DrawnKing: Ordinary, WinKongThenDrawer, WinCallsThenForcedLone);
named!(KingIdenticalSets: All, None, QuadOnly);
named!(PointTable: Classic, FourSac, Sisepai21, DirtyKing26);
named!(WinTest: TrashZero, CompleteOver9, CompleteOver20Even);
named!(Payout: Classic, KongDeduction, Points);

/// A points gate: an integer 0 to 255, or `"none"`.
fn gate(v: &Value) -> Result<Option<u8>, ValueError> {
    if v.as_str() == Some("none") {
        return Ok(None);
    }
    int(v, 0, 255)
        .map(Some)
        .map_err(|_| ValueError::Expected("expected an integer 0 to 255 or \"none\""))
}

/// Every field of [`Options`] as a rule option, in the order of §7.
pub const OPTIONS: &[RuleOption<Options>] = &[
    rule_option!("players", "§1.2", "number of players (classic, 4sac 2–4; sisepai21, dirtyking26 2–8)", players, int 0..=255),
    rule_option!("first_player", "§1.2", "the seat F that is dealt the extra card and discards first", first_player, int 0..=255),
    rule_option!("decks", "§1.1", "packs of 112 cards shuffled together (Sisepai: max(2, ceil(n/2)))", decks, int 1..=4),
    rule_option!("hand_size", "§1.3", "cards dealt to each player; F gets one more", hand_size, int 0..=255),
    rule_option!("redeal_dead_hands", "§1.4 step 1", "redeal when a seat holds neither a non-King triple nor a King", redeal_dead_hands, flag),
    rule_option!("double_rank", "§1.4 step 2", "a double rank is drawn from the bottom of the stock (Kings skipped)", double_rank, flag),
    rule_option!("dealt_quad", "§1.4 step 3", "four identical dealt cards: ExposeQuan, ExposeKong or FaceDownLocked", dealt_quad, named),
    rule_option!("natural_win_for_first", "§1.4 step 5", "F wins at once with a complete dealt hand (§7: natural_win_for_F)", natural_win_for_first, flag),
    rule_option!("king_identical_sets", "§2.1", "identical sets of Kings: All, None or QuadOnly", king_identical_sets, named),
    rule_option!("cross_colour_sets", "§2.1", "Colours3/Colours4 of any non-King rank are sets", cross_colour_sets, flag),
    rule_option!("dealt_only_king_groups", "§2.5", "Kings4Colours (10) and Kings4Mixed (8) are sets when dealt", dealt_only_king_groups, flag),
    rule_option!("point_table", "§2.5", "the point table: Classic, FourSac, Sisepai21 or DirtyKing26", point_table, named),
    rule_option!("khap_lock", "§3.1", "private identical triples are locked (true: the one-pack core with trash; false: the multi-pack core with loose cards, §3.3)", khap_lock, flag),
    rule_option!("meld_must_not_raise_trash", "§4.4, §4.5", "no meld may raise the melder's trash", meld_must_not_raise_trash, flag),
    rule_option!("discard_rule", "§4.4 C7, §4.5, §4.6 S6", "legal discards: ReduceTrashByOne or AnyNonKing", discard_rule, named),
    rule_option!("khui_rule", "§4.4 C2, §4.5 F2, §4.6 S2", "out-of-turn Khui/Kong/Quad claims: Forced or Optional", khui_rule, named),
    rule_option!("pair_claim_rule", "§4.4 C3, §4.5 F2, §4.6 S2", "out-of-turn pair (Triple/Pong) claims: Forced or Optional", pair_claim_rule, named),
    rule_option!("pair_priority_excludes_turn_player", "§4.4 C3", "C3 pair priority does not bind the turn player T (§7: pair_priority_excludes_T)", pair_priority_excludes_turn_player, flag),
    rule_option!("pair_waiting_exception", "§4.4 C3", "a seat waiting on two trash cards of one colour is exempt from C3", pair_waiting_exception, flag),
    rule_option!("passed_draw", "§4.4 C6, §4.5 F5, §4.6 S4", "a declined own draw: AnySet, ChowPawnsOrPair or DrawerDiscards", passed_draw, named),
    rule_option!("drawn_king", "§4.5, §4.6 S1", "a drawn King: Ordinary, WinKongThenDrawer or WinCallsThenForcedLone", drawn_king, named),
    rule_option!("exposed_triple_upgrade", "§4.5 F3", "a drawer may add its own drawn card to its exposed Triple", exposed_triple_upgrade, flag),
    rule_option!("pair_meld_min_points", "§4.6 S5", "a Pair meld needs more than this many current points, or \"none\"", get: |o| o.pair_meld_min_points.map_or("none".into(), Value::from),
        set: |o, v| gate(v).map(|x| o.pair_meld_min_points = x)),
    rule_option!("win_test", "§4.7", "the win test: TrashZero, CompleteOver9 or CompleteOver20Even", win_test, named),
    rule_option!("stock_floor", "§4.7", "no draw may take the stock below this many cards; the game is drawn there", stock_floor, int 0..=255),
    rule_option!("reshuffles", "§4.7", "times the dead pile may become a new stock", reshuffles, int 0..=255),
    rule_option!("payout", "§6", "the payout rule: Classic (m·(base + hv) + flat), KongDeduction (k·WP − kong_L) or Points (k·WP)", payout, named),
    rule_option!("quan_khui_multiplier", "§6.1", "m when the winner owns a Quan or Khui (no stacking)", quan_khui_multiplier, int 0..=1000),
    rule_option!("base", "§6.1", "base of m·(base + hv) + flat", base, int -1000..=1000),
    rule_option!("flat", "§6.1", "flat of m·(base + hv) + flat", flat, int -1000..=1000),
    rule_option!("points_multiplier", "§6.2–6.4", "k of k·WP", points_multiplier, int 0..=1000),
    rule_option!("kong_deduction_floor_zero", "§6.2", "a loser's k·WP − kong_L is floored at 0", kong_deduction_floor_zero, flag),
    rule_option!("worst_card_penalty", "§5.3", "the worst-card penalty is in force", worst_card_penalty, flag),
];

/// The explanation of every option and fixed reading, for `bailab rules`.
pub fn rule_docs() -> Vec<RuleDoc> {
    let options = OPTIONS.iter().map(|f| RuleDoc {
        name: f.name,
        section: f.section,
        doc: f.doc,
    });
    let fixed = FIXED.iter().map(|x| RuleDoc {
        name: x.name,
        section: x.section,
        doc: x.doc,
    });
    options.chain(fixed).collect()
}

/// Other names accepted for an option: the §7 table's spelling where the engine's differs.
pub(crate) const ALIASES: &[(&str, &str)] = &[
    ("natural_win_for_F", "natural_win_for_first"),
    (
        "pair_priority_excludes_T",
        "pair_priority_excludes_turn_player",
    ),
];

/// The value of a fixed reading.
#[derive(Copy, Clone, Debug)]
pub(crate) enum FixedValue {
    /// A flag.
    Flag(bool),
    /// A name.
    Name(&'static str),
}

impl FixedValue {
    /// As JSON.
    pub(crate) fn json(self) -> Value {
        match self {
            FixedValue::Flag(b) => b.into(),
            FixedValue::Name(s) => s.into(),
        }
    }
}

/// A §7 reading the engine runs in one way only: written in records, accepted at that value.
#[derive(Copy, Clone, Debug)]
pub(crate) struct FixedFact {
    /// The §7 name.
    pub name: &'static str,
    /// The only value the engine runs.
    pub value: FixedValue,
    /// The spec section.
    pub section: &'static str,
    /// A one-line explanation.
    pub doc: &'static str,
}

/// The fixed readings written beside the options (records before this table had them too).
pub(crate) const FIXED: &[FixedFact] = &[
    FixedFact {
        name: "pair_exception_same_colour",
        value: FixedValue::Flag(true),
        section: "§4.4 C3",
        doc: "the waiting-pair exception needs the two trash cards to be the same colour",
    },
    FixedFact {
        name: "worst_card_rule",
        value: FixedValue::Name("OutsV1"),
        section: "§5.1",
        doc: "the worst card is the one with the fewest outs",
    },
];

/// One row of the core table: an option and the values each rule core honours.
#[derive(Copy, Clone)]
pub struct CoreRow {
    /// The option (a name of [`OPTIONS`]).
    pub option: &'static str,
    /// Whether the one-pack core honours the value.
    pub one_pack: fn(&Options) -> bool,
    /// The values it honours, for messages and docs.
    pub(crate) one_pack_values: &'static str,
    /// Whether the multi-pack core honours the value.
    pub multi_pack: fn(&Options) -> bool,
    /// The values it honours.
    pub(crate) multi_pack_values: &'static str,
}

impl CoreRow {
    /// Whether `core` honours this option's value in `o`.
    pub(crate) fn honours(&self, core: Core, o: &Options) -> bool {
        match core {
            Core::OnePack => (self.one_pack)(o),
            Core::MultiPack => (self.multi_pack)(o),
        }
    }

    /// The error for a value `core` does not honour: what works in this core, and whether the
    /// other core would take it.
    fn error(&self, o: &Options, core: Core) -> String {
        let value = plain(&o.to_rules()[self.option]);
        let (here, other, other_core) = match core {
            Core::OnePack => (self.one_pack_values, self.multi_pack, Core::MultiPack),
            Core::MultiPack => (self.multi_pack_values, self.one_pack, Core::OnePack),
        };
        let instead = if other(o) {
            format!(
                "; {} = {value} needs {}",
                self.option,
                core_name(other_core)
            )
        } else {
            String::new()
        };
        format!(
            "rules: '{}' = {value} is not honoured by {}: it runs {} = {here}{instead}",
            self.option,
            core_name(core),
            self.option
        )
    }
}

/// A JSON value as a message shows it (strings without quotes).
fn plain(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// How messages name a core.
pub(crate) const fn core_name(core: Core) -> &'static str {
    match core {
        Core::OnePack => "the one-pack core (khap_lock = true: classic, 4sac)",
        Core::MultiPack => "the multi-pack core (khap_lock = false: sisepai21, dirtyking26)",
    }
}

macro_rules! row {
    ($option:literal, |$o:ident| $one:expr, $one_values:literal, |$p:ident| $multi:expr, $multi_values:literal) => {
        CoreRow {
            option: $option,
            one_pack: |$o| $one,
            one_pack_values: $one_values,
            multi_pack: |$p| $multi,
            multi_pack_values: $multi_values,
        }
    };
}

/// Whether the point table is dirtyking26's (the only one valuing its extra sets and doubling).
fn dirty(o: &Options) -> bool {
    o.point_table == PointTable::DirtyKing26
}

/// What each rule core honours, option by option (`khap_lock` chooses the core). The one-pack
/// core runs classic's and 4sac's values (4sac's are read where each rule is applied); the
/// multi-pack core runs sisepai21's and dirtyking26's. A value not listed is rejected, even
/// where a reading could be imagined: a later change can open it.
#[rustfmt::skip]
pub const CORE_TABLE: &[CoreRow] = &[
    // option, one-pack core (test, values), multi-pack core (test, values)
    row!("players", |o| (2..=4).contains(&o.players), "2 to 4",
        |o| (2..=8).contains(&o.players), "2 to 8"),
    row!("decks", |o| o.decks == 1, "1",
        |o| (2..=4).contains(&o.decks), "2 to 4"),
    row!("hand_size", |o| o.hand_size == 20, "20",
        |o| matches!(o.hand_size, 20 | 25), "20 or 25"),
    row!("redeal_dead_hands", |o| !o.redeal_dead_hands, "false",
        |_o| true, "true or false"),
    row!("double_rank", |o| !o.double_rank, "false",
        |o| !o.double_rank || dirty(o), "false, or true with point_table = DirtyKing26 (the doubling is that table's)"),
    row!("dealt_quad", |o| matches!(o.dealt_quad, DealtQuad::ExposeQuan | DealtQuad::ExposeKong), "ExposeQuan or ExposeKong",
        |o| o.dealt_quad == DealtQuad::FaceDownLocked, "FaceDownLocked"),
    row!("natural_win_for_first", |o| o.natural_win_for_first || o.discard_rule == DiscardRule::AnyNonKing, "true, or false with discard_rule = AnyNonKing (under C7 a trash-free dealt hand has no discard, §1.4 step 5)",
        |o| o.natural_win_for_first, "true"),
    row!("king_identical_sets", |o| o.king_identical_sets == KingIdenticalSets::All, "All",
        |o| match o.king_identical_sets {
            KingIdenticalSets::None => true,
            KingIdenticalSets::QuadOnly => dirty(o),
            KingIdenticalSets::All => false,
        }, "None, or QuadOnly with point_table = DirtyKing26 (the King Quad's 12)"),
    row!("cross_colour_sets", |o| !o.cross_colour_sets, "false",
        |o| !o.cross_colour_sets || dirty(o), "false, or true with point_table = DirtyKing26 (the only table valuing Colours3/4)"),
    row!("dealt_only_king_groups", |o| !o.dealt_only_king_groups, "false",
        |o| !o.dealt_only_king_groups || dirty(o), "false, or true with point_table = DirtyKing26 (the only table valuing them)"),
    row!("point_table", |o| matches!(o.point_table, PointTable::Classic | PointTable::FourSac), "Classic or FourSac",
        |o| matches!(o.point_table, PointTable::Sisepai21 | PointTable::DirtyKing26), "Sisepai21 or DirtyKing26"),
    row!("meld_must_not_raise_trash", |o| o.meld_must_not_raise_trash, "true",
        |o| !o.meld_must_not_raise_trash, "false (there is no trash)"),
    row!("discard_rule", |_o| true, "ReduceTrashByOne or AnyNonKing",
        |o| o.discard_rule == DiscardRule::AnyNonKing, "AnyNonKing"),
    row!("khui_rule", |_o| true, "Forced or Optional",
        |o| o.khui_rule == ClaimRule::Optional, "Optional"),
    row!("pair_claim_rule", |_o| true, "Forced or Optional",
        |o| o.pair_claim_rule == ClaimRule::Optional, "Optional"),
    row!("pair_priority_excludes_turn_player", |_o| true, "true or false",
        |o| o.pair_priority_excludes_turn_player, "true (no pair priority there)"),
    row!("pair_waiting_exception", |o| !o.pair_waiting_exception || o.pair_claim_rule == ClaimRule::Forced, "false, or true with pair_claim_rule = Forced (it exempts from forced pair priority)",
        |o| !o.pair_waiting_exception, "false"),
    row!("passed_draw", |o| matches!(o.passed_draw, PassedDraw::AnySet | PassedDraw::ChowPawnsOrPair), "AnySet or ChowPawnsOrPair",
        |o| o.passed_draw == PassedDraw::DrawerDiscards, "DrawerDiscards"),
    row!("drawn_king", |o| matches!(o.drawn_king, DrawnKing::Ordinary | DrawnKing::WinKongThenDrawer), "Ordinary or WinKongThenDrawer",
        |o| o.drawn_king == DrawnKing::WinCallsThenForcedLone, "WinCallsThenForcedLone"),
    row!("exposed_triple_upgrade", |_o| true, "true or false",
        |o| !o.exposed_triple_upgrade, "false"),
    row!("pair_meld_min_points", |o| o.pair_meld_min_points.is_none(), "none",
        |_o| true, "a number or none"),
    row!("win_test", |o| o.win_test == WinTest::TrashZero, "TrashZero",
        |o| o.win_test != WinTest::TrashZero, "CompleteOver9 or CompleteOver20Even"),
    row!("stock_floor", |o| o.stock_floor >= 6, "6 or more (the claim history is sized for a floor of at least 6)",
        |o| o.stock_floor == 0 || o.reshuffles == 0, "0, or any with reshuffles = 0 (§4.7 does not say what becomes of the cards left under a floor when the dead pile turns into the stock)"),
    row!("reshuffles", |o| o.reshuffles == 0, "0",
        |o| o.reshuffles <= 1, "0 or 1"),
    row!("payout", |o| matches!(o.payout, Payout::Classic | Payout::KongDeduction), "Classic or KongDeduction",
        |o| o.payout == Payout::Points, "Points"),
    row!("kong_deduction_floor_zero", |_o| true, "true or false",
        |o| !o.kong_deduction_floor_zero, "false"),
    row!("worst_card_penalty", |_o| true, "true or false",
        |o| !o.worst_card_penalty, "false"),
];

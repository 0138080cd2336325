//! The rule options of §8 of the rules reference (`docs/games/tienlen.md`). Amounts given in
//! cược are stored as integers in half-cược (§7.1). [`RULE_DOCS`] explains each option for
//! `bailab rules`.

use super::toi_trang::{ToiTrang, ToiTrangSet};
use crate::fixed::CopyVec;
use crate::game::RuleMap;
use crate::games::kind::RuleDoc;
use crate::games::kind::{RuleError, ValueError};
use crate::games::rule_table::{self, rule_option, RuleOption};
use serde_json::{Map, Value};

/// Every option of §8 as a rule option, in section order (the order `bailab rules` prints them
/// in): name, section of `docs/games/tienlen.md`, meaning, and how its value reads.
#[rustfmt::skip]
pub const OPTIONS: &[RuleOption<Options>; 17] = &[
    rule_option!("players", "§2.1", "number of players, 2 to 4; 13 cards each, the rest set aside unseen",
        get: |o| o.players.into(),
        set: |o, v| players(v).map(|x| o.players = x)),
    rule_option!("ps3_chops_pair_of_twos", "§3.2 C1, T5", "a PairSequence3 (3 đôi thông) also chops a pair of 2s, not only a single 2", ps3_chops_pair_of_twos, flag),
    rule_option!("quad_chops", "§3.2 C2, T4", "the 2s a Quad chops: SingleAndPair, PairOnly or SingleOnly (it chops any PairSequence3 either way)",
        get: |o| o.quad_chops.name().into(),
        set: |o, v| quad_chops(v).map(|x| o.quad_chops = x)),
    rule_option!("ps5_powers", "§3.2 C4, T6", "a PairSequence5/6 beats a single, pair or triple of 2s, any Quad and any shorter pair sequence (false: only a higher one of its own length)", ps5_powers, flag),
    rule_option!("ps5_value", "§3.3, §7.3, T6", "what a PairSequence5/6 is worth when chopped or counted in thối, in cược",
        get: |o| cuoc_value(o.ps5_value),
        set: |o, v| cuoc(v).map(|x| o.ps5_value = x)),
    rule_option!("same_type_hang_beat_is_chat", "§3.3, T7", "beating hàng with a higher hàng of the same type is a chặt, paid like one", same_type_hang_beat_is_chat, flag),
    rule_option!("oot_chop_min_pairs", "§3.3, §4.3.4, T16", "fewest pairs of a pair sequence that may chop out of turn: 4, 5 or \"none\" (no out-of-turn chop)",
        get: |o| o.oot_chop_min_pairs.map_or("none".into(), Value::from),
        set: |o, v| oot_chop_min_pairs(v).map(|x| o.oot_chop_min_pairs = x)),
    rule_option!("passed_player_may_chop_in_turn", "§4.3, T15", "a seat that passed on this trick may still chặt the top in turn with hàng", passed_player_may_chop_in_turn, flag),
    rule_option!("forbid_finish_on_two", "§4.3, T21", "a play that empties the hand may not hold a 2; a leader left with a lone 2 leaves play in the last free place and pays its thối", forbid_finish_on_two, flag),
    rule_option!("huong_sai", "§4.3.5, T14", "who leads when the trick's owner has gone out: NextActiveAfterFinisher (the only value)",
        get: |_| "NextActiveAfterFinisher".into(),
        set: |o, v| huong_sai(v).map(|x| o.huong_sai = x)),
    rule_option!("initial_game_also_general_list", "§5.1, T11", "the normal-game tới trắng list also counts in an initial game", initial_game_also_general_list, flag),
    rule_option!("toi_trang_lists", "§5.1", "tới trắng conditions in force, a list of: TuQuy3, BaDoiThongCo3Bich, SanhRong, SauDoi, NamDoiThong, BonSam, HaiTuQuy, TuQuyHeo, DongMau",
        get: |o| toi_trang_value(o.toi_trang_lists),
        set: |o, v| toi_trang_lists(v).map(|x| o.toi_trang_lists = x)),
    rule_option!("cong_den_enabled", "§6.4, T17", "đền: when all other seats are cóng, the first of them that passed holding a legal play pays for all and leads next", cong_den_enabled, flag),
    rule_option!("place_stakes", "§7.2, T2", "base transfers by place for each table size: {\"N\": [[payer place, payee place, cược], ...]}",
        get: |o| place_stakes_value(&o.place_stakes),
        set: place_stakes),
    rule_option!("cong_pay", "§7.5, T3", "fixed part of what each cóng seat pays the first finisher, in cược (its thối is added)",
        get: |o| cuoc_value(o.cong_pay),
        set: |o, v| cuoc(v).map(|x| o.cong_pay = x)),
    rule_option!("toi_trang_pay", "§7.6, T12", "what every other seat pays a tới trắng winner, in cược",
        get: |o| cuoc_value(o.toi_trang_pay),
        set: |o, v| cuoc(v).map(|x| o.toi_trang_pay = x)),
    rule_option!("toi_trang_dem_heo", "§7.6", "the losers of a tới trắng also pay their thối (2s and hàng, §7.3) to the winner", toi_trang_dem_heo, flag),
];

/// What every option means and the section that defines it, in [`OPTIONS`] order.
pub const RULE_DOCS: &[RuleDoc] = &rule_table::docs(OPTIONS);

/// Which 2s a `Quad` chops under C2 (§3.2, option `quad_chops`; v2: a Quad still chops any PS3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum QuadChops {
    /// A single 2 and a pair of 2s (default).
    SingleAndPair,
    /// A pair of 2s only.
    PairOnly,
    /// A single 2 only.
    SingleOnly,
}

impl QuadChops {
    /// The option value's name.
    pub const fn name(self) -> &'static str {
        match self {
            QuadChops::SingleAndPair => "SingleAndPair",
            QuadChops::PairOnly => "PairOnly",
            QuadChops::SingleOnly => "SingleOnly",
        }
    }
    /// True when a Quad chops a single 2.
    pub const fn single(self) -> bool {
        !matches!(self, QuadChops::PairOnly)
    }
    /// True when a Quad chops a pair of 2s.
    pub const fn pair(self) -> bool {
        !matches!(self, QuadChops::SingleOnly)
    }
}

/// Who leads after the owner of the last top has finished (§4.3.5, option `huong_sai`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HuongSai {
    /// The first active seat after the finished owner in play order (the only value).
    NextActiveAfterFinisher,
}

/// One base transfer of §7.2: the seat in place `payer` pays the seat in place `payee`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stake {
    /// Paying place (1-based).
    pub(crate) payer: u8,
    /// Receiving place (1-based).
    pub(crate) payee: u8,
    /// Amount in half-cược.
    pub amount: u32,
}

/// Most transfers in one table's stake list: every ordered pair of distinct places of 4 seats.
pub(crate) const MAX_STAKES: usize = 12;
/// The base transfers for one table size.
pub(crate) type StakeList = CopyVec<Stake, MAX_STAKES>;

/// Every option of §8. A `Copy` value held by each state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Number of players, 2–4 (§2.1).
    pub players: u8,
    /// A `PairSequence3` also chops a pair of 2s (§3.2 C1, T5).
    pub ps3_chops_pair_of_twos: bool,
    /// Which 2s a Quad chops (§3.2 C2, T4).
    pub quad_chops: QuadChops,
    /// C4 is in force: PS5/PS6 beat three 2s, quads and shorter pair sequences (§3.2, T6).
    pub ps5_powers: bool,
    /// Chặt and thối value of a PS5/PS6, in half-cược (§3.3, §7.3; default 4 = 2 cược).
    pub ps5_value: u32,
    /// A same-type beat of hàng by hàng is a chặt (§3.3, T7).
    pub same_type_hang_beat_is_chat: bool,
    /// Smallest pair sequence that may chop out of turn; `None`: no out-of-turn play (§3.3, §4.3).
    pub oot_chop_min_pairs: Option<u8>,
    /// A seat that passed may still chặt in turn with hàng (§4.3 v2, T15).
    pub passed_player_may_chop_in_turn: bool,
    /// A play that empties the hand may not contain a 2 (§4.3 v2, T21).
    pub forbid_finish_on_two: bool,
    /// The general tới trắng list also applies in an initial game (§5.1, T11).
    pub initial_game_also_general_list: bool,
    /// The tới trắng conditions in force (§5.1).
    pub toi_trang_lists: ToiTrangSet,
    /// What every loser pays a tới trắng winner, in half-cược (§7.6; default 4 = 2 cược).
    pub toi_trang_pay: u32,
    /// Losers of a tới trắng also pay their thối (§7.6).
    pub toi_trang_dem_heo: bool,
    /// Base transfers by place, for 2, 3 and 4 players (index `N − 2`, §7.2).
    pub(crate) place_stakes: [StakeList; 3],
    /// The fixed part of a cóng seat's payment, in half-cược (§7.5; default 4 = 2 cược).
    pub cong_pay: u32,
    /// The đền rule of §6.4 is in force.
    pub cong_den_enabled: bool,
    /// Hưởng sái target (§4.3.5).
    pub(crate) huong_sai: HuongSai,
}

fn stakes(list: &[(u8, u8, u32)]) -> StakeList {
    let mut s = StakeList::default();
    for &(payer, payee, amount) in list {
        s.push(Stake {
            payer,
            payee,
            amount,
        });
    }
    s
}

impl Options {
    /// The defaults of §8 for `players` seats (2–4; validate with [`Options::validate`]).
    pub fn default_for(players: u8) -> Options {
        Options {
            players,
            ps3_chops_pair_of_twos: false,
            quad_chops: QuadChops::SingleAndPair,
            ps5_powers: true,
            ps5_value: 4,
            same_type_hang_beat_is_chat: true,
            oot_chop_min_pairs: Some(4),
            passed_player_may_chop_in_turn: false,
            forbid_finish_on_two: false,
            initial_game_also_general_list: false,
            toi_trang_lists: ToiTrangSet::ALL,
            toi_trang_pay: 4,
            toi_trang_dem_heo: false,
            place_stakes: [
                stakes(&[(2, 1, 2)]),
                stakes(&[(3, 1, 2)]),
                stakes(&[(4, 1, 2), (3, 2, 1)]),
            ],
            cong_pay: 4,
            cong_den_enabled: true,
            huong_sai: HuongSai::NextActiveAfterFinisher,
        }
    }

    /// The stake list for the table size in force.
    pub fn stakes(&self) -> &[Stake] {
        self.place_stakes[(self.players.clamp(2, 4) - 2) as usize].as_slice()
    }

    /// Checks what the engine can run: 2–4 players, out-of-turn minimum 4 or 5, stake places
    /// within the table.
    pub fn validate(&self) -> Result<(), RuleError> {
        if !(2..=4).contains(&self.players) {
            return Err(RuleError::Unsupported(format!(
                "rules: 'players' = {}: Tiến Lên seats 2 to 4",
                self.players
            )));
        }
        if let Some(k) = self.oot_chop_min_pairs {
            if !(4..=5).contains(&k) {
                return Err(RuleError::Unsupported(format!(
                    "rules: 'oot_chop_min_pairs' = {k}: must be 4, 5 or \"none\""
                )));
            }
        }
        for (i, list) in self.place_stakes.iter().enumerate() {
            let n = i as u8 + 2;
            for s in list.as_slice() {
                if s.payer == s.payee || !(1..=n).contains(&s.payer) || !(1..=n).contains(&s.payee)
                {
                    return Err(RuleError::Unsupported(format!(
                        "rules: 'place_stakes' for {n} players: [{}, {}] is not a transfer between two places 1..{n}",
                        s.payer, s.payee
                    )));
                }
            }
        }
        Ok(())
    }

    /// Every option as `name → value`: cược amounts as numbers (0.5 steps), enums by name,
    /// `oot_chop_min_pairs` as 4, 5 or `"none"`, `place_stakes` as `{"N": [[payer, payee, cược]]}`.
    pub fn to_rules(&self) -> RuleMap {
        rule_table::to_rules(OPTIONS, self)
    }

    /// Options from a `name → value` map: the defaults for `players` (4 when absent), then every
    /// given key. Unknown keys, wrong types and impossible values are errors naming the key.
    pub fn from_rules(rules: &RuleMap) -> Result<Options, RuleError> {
        let mut o = Options::default_for(4);
        if let Some(v) = rules.get("players") {
            o = Options::default_for(players(v).map_err(|reason| RuleError::Value {
                key: "players".to_string(),
                value: v.clone(),
                reason,
            })?);
        }
        for (k, v) in rules {
            rule_table::set(OPTIONS, &mut o, k, k, v)
                .unwrap_or_else(|| Err(RuleError::Unknown { key: k.clone() }))?;
        }
        o.validate()?;
        Ok(o)
    }
}

/// An amount in cược (a JSON number, a multiple of 0.5, at least 0) in half-cược.
fn cuoc_of(v: &Value) -> Option<u32> {
    let x = v.as_f64()? * 2.0;
    ((0.0..=1e6).contains(&x) && x.fract() == 0.0).then_some(x as u32)
}

/// An amount in half-cược as the rules map writes it, in cược.
fn cuoc_value(half: u32) -> Value {
    if half.is_multiple_of(2) {
        Value::from(half / 2)
    } else {
        Value::from(f64::from(half) / 2.0)
    }
}

/// An amount in cược, as half-cược.
fn cuoc(v: &Value) -> Result<u32, ValueError> {
    cuoc_of(v).ok_or(ValueError::Expected(
        "expected an amount in cược, a multiple of 0.5 ≥ 0",
    ))
}

/// `players`: 2, 3 or 4.
fn players(v: &Value) -> Result<u8, ValueError> {
    v.as_u64()
        .and_then(|p| u8::try_from(p).ok())
        .filter(|p| (2..=4).contains(p))
        .ok_or(ValueError::Expected("must be 2, 3 or 4"))
}

/// `quad_chops` by name.
fn quad_chops(v: &Value) -> Result<QuadChops, ValueError> {
    match v.as_str() {
        Some("SingleAndPair") => Ok(QuadChops::SingleAndPair),
        Some("PairOnly") => Ok(QuadChops::PairOnly),
        Some("SingleOnly") => Ok(QuadChops::SingleOnly),
        _ => Err(ValueError::Expected(
            "expected \"SingleAndPair\", \"PairOnly\" or \"SingleOnly\"",
        )),
    }
}

/// `oot_chop_min_pairs`: 4, 5, or `"none"` (any case) or `null` for none.
fn oot_chop_min_pairs(v: &Value) -> Result<Option<u8>, ValueError> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) if s.eq_ignore_ascii_case("none") => Ok(None),
        _ => match v.as_u64() {
            Some(4) => Ok(Some(4)),
            Some(5) => Ok(Some(5)),
            _ => Err(ValueError::Expected("expected 4, 5 or \"none\"")),
        },
    }
}

/// `huong_sai`: its only value.
fn huong_sai(v: &Value) -> Result<HuongSai, ValueError> {
    if v.as_str() != Some("NextActiveAfterFinisher") {
        return Err(ValueError::Expected(
            "only \"NextActiveAfterFinisher\" exists",
        ));
    }
    Ok(HuongSai::NextActiveAfterFinisher)
}

/// `toi_trang_lists` as the rules map writes it: the ids in §5.1 order.
fn toi_trang_value(set: ToiTrangSet) -> Value {
    Value::Array(set.iter().map(|t| Value::from(t.id())).collect())
}

/// `toi_trang_lists`: a list of condition ids.
fn toi_trang_lists(v: &Value) -> Result<ToiTrangSet, ValueError> {
    let items = v
        .as_array()
        .ok_or(ValueError::Expected("expected a list of condition ids"))?;
    let mut set = ToiTrangSet::EMPTY;
    for item in items {
        let t = item
            .as_str()
            .and_then(ToiTrang::from_id)
            .ok_or_else(|| ValueError::NotToiTrang { item: item.clone() })?;
        set = set.with(t);
    }
    Ok(set)
}

/// `place_stakes` as the rules map writes it: `{"N": [[payer, payee, cược], ...]}`.
fn place_stakes_value(per_n: &[StakeList; 3]) -> Value {
    let mut ps = Map::new();
    for (i, list) in per_n.iter().enumerate() {
        let rows = list
            .as_slice()
            .iter()
            .map(|s| Value::Array(vec![s.payer.into(), s.payee.into(), cuoc_value(s.amount)]))
            .collect();
        ps.insert((i + 2).to_string(), Value::Array(rows));
    }
    Value::Object(ps)
}

/// `place_stakes`: the lists given replace those table sizes' lists, one table size at a time.
fn place_stakes(o: &mut Options, v: &Value) -> Result<(), ValueError> {
    let per_n = v.as_object().ok_or(ValueError::Expected(
        "expected {\"N\": [[payer, payee, cược], ...]}",
    ))?;
    for (n, rows) in per_n {
        let n: usize = match n.parse() {
            Ok(n @ 2..=4) => n,
            _ => return Err(ValueError::TableSize { size: n.clone() }),
        };
        o.place_stakes[n - 2] = stake_list(rows)?;
    }
    Ok(())
}

/// One table size's `[[payer, payee, cược], ...]`.
fn stake_list(rows: &Value) -> Result<StakeList, ValueError> {
    let rows = rows.as_array().ok_or(ValueError::Expected(
        "expected a list of [payer, payee, cược]",
    ))?;
    if rows.len() > MAX_STAKES {
        return Err(ValueError::TooManyTransfers { max: MAX_STAKES });
    }
    let mut list = StakeList::default();
    for row in rows {
        let t = row.as_array().filter(|r| r.len() == 3);
        let place = |i: usize| {
            t.and_then(|r| r[i].as_u64())
                .and_then(|p| u8::try_from(p).ok())
        };
        match (place(0), place(1), t.and_then(|r| cuoc_of(&r[2]))) {
            (Some(payer), Some(payee), Some(amount)) => list.push(Stake {
                payer,
                payee,
                amount,
            }),
            _ => return Err(ValueError::NotStake { row: row.clone() }),
        }
    }
    Ok(list)
}

//! The rule options of §9 (`docs/games/chan.md`), with their `[rules]` names and their
//! explanations for `bailab rules` ([`RULE_DOCS`]); each is read where its rule is applied.

use crate::game::RuleMap;
use crate::games::kind::RuleDoc;
use crate::games::kind::{RuleError, ValueError};
use crate::games::rule_table::{self, int, named, rule_option, RuleOption};
use serde_json::Value;

/// Every option of §9 as a rule option, in section order (the order `bailab rules --game chan`
/// prints them in): name, section of `docs/games/chan.md`, meaning, and how its value reads.
#[rustfmt::skip]
pub const OPTIONS: &[RuleOption<Options>; 14] = &[
    rule_option!("players", "§2.1", "number of players, 2 to 5; the first player is dealt 20 cards, the others 19, and the stock holds the other 99 − 19·players",
        get: |o| o.players.into(),
        set: |o, v| players(v).map(|x| o.players = x)),
    rule_option!("first_player_after_draw", "§2.3", "the first player after a drawn hand: Same (the same seat) or Next (the next seat in play order); after a win it is the winner", first_player_after_draw, named),
    rule_option!("auto_expose_thien_khai", "§5.2.1", "true: a dealt 4-of-a-kind is laid down at once as a Thiên khai Quad, never to be discarded; false: it stays in hand (two Chắn)", auto_expose_thien_khai, flag),
    rule_option!("chan_discard_rule", "§6.3", "discarding from a concealed chắn: SecondCardOnly (one card may go, never its twin afterwards, D2) or Strict (neither card may go, Dstrict)", chan_discard_rule, named),
    rule_option!("u_pass_forfeit", "§7.1", "true: a player who declines an ù may not ù again for the rest of the hand", u_pass_forfeit, flag),
    rule_option!("chi_includes_passed_draw", "§8.1", "true: an ù on a drawn card passed on to the winner's gate also scores Ù chì (false: only the winner's own draw, or a chíu return at its gate)", chi_includes_passed_draw, flag),
    rule_option!("bach_thu_on_thien_u", "§8.1", "true: a Thiên ù with exactly 6 Chắn also scores Bạch thủ", bach_thu_on_thien_u, flag),
    rule_option!("quad_factor_values", "§8.1", "[points, dịch] of each Thiên khai, Chíu and Bòn instance, integers 0 to 1000",
        get: |o| pair_value(o.quad_factor_values),
        set: |o, v| pair(v).map(|x| o.quad_factor_values = x)),
    rule_option!("thien_u_values", "§8.1", "[points, dịch] of Thiên ù, integers 0 to 1000",
        get: |o| pair_value(o.thien_u_values),
        set: |o, v| pair(v).map(|x| o.thien_u_values = x)),
    rule_option!("thap_thanh_rule", "§8.2", "how a Thập thành hand adds its factors: SumAllPoints (the points of every instance) or SumPointsOfColourFactors (points for Thập thành, Bạch định, Tám đỏ and Kính tứ chi, dịch for the rest)", thap_thanh_rule, named),
    rule_option!("xuong_points", "§8.2", "points of an ù with no factor (Ù xuông), 0 to 1000", xuong_points, int 0..=1000),
    rule_option!("ga_points", "§8.3", "points each gà adds to S (GA_POINTS), 0 to 1000; 0 disables gà", ga_points, int 0..=1000),
    rule_option!("stake", "§8.4", "payout units per point: each loser pays S × stake to the winner; 1 to 1000000",
        get: |o| o.stake.into(),
        set: |o, v| stake(v).map(|x| o.stake = x)),
    rule_option!("extra_factors", "§9", "factors beyond §8.1's table; only [] (none) is accepted: DiaU, BachThuChi, ChiuU, UBon and PhaThien are not implemented",
        get: |_| Value::Array(Vec::new()),
        set: |_, v| extra_factors(v)),
];

/// What each option means and the section that defines it, in [`OPTIONS`] order.
pub const RULE_DOCS: &[RuleDoc] = &rule_table::docs(OPTIONS);

/// Who is first after a drawn hand (§2.3, option `first_player_after_draw`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FirstAfterDraw {
    /// The same first player (default, CHOSEN).
    Same,
    /// The next seat in play order.
    Next,
}

/// How far "cannot discard a chắn" goes (§6.3, option `chan_discard_rule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChanDiscardRule {
    /// Throwing one card of a concealed chắn is legal; D2 forbids its twin (default, CHOSEN).
    SecondCardOnly,
    /// `Dstrict`: never throw a card of a concealed chắn.
    Strict,
}

/// How a Thập thành hand adds its factors (§8.2, option `thap_thanh_rule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThapThanhRule {
    /// The points of every instance (default, seed wording).
    SumAllPoints,
    /// Points for Thập thành, Bạch định, Tám đỏ and Kính tứ chi, dịch for the rest (Sân Đình).
    SumPointsOfColourFactors,
}

/// Every option of §9. A `Copy` value held by each state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// `players`: 2–5 (§2.1).
    pub players: u8,
    /// `first_player_after_draw` (§2.3).
    pub first_player_after_draw: FirstAfterDraw,
    /// `auto_expose_thien_khai` (§5.2.1): a dealt 4-of-a-kind is laid down at once.
    pub auto_expose_thien_khai: bool,
    /// `chan_discard_rule` (§6.3).
    pub chan_discard_rule: ChanDiscardRule,
    /// `u_pass_forfeit` (§7.1): declining an ù forbids ù for the rest of the hand.
    pub u_pass_forfeit: bool,
    /// `chi_includes_passed_draw` (§8.1 UChi): an ù on a drawn card passed to W's gate is chì.
    pub chi_includes_passed_draw: bool,
    /// `bach_thu_on_thien_u` (§8.1 BachThu): a 6-Chắn Thiên ù is Bạch thủ.
    pub bach_thu_on_thien_u: bool,
    /// `quad_factor_values`: (points, dịch) of ThienKhai, Chiu and Bon (§8.1).
    pub quad_factor_values: (u32, u32),
    /// `thien_u_values`: (points, dịch) of ThienU (§8.1).
    pub thien_u_values: (u32, u32),
    /// `thap_thanh_rule` (§8.2).
    pub thap_thanh_rule: ThapThanhRule,
    /// `xuong_points`: points of an ù with no factor (§8.2).
    pub xuong_points: u32,
    /// `ga_points`: `GA_POINTS` of §8.3 (0 disables gà).
    pub ga_points: u32,
    /// `stake` (§8.4): the payout of one point.
    pub stake: u32,
}

impl Options {
    /// The defaults of §9 for `players` seats.
    pub const fn default_for(players: u8) -> Options {
        Options {
            players,
            first_player_after_draw: FirstAfterDraw::Same,
            auto_expose_thien_khai: true,
            chan_discard_rule: ChanDiscardRule::SecondCardOnly,
            u_pass_forfeit: false,
            chi_includes_passed_draw: false,
            bach_thu_on_thien_u: true,
            quad_factor_values: (5, 2),
            thien_u_values: (3, 1),
            thap_thanh_rule: ThapThanhRule::SumAllPoints,
            xuong_points: 2,
            ga_points: 5,
            stake: 1,
        }
    }

    /// Every option as `name → value` (the §9 names; enums by their variant name, pairs as
    /// `[points, dịch]`, `extra_factors` as an empty list).
    pub fn to_rules(&self) -> RuleMap {
        rule_table::to_rules(OPTIONS, self)
    }

    /// Options from a `name → value` map as [`Options::to_rules`] writes it, starting from the
    /// defaults (`players` 4 unless given). An unknown name, a wrong type or a value the engine
    /// cannot run is an error naming the key.
    pub fn from_rules(rules: &RuleMap) -> Result<Options, RuleError> {
        let mut o = Options::default_for(4);
        for (k, v) in rules {
            rule_table::set(OPTIONS, &mut o, k, k, v)
                .unwrap_or_else(|| Err(RuleError::Unknown { key: k.clone() }))?;
        }
        Ok(o)
    }
}

named!(FirstAfterDraw: Same, Next);
named!(ChanDiscardRule: SecondCardOnly, Strict);
named!(ThapThanhRule: SumAllPoints, SumPointsOfColourFactors);

/// `players`: 2 to 5.
fn players(v: &Value) -> Result<u8, ValueError> {
    v.as_u64()
        .filter(|p| (2..=5).contains(p))
        .map(|p| p as u8)
        .ok_or(ValueError::Expected("Chắn seats 2 to 5 players (§2.1)"))
}

/// A `[points, dịch]` pair as the rules map writes it.
fn pair_value((p, d): (u32, u32)) -> Value {
    Value::from(vec![p, d])
}

/// A `[points, dịch]` pair, two integers 0 to 1000.
fn pair(v: &Value) -> Result<(u32, u32), ValueError> {
    let a = v.as_array().filter(|a| a.len() == 2);
    let nums = a.and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)));
    nums.filter(|&(p, d)| p <= 1000 && d <= 1000)
        .map(|(p, d)| (p as u32, d as u32))
        .ok_or(ValueError::Expected(
            "expected [points, dich], two integers 0 to 1000",
        ))
}

/// `stake`: a positive integer up to 1000000.
fn stake(v: &Value) -> Result<u32, ValueError> {
    match int(v, 0, 1_000_000)? {
        0 => Err(ValueError::Expected("the stake must be positive")),
        x => Ok(x),
    }
}

/// `extra_factors` (§9 v2: "not required of engines; under-specified"): only `[]`.
fn extra_factors(v: &Value) -> Result<(), ValueError> {
    match v.as_array() {
        Some(a) if a.is_empty() => Ok(()),
        Some(_) => Err(ValueError::Expected(
            "extra factors (DiaU, BachThuChi, ChiuU, UBon, PhaThien) are not \
             implemented (§9 v2: under-specified); only [] is accepted",
        )),
        None => Err(ValueError::Expected(
            "expected a list (only [] is accepted)",
        )),
    }
}

//! The rule options of §9 (`docs/games/chan.md`), with their `[rules]` names and their
//! explanations for `bailab rules` ([`RULE_DOCS`]); each is read where its rule is applied.

use crate::games::kind::RuleDoc;
use serde_json::{Map, Value};

/// What each option of [`Options::to_rules`] means and the section of `docs/games/chan.md` that
/// defines it, in section order (`bailab rules --game chan`).
pub const RULE_DOCS: &[RuleDoc] = &[
    RuleDoc {
        name: "players",
        section: "§2.1",
        doc: "number of players, 2 to 5; the first player is dealt 20 cards, the others 19, \
              and the stock holds the other 99 − 19·players",
    },
    RuleDoc {
        name: "first_player_after_draw",
        section: "§2.3",
        doc: "the first player after a drawn hand: Same (the same seat) or Next (the next seat \
              in play order); after a win it is the winner",
    },
    RuleDoc {
        name: "auto_expose_thien_khai",
        section: "§5.2.1",
        doc: "true: a dealt 4-of-a-kind is laid down at once as a Thiên khai Quad, never to be \
              discarded; false: it stays in hand (two Chắn)",
    },
    RuleDoc {
        name: "chan_discard_rule",
        section: "§6.3",
        doc: "discarding from a concealed chắn: SecondCardOnly (one card may go, never its twin \
              afterwards, D2) or Strict (neither card may go, Dstrict)",
    },
    RuleDoc {
        name: "u_pass_forfeit",
        section: "§7.1",
        doc: "true: a player who declines an ù may not ù again for the rest of the hand",
    },
    RuleDoc {
        name: "chi_includes_passed_draw",
        section: "§8.1",
        doc: "true: an ù on a drawn card passed on to the winner's gate also scores Ù chì \
              (false: only the winner's own draw, or a chíu return at its gate)",
    },
    RuleDoc {
        name: "bach_thu_on_thien_u",
        section: "§8.1",
        doc: "true: a Thiên ù with exactly 6 Chắn also scores Bạch thủ",
    },
    RuleDoc {
        name: "quad_factor_values",
        section: "§8.1",
        doc: "[points, dịch] of each Thiên khai, Chíu and Bòn instance, integers 0 to 1000",
    },
    RuleDoc {
        name: "thien_u_values",
        section: "§8.1",
        doc: "[points, dịch] of Thiên ù, integers 0 to 1000",
    },
    RuleDoc {
        name: "thap_thanh_rule",
        section: "§8.2",
        doc: "how a Thập thành hand adds its factors: SumAllPoints (the points of every \
              instance) or SumPointsOfColourFactors (points for Thập thành, Bạch định, Tám đỏ \
              and Kính tứ chi, dịch for the rest)",
    },
    RuleDoc {
        name: "xuong_points",
        section: "§8.2",
        doc: "points of an ù with no factor (Ù xuông), 0 to 1000",
    },
    RuleDoc {
        name: "ga_points",
        section: "§8.3",
        doc: "points each gà adds to S (GA_POINTS), 0 to 1000; 0 disables gà",
    },
    RuleDoc {
        name: "stake",
        section: "§8.4",
        doc: "payout units per point: each loser pays S × stake to the winner; 1 to 1000000",
    },
    RuleDoc {
        name: "extra_factors",
        section: "§9",
        doc: "factors beyond §8.1's table; only [] (none) is accepted: DiaU, BachThuChi, ChiuU, \
              UBon and PhaThien are not implemented",
    },
];

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
    pub fn to_rules(&self) -> Map<String, Value> {
        let mut m = Map::new();
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_string(), v);
        };
        put("players", self.players.into());
        put(
            "first_player_after_draw",
            match self.first_player_after_draw {
                FirstAfterDraw::Same => "Same",
                FirstAfterDraw::Next => "Next",
            }
            .into(),
        );
        put("auto_expose_thien_khai", self.auto_expose_thien_khai.into());
        put(
            "chan_discard_rule",
            match self.chan_discard_rule {
                ChanDiscardRule::SecondCardOnly => "SecondCardOnly",
                ChanDiscardRule::Strict => "Strict",
            }
            .into(),
        );
        put("u_pass_forfeit", self.u_pass_forfeit.into());
        put(
            "chi_includes_passed_draw",
            self.chi_includes_passed_draw.into(),
        );
        put("bach_thu_on_thien_u", self.bach_thu_on_thien_u.into());
        let pair = |(p, d): (u32, u32)| Value::from(vec![p, d]);
        put("quad_factor_values", pair(self.quad_factor_values));
        put("thien_u_values", pair(self.thien_u_values));
        put(
            "thap_thanh_rule",
            match self.thap_thanh_rule {
                ThapThanhRule::SumAllPoints => "SumAllPoints",
                ThapThanhRule::SumPointsOfColourFactors => "SumPointsOfColourFactors",
            }
            .into(),
        );
        put("xuong_points", self.xuong_points.into());
        put("ga_points", self.ga_points.into());
        put("extra_factors", Value::Array(Vec::new()));
        put("stake", self.stake.into());
        m
    }

    /// Options from a `name → value` map as [`Options::to_rules`] writes it, starting from the
    /// defaults (`players` 4 unless given). An unknown name, a wrong type or a value the engine
    /// cannot run is an error naming the key.
    pub fn from_rules(rules: &Map<String, Value>) -> Result<Options, String> {
        let mut o = Options::default_for(4);
        for (k, v) in rules {
            let bad = |what: &str| format!("rules: '{k}' = {v}: {what}");
            let uint = |max: u64| {
                v.as_u64()
                    .filter(|&x| x <= max)
                    .map(|x| x as u32)
                    .ok_or_else(|| bad(&format!("expected an integer 0 to {max}")))
            };
            let flag = || v.as_bool().ok_or_else(|| bad("expected true or false"));
            let pick = |names: &[&str]| {
                v.as_str()
                    .and_then(|s| names.iter().position(|n| *n == s))
                    .ok_or_else(|| bad(&format!("expected one of {}", names.join(", "))))
            };
            let pair = || {
                let a = v.as_array().filter(|a| a.len() == 2);
                let nums = a.and_then(|a| Some((a[0].as_u64()?, a[1].as_u64()?)));
                nums.filter(|&(p, d)| p <= 1000 && d <= 1000)
                    .map(|(p, d)| (p as u32, d as u32))
                    .ok_or_else(|| bad("expected [points, dich], two integers 0 to 1000"))
            };
            match k.as_str() {
                "players" => {
                    o.players = v
                        .as_u64()
                        .filter(|p| (2..=5).contains(p))
                        .ok_or_else(|| bad("Chắn seats 2 to 5 players (§2.1)"))?
                        as u8
                }
                "first_player_after_draw" => {
                    o.first_player_after_draw =
                        [FirstAfterDraw::Same, FirstAfterDraw::Next][pick(&["Same", "Next"])?]
                }
                "auto_expose_thien_khai" => o.auto_expose_thien_khai = flag()?,
                "chan_discard_rule" => {
                    o.chan_discard_rule = [ChanDiscardRule::SecondCardOnly, ChanDiscardRule::Strict]
                        [pick(&["SecondCardOnly", "Strict"])?]
                }
                "u_pass_forfeit" => o.u_pass_forfeit = flag()?,
                "chi_includes_passed_draw" => o.chi_includes_passed_draw = flag()?,
                "bach_thu_on_thien_u" => o.bach_thu_on_thien_u = flag()?,
                "quad_factor_values" => o.quad_factor_values = pair()?,
                "thien_u_values" => o.thien_u_values = pair()?,
                "thap_thanh_rule" => {
                    o.thap_thanh_rule = [
                        ThapThanhRule::SumAllPoints,
                        ThapThanhRule::SumPointsOfColourFactors,
                    ][pick(&["SumAllPoints", "SumPointsOfColourFactors"])?]
                }
                "xuong_points" => o.xuong_points = uint(1000)?,
                "ga_points" => o.ga_points = uint(1000)?,
                "stake" => {
                    o.stake = uint(1_000_000)?;
                    if o.stake == 0 {
                        return Err(bad("the stake must be positive"));
                    }
                }
                // §9 v2: extra factors are "not required of engines; under-specified".
                "extra_factors" => match v.as_array() {
                    Some(a) if a.is_empty() => {}
                    Some(_) => {
                        return Err(bad(
                            "extra factors (DiaU, BachThuChi, ChiuU, UBon, PhaThien) are not \
                             implemented (§9 v2: under-specified); only [] is accepted",
                        ))
                    }
                    None => return Err(bad("expected a list (only [] is accepted)")),
                },
                _ => return Err(format!("rules: unknown option '{k}'")),
            }
        }
        Ok(o)
    }
}

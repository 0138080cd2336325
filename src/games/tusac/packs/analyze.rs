//! The hand analyser of the multi-pack variants (`bailab analyze --variant sisepai21` or
//! `dirtyking26`): the loose count (§3.3), the fewest-loose partition with the most points
//! (§3.4 last paragraph, §3.6), the best-value points with loose cards allowed (§4.6 S5's
//! current points) and the pair gate, the win test of §4.7 with its score, and the waits: unseen
//! cards that would win at once or lower the loose count.
//!
//! The hand is one regroupable block (§3.3): face-down and melded sets are not given, so the
//! fixed points are 0 (a face-down quad given in the hand is worth the same dealt 8 there).
//! Two settings may come before the cards, as `key=value` tokens: `players=N` (2–8, default 4:
//! the packs are `max(2, ⌈n/2⌉)`, §1.1, which bounds the copies of each card) and, in
//! dirtyking26, `double=R` (the double rank, a non-King rank letter; default none, §2.5).
//!
//! Waits are read for the turn player (own draw, or the previous seat's discard): every meld
//! shape of §2.3 with the S5 pair gate, a King as the lone melded King of S1 (or dirtyking26's
//! King `Quad` from three copies). Off turn only identical sets (`Triple`, `Quad`) and King calls
//! may be made (S2): each wait names the meld it is best reached by.

use super::loose::partition::partition;
use super::loose::{best, max_points, set_points, win_score, Counts};
use super::melds::{meld_points, meld_shapes};
use crate::games::kind::AnalysisError;
use crate::games::tusac::card::{format_cards, parse_cards, Card, Rank, CARD_TYPES, RANKS};
use crate::games::tusac::meld::{Meld, Melds};
use crate::games::tusac::options::{KingIdenticalSets, Options, WinTest};
use crate::games::tusac::sets::SetRules;
use crate::games::tusac::sets::{SetInstance, SetKind};
use serde_json::{json, Value};

/// The players assumed when the hand gives no `players=N` (2 packs).
pub(crate) const DEFAULT_PLAYERS: u8 = 4;

/// An unseen card that would win or lower the loose count, taken by the turn player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The card type.
    pub card: Card,
    /// Its copies not in the hand and not seen.
    pub unseen: u8,
    /// The score of the best winning meld of it (§3.6, §4.7), if one wins.
    pub score: Option<u32>,
    /// The kind of that winning meld, or of the first meld lowering the loose count.
    pub meld: SetKind,
    /// Some meld of it lowers the loose count (§3.3).
    pub improves: bool,
}

/// Everything the analyser reports about one multi-pack hand.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The options in force (the variant's preset for the players given).
    pub opts: Options,
    /// The double rank given (`double=R`), if any.
    pub double_rank: Option<Rank>,
    /// The hand, canonical order.
    pub hand: Vec<Card>,
    /// `loose(B)` (§3.3).
    pub loose: u8,
    /// The fewest-loose partition with the most points (§3.6), as hand sets (dealt values).
    pub sets: Vec<SetInstance>,
    /// Its loose cards.
    pub loose_cards: Vec<Card>,
    /// Its points (dealt values, doubling applied).
    pub points: u32,
    /// The best-value points, loose cards allowed (§4.6 S5 current points).
    pub current_points: u32,
    /// The win score of the hand as it stands (§4.7, §3.6), if it passes the win test.
    pub score: Option<u32>,
    /// The partition paying `score` when it differs from `sets` (dirtyking26's even total).
    pub win_sets: Option<Vec<SetInstance>>,
    /// The cards that would win or lower the loose count, canonical order.
    pub waits: Vec<Wait>,
}

/// The analysis of a multi-pack hand of `variant` given in notation (settings first, see the
/// module documentation); `seen_text` lists cards visible elsewhere (dead pile, melded and
/// face-down sets of other seats) for the unseen counts. Errors name the token at fault.
pub fn analyze(variant: &str, hand_text: &str, seen_text: &str) -> Result<Analysis, AnalysisError> {
    let (settings, cards_text) = split_settings(hand_text);
    let mut players = DEFAULT_PLAYERS;
    let mut double_rank = None;
    for token in settings {
        apply_setting(variant, token, &mut players, &mut double_rank)?;
    }
    let opts = Options::preset(variant, players)?;
    opts.validate()?;
    let copies = opts.copies();
    let mut hand = parse_cards(cards_text, copies).map_err(|error| {
        if error.reason.contains("deck holds") {
            AnalysisError::PackCards {
                error,
                packs: opts.decks,
                players,
            }
        } else {
            AnalysisError::Cards {
                what: "hand",
                error,
            }
        }
    })?;
    if hand.is_empty() {
        return Err(AnalysisError::Empty {
            what: "hand",
            hint: "empty; give the cards of a hand, e.g. \"rK rA rE yP yP\"",
        });
    }
    let max = usize::from(opts.hand_size) + 1;
    if hand.len() > max {
        return Err(AnalysisError::TooMany {
            cards: hand.len(),
            max,
            variant: Some(variant.to_string()),
        });
    }
    hand.sort();
    let counts = super::loose::counts_of(&hand);
    let unseen = unseen(&counts, seen_text, copies)?;
    Ok(analyze_counts(opts, double_rank, hand, &counts, &unseen))
}

/// The leading `key=value` tokens of a hand text, and the rest (the cards).
fn split_settings(text: &str) -> (Vec<&str>, &str) {
    let mut rest = text.trim_start();
    let mut settings = Vec::new();
    while let Some(token) = rest.split_whitespace().next().filter(|t| t.contains('=')) {
        settings.push(token);
        rest = rest[token.len()..].trim_start();
    }
    (settings, rest)
}

/// Reads one `key=value` setting into `players` or `double_rank`.
fn apply_setting(
    variant: &str,
    token: &str,
    players: &mut u8,
    double_rank: &mut Option<Rank>,
) -> Result<(), AnalysisError> {
    let (key, value) = token.split_once('=').unwrap_or((token, ""));
    match key {
        "players" => {
            *players = value
                .parse()
                .ok()
                .filter(|n| (2..=8).contains(n))
                .ok_or_else(|| AnalysisError::SettingPlayers {
                    token: token.to_string(),
                })?;
        }
        "double" => {
            if variant != "dirtyking26" {
                return Err(AnalysisError::NoDoubleRank {
                    token: token.to_string(),
                    variant: variant.to_string(),
                });
            }
            *double_rank = Some(rank_of(value).ok_or_else(|| AnalysisError::DoubleRank {
                token: token.to_string(),
            })?);
        }
        _ => {
            return Err(AnalysisError::UnknownSetting {
                token: token.to_string(),
                key: key.to_string(),
            })
        }
    }
    Ok(())
}

/// The non-King rank written as `letter` (`A E R C H P`).
fn rank_of(letter: &str) -> Option<Rank> {
    RANKS
        .iter()
        .copied()
        .filter(|&r| r != Rank::King)
        .find(|&r| Card::new(crate::games::tusac::card::Colour::Red, r).to_string()[1..] == *letter)
}

/// Copies of each type not in `hand` and not in `seen_text`; too many copies is an error.
fn unseen(hand: &Counts, seen_text: &str, copies: u8) -> Result<Counts, AnalysisError> {
    let seen = parse_cards(seen_text, copies).map_err(|error| AnalysisError::Cards {
        what: "seen",
        error,
    })?;
    let mut pool = [copies; CARD_TYPES];
    for (i, n) in hand.iter().enumerate() {
        pool[i] -= n;
    }
    for (i, c) in seen.iter().enumerate() {
        let n = &mut pool[c.index()];
        *n = n.checked_sub(1).ok_or_else(|| AnalysisError::SeenCopies {
            position: i + 1,
            card: c.to_string(),
            copies,
        })?;
    }
    Ok(pool)
}

/// The analysis of a hand given as counts, with `unseen` copies of each type left.
pub(crate) fn analyze_counts(
    opts: Options,
    double_rank: Option<Rank>,
    hand: Vec<Card>,
    counts: &Counts,
    unseen: &Counts,
) -> Analysis {
    let rules = SetRules::new(&opts, double_rank);
    let (loose, points) = best(counts, &rules);
    let (sets, loose_counts) = partition(counts, &rules, None);
    let score = win_score(counts, 0, &rules, opts.win_test);
    let win_sets = score
        .filter(|&s| s != points)
        .map(|s| partition(counts, &rules, Some(s)).0.to_vec());
    let loose_cards = Card::all()
        .flat_map(|c| std::iter::repeat_n(c, usize::from(loose_counts[c.index()])))
        .collect();
    Analysis {
        double_rank,
        hand,
        loose,
        sets: sets.to_vec(),
        loose_cards,
        points,
        current_points: max_points(counts, &rules),
        score,
        win_sets,
        waits: waits(&opts, &rules, counts, unseen),
        opts,
    }
}

/// The waits of `hand`: each unseen card type some meld of which wins or lowers the loose count.
fn waits(opts: &Options, rules: &SetRules, hand: &Counts, unseen: &Counts) -> Vec<Wait> {
    let loose = best(hand, rules).0;
    let pair_open = opts
        .pair_meld_min_points
        .is_none_or(|min| max_points(hand, rules) > u32::from(min));
    let mut melds = Melds::new();
    Card::all()
        .filter(|u| unseen[u.index()] > 0)
        .filter_map(|u| {
            candidate_melds(hand, u, rules, pair_open, &mut melds);
            wait_of(hand, loose, u, &melds, rules, opts.win_test).map(|w| Wait {
                unseen: unseen[u.index()],
                ..w
            })
        })
        .collect()
}

/// The melds the turn player could make with `u` (§2.3, S5 gate; S1 for a King).
fn candidate_melds(hand: &Counts, u: Card, rules: &SetRules, pair_open: bool, out: &mut Melds) {
    if u.is_king() {
        out.clear();
        out.push(Meld::new(SetKind::King, &[]));
        if rules.king_identical == KingIdenticalSets::QuadOnly && hand[u.index()] >= 3 {
            out.push(Meld::new(SetKind::Quad, &[u; 3]));
        }
        return;
    }
    meld_shapes(hand, u, rules.cross_colour, out);
    if !pair_open {
        out.retain(|m| m.kind != SetKind::Pair);
    }
}

/// The wait `u` makes with these melds (unseen count left 0), if one wins or improves.
fn wait_of(
    hand: &Counts,
    loose: u8,
    u: Card,
    melds: &[Meld],
    rules: &SetRules,
    test: WinTest,
) -> Option<Wait> {
    let mut wait: Option<Wait> = None;
    for m in melds {
        let mut after = *hand;
        m.used().iter().for_each(|c| after[c.index()] -= 1);
        let score = win_score(&after, meld_points(*m, u, rules), rules, test);
        let improves = best(&after, rules).0 < loose;
        if score.is_none() && !improves {
            continue;
        }
        let w = wait.get_or_insert(Wait {
            card: u,
            unseen: 0,
            score,
            meld: m.kind,
            improves,
        });
        w.improves |= improves;
        if score > w.score {
            (w.score, w.meld) = (score, m.kind);
        }
    }
    wait
}

/// A set as JSON: kind, cards, points under `rules`.
fn set_json(s: &SetInstance, rules: &SetRules) -> Value {
    let cards: Vec<String> = s.cards().iter().map(|c| c.to_string()).collect();
    json!({"kind": s.kind.name(), "cards": cards, "value": set_points(s, rules)})
}

/// A set as text: `[cards] Kind points`.
fn set_text(s: &SetInstance, rules: &SetRules) -> String {
    format!(
        "[{}] {} {}",
        format_cards(s.cards().iter().copied()),
        s.kind.name(),
        set_points(s, rules)
    )
}

/// The win test of the options, in words (§4.7).
fn test_words(test: WinTest) -> &'static str {
    match test {
        WinTest::TrashZero => "complete",
        WinTest::CompleteOver9 => "complete and more than 9 points",
        WinTest::CompleteOver20Even => "complete, some partition more than 20 points and even",
    }
}

fn card_list(cards: impl IntoIterator<Item = Card>) -> Value {
    Value::from(cards.into_iter().map(|c| c.to_string()).collect::<Vec<_>>())
}

impl Analysis {
    /// The set rules the analysis used.
    pub fn rules(&self) -> SetRules {
        SetRules::new(&self.opts, self.double_rank)
    }

    /// Whether the hand is complete (`loose = 0`, §3.3).
    pub fn complete(&self) -> bool {
        self.loose == 0
    }

    /// Whether the pair gate of S5 is open (a `Pair` meld allowed), or None without a gate.
    pub fn pair_gate_open(&self) -> Option<bool> {
        self.opts
            .pair_meld_min_points
            .map(|min| self.current_points > u32::from(min))
    }

    /// The waits that win.
    pub fn wins(&self) -> impl Iterator<Item = &Wait> {
        self.waits.iter().filter(|w| w.score.is_some())
    }

    /// The waits that lower the loose count.
    pub fn improves(&self) -> impl Iterator<Item = &Wait> {
        self.waits.iter().filter(|w| w.improves)
    }

    /// The JSON object of `analyze --json` (keys `hand`, `loose`, `sets`, `score`, `waits`, ...).
    pub fn to_json(&self) -> Value {
        let rules = self.rules();
        let sets = |list: &[SetInstance]| -> Vec<Value> {
            list.iter().map(|s| set_json(s, &rules)).collect()
        };
        let by_card = |it: &mut dyn Iterator<Item = (&Wait, Value)>| -> serde_json::Map<_, _> {
            it.map(|(w, v)| (w.card.to_string(), v)).collect()
        };
        json!({
            "variant": self.opts.variant,
            "players": self.opts.players,
            "packs": self.opts.decks,
            "double_rank": self.double_rank.map(rank_letter),
            "hand": format_cards(self.hand.iter().copied()),
            "cards": self.hand.len(),
            "loose": self.loose,
            "complete": self.complete(),
            "sets": sets(&self.sets),
            "loose_cards": card_list(self.loose_cards.iter().copied()),
            "points": self.points,
            "current_points": self.current_points,
            "pair_gate": self.opts.pair_meld_min_points.map(|min| json!({
                "more_than": min, "open": self.pair_gate_open(),
            })),
            "win_test": test_words(self.opts.win_test),
            "wins": self.score.is_some(),
            "score": self.score,
            "win_sets": self.win_sets.as_deref().map(sets),
            "waits": card_list(self.wins().map(|w| w.card)),
            "wait_unseen": by_card(&mut self.wins().map(|w| (w, Value::from(w.unseen)))),
            "wait_scores": by_card(&mut self.wins().map(|w| (w, Value::from(w.score)))),
            "wait_melds": by_card(&mut self.wins().map(|w| (w, Value::from(w.meld.name())))),
            "improves": card_list(self.improves().map(|w| w.card)),
            "improve_unseen": by_card(&mut self.improves().map(|w| (w, Value::from(w.unseen)))),
        })
    }

    /// The readable report of `analyze`.
    pub fn to_text(&self) -> String {
        let rules = self.rules();
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        let sets = |list: &[SetInstance]| -> String {
            let v: Vec<String> = list.iter().map(|s| set_text(s, &rules)).collect();
            v.join(", ")
        };
        let double = match self.double_rank {
            Some(r) => format!(", double rank {}", rank_letter(r)),
            None if self.opts.double_rank => ", no double rank given".to_string(),
            None => String::new(),
        };
        let mut lines = vec![
            format!(
                "variant      {}, {} players ({} packs, {} copies of each card){double}",
                self.opts.variant,
                self.opts.players,
                self.opts.decks,
                self.opts.copies()
            ),
            format!(
                "hand         {} ({} cards)",
                format_cards(self.hand.iter().copied()),
                self.hand.len()
            ),
            format!("loose        {}", self.loose),
            format!(
                "partition    {} | {}",
                dash(sets(&self.sets)),
                dash(format_cards(self.loose_cards.iter().copied()))
            ),
            format!(
                "points       {} (this partition); best value {} (loose cards allowed, §4.6 S5)",
                self.points, self.current_points
            ),
        ];
        if let Some(min) = self.opts.pair_meld_min_points {
            let open = if self.pair_gate_open() == Some(true) {
                "open"
            } else {
                "closed"
            };
            lines.push(format!(
                "pair gate    {open}: current points {} against more than {min}",
                self.current_points
            ));
        }
        lines.push(format!("win test     {}", self.win_line()));
        if let Some(w) = &self.win_sets {
            lines.push(format!("win sets     {}", sets(w)));
        }
        let wins: Vec<String> = self
            .wins()
            .map(|w| {
                format!(
                    "{} ({} unseen, {} {})",
                    w.card,
                    w.unseen,
                    w.meld.name(),
                    w.score.unwrap_or(0)
                )
            })
            .collect();
        let improves: Vec<String> = self
            .improves()
            .map(|w| format!("{} ({} unseen)", w.card, w.unseen))
            .collect();
        lines.push(format!("waits        {}", dash(wins.join(", "))));
        lines.push(format!("improves     {}", dash(improves.join(", "))));
        lines.join("\n")
    }

    /// The win test line: the test, and whether the hand passes it with its score.
    fn win_line(&self) -> String {
        let test = test_words(self.opts.win_test);
        match self.score {
            Some(s) => format!("{test}: wins, score {s}"),
            None if self.complete() => {
                format!("{test}: complete but fails the points test (a set must be broken, S6)")
            }
            None => format!("{test}: not complete ({} loose)", self.loose),
        }
    }
}

/// The letter of a rank (`K A E R C H P`).
fn rank_letter(r: Rank) -> String {
    Card::new(crate::games::tusac::card::Colour::Red, r).to_string()[1..].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_come_before_the_cards() {
        let (s, rest) = split_settings(" players=8 double=H rK rA");
        assert_eq!(s, ["players=8", "double=H"]);
        assert_eq!(rest, "rK rA");
        assert_eq!(rank_of("H"), Some(Rank::Horse));
        assert_eq!(rank_of("K"), None);
        assert_eq!(rank_letter(Rank::Pawn), "P");
    }

    #[test]
    fn eight_players_allow_sixteen_copies() {
        let hand = ["rH"; 16].join(" ");
        let a = analyze("sisepai21", &format!("players=8 {hand}"), "").unwrap();
        assert_eq!(a.opts.decks, 4);
        assert_eq!(a.loose, 0);
        let e = analyze("sisepai21", &format!("players=8 {hand} rH"), "")
            .unwrap_err()
            .to_string();
        assert!(e.contains("copy 17 of rH"), "{e}");
    }
}

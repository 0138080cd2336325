//! The hand analyser (`bailab analyze --game chan HAND`): the canonical decomposition (§3.2),
//! whether the hand waits for ù and on which cards (§3.4), and the factors and score (§8) it
//! would have if it won now. A dealt 4-of-a-kind is laid down first (§5.2.1, Thiên khai).

use super::card::{format_cards, parse_cards, Card, COPIES, IDENTITIES};
use super::decompose::{decompose, win_shape, Decomposition};
use super::hand::Hand;
use super::options::Options;
use super::score::{score, Score, WinFacts};
use crate::games::kind::AnalysisError;
use serde_json::{json, Value};

/// Most cards a hand holds (the first player's 20).
pub(crate) const MAX_HAND: usize = 20;

/// A win the hand could make now: on `card` (none for Thiên ù), with its score.
#[derive(Clone, Debug)]
pub struct WinNow {
    /// The ù card (`None` for a 20-card Thiên ù).
    pub card: Option<Card>,
    /// Unseen copies of the card (not in the hand, not in `seen`).
    pub unseen: u8,
    /// The score.
    pub score: Score,
}

/// Everything the analyser reports about one hand.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The hand in canonical order.
    pub hand: Hand,
    /// Identities held four times, laid down as Thiên khai quads.
    pub quads: Vec<Card>,
    /// The decomposition of the rest (the concealed cards).
    pub(crate) decomposition: Decomposition,
    /// `TotalChan`: the quads' 2 each plus the decomposition's Chắn.
    pub(crate) total_chan: u8,
    /// The concealed `Chan` pairs (one card each).
    pub(crate) chan_pairs: Vec<Card>,
    /// `Waiting` of §6.1 (one lone card or a ba đầu, ≥ 5 Chắn).
    pub waiting: bool,
    /// 19-card hands: the cards it wins on, each scored as drawn by another player (neither
    /// Ù chì nor Ù thông); a 20-card hand: its Thiên ù, if any.
    pub wins: Vec<WinNow>,
}

/// Analyses a whole hand in notation (19 cards, or the first player's 20); `seen` lists cards
/// visible elsewhere, used for the unseen counts of the winning cards. Errors name the token and
/// its position, or the number of cards.
pub fn analyze(hand_text: &str, seen_text: &str, o: &Options) -> Result<Analysis, AnalysisError> {
    let cards = parse_cards(hand_text).map_err(|error| AnalysisError::Cards {
        what: "hand",
        error,
    })?;
    check_size(cards.len())?;
    let hand = Hand::of(&cards);
    let seen = parse_cards(seen_text).map_err(|error| AnalysisError::Cards {
        what: "seen",
        error,
    })?;
    let mut visible = hand;
    for (i, &c) in seen.iter().enumerate() {
        visible.add(c);
        if visible.count(c) > COPIES {
            return Err(AnalysisError::SeenCopies {
                position: i + 1,
                card: c.to_string(),
                copies: COPIES,
            });
        }
    }
    Ok(analyze_hand(hand, &visible, o))
}

/// The analyser reads whole hands only: 19 cards, or 20 (the first player's before his first
/// discard, §2.4); any other count is an error naming it.
fn check_size(n: usize) -> Result<(), AnalysisError> {
    match n {
        0 => Err(AnalysisError::Empty {
            what: "hand",
            hint: "empty; give 19 or 20 cards, e.g. \"2v 2v 3n 3s ...\"",
        }),
        n if n == MAX_HAND || n == MAX_HAND - 1 => Ok(()),
        cards => Err(AnalysisError::NotWhole { cards }),
    }
}

/// Analyses a hand; `visible` counts the hand plus every card seen elsewhere.
pub(crate) fn analyze_hand(hand: Hand, visible: &Hand, o: &Options) -> Analysis {
    let quads: Vec<Card> = Card::all().filter(|&c| hand.count(c) == 4).collect();
    let mut concealed = hand;
    quads.iter().for_each(|&c| concealed.remove_n(c, 4));
    let exposed_chan = 2 * quads.len() as u8;
    let d = decompose(&concealed);
    let chan_pairs = concealed
        .types()
        .flat_map(|c| std::iter::repeat_n(c, (concealed.count(c) / 2) as usize))
        .collect();
    let facts = |c: Option<Card>| {
        let h = match c {
            Some(c) => concealed.with(c),
            None => concealed,
        };
        let dh = decompose(&h);
        WinFacts {
            fh: match c {
                Some(c) => hand.with(c),
                None => hand,
            },
            initial: hand,
            t: exposed_chan + dh.chan,
            c,
            c_single: c.is_some_and(|c| hand.count(c) % 2 == 1),
            ca_of_c_rank: c
                .and_then(|c| c.rank_index())
                .is_some_and(|r| dh.has_ca_of_rank(r)),
            u_thong: false,
            u_chi: false,
        }
    };
    let wins = if hand.len() == MAX_HAND {
        win_shape(&concealed, exposed_chan, None)
            .then(|| WinNow {
                card: None,
                unseen: 0,
                score: score(&facts(None), true, o),
            })
            .into_iter()
            .collect()
    } else {
        (0..IDENTITIES)
            .map(Card::from_index)
            .filter(|&c| hand.count(c) < COPIES && win_shape(&concealed, exposed_chan, Some(c)))
            .map(|c| WinNow {
                card: Some(c),
                unseen: COPIES - visible.count(c),
                score: score(&facts(Some(c)), false, o),
            })
            .collect()
    };
    Analysis {
        hand,
        quads,
        decomposition: d,
        total_chan: exposed_chan + d.chan,
        chan_pairs,
        waiting: matches!((d.l(), d.b()), (1, 0) | (0, 1)) && exposed_chan + d.chan >= 5,
        wins,
    }
}

fn list(cards: impl IntoIterator<Item = Card>) -> Value {
    Value::from(cards.into_iter().map(|c| c.to_string()).collect::<Vec<_>>())
}

fn score_json(s: &Score) -> Value {
    json!({
        "factors": Value::from(s.instances().map(|f| f.id()).collect::<Vec<_>>()),
        "points": s.points,
        "ga": s.ga,
        "S": s.s,
    })
}

impl Analysis {
    fn ca_pairs(&self) -> Vec<(Card, Card)> {
        let bits = self.decomposition.ca_cards;
        (0..8)
            .filter_map(|r| {
                let [a, b, c] = Card::of_rank(r);
                let has = |x: Card| bits & x.bit() != 0;
                match (has(a), has(b), has(c)) {
                    (true, true, _) => Some((a, b)),
                    (true, false, true) => Some((a, c)),
                    (false, true, true) => Some((b, c)),
                    _ => None,
                }
            })
            .collect()
    }

    /// The JSON object (keys `hand`, `cards`, `thien_khai`, `chan`, `ca`, `lone`, `badau`,
    /// `chan_pairs`, `ca_pairs`, `waiting`, `wins`).
    pub fn to_json(&self) -> Value {
        let d = &self.decomposition;
        let wins: Vec<Value> = self
            .wins
            .iter()
            .map(|w| {
                let mut v = score_json(&w.score);
                v["card"] = w.card.map_or(Value::Null, |c| Value::from(c.to_string()));
                v["unseen"] = Value::from(w.unseen);
                v
            })
            .collect();
        json!({
            "hand": self.hand.to_string(),
            "cards": self.hand.len(),
            "thien_khai": list(self.quads.iter().copied()),
            "chan": self.total_chan,
            "ca": d.ca,
            "lone": list(d.lone_cards()),
            "badau": (0..8).filter(|r| d.badau >> r & 1 == 1).map(|r| r + 2).collect::<Vec<_>>(),
            "chan_pairs": list(self.chan_pairs.iter().copied()),
            "ca_pairs": self.ca_pairs().iter().map(|(a, b)| format!("{a} {b}")).collect::<Vec<_>>(),
            "waiting": self.waiting,
            "wins": wins,
        })
    }

    /// The readable report.
    pub fn to_text(&self) -> String {
        let d = &self.decomposition;
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        let ca: Vec<String> = self
            .ca_pairs()
            .iter()
            .map(|(a, b)| format!("[{a} {b}]"))
            .collect();
        let chan: Vec<String> = self
            .quads
            .iter()
            .map(|c| format!("[{c} {c} {c} {c}]"))
            .chain(self.chan_pairs.iter().map(|c| format!("[{c} {c}]")))
            .collect();
        let badau: Vec<String> = (0..8)
            .filter(|r| d.badau >> r & 1 == 1)
            .map(|r| format!("rank {}", r + 2))
            .collect();
        let wins: Vec<String> = self
            .wins
            .iter()
            .map(|w| match w.card {
                Some(c) => format!("{c} ({} unseen): {}", w.unseen, w.score),
                None => format!("Thien u: {}", w.score),
            })
            .collect();
        let mut lines = vec![
            format!("hand      {} ({} cards)", self.hand, self.hand.len()),
            format!("chan      {} {}", self.total_chan, dash(chan.join(" "))),
            format!("ca        {} {}", d.ca, dash(ca.join(" "))),
            format!("lone      {}", dash(format_cards(d.lone_cards()))),
            format!("ba dau    {}", dash(badau.join(", "))),
            format!("waiting   {}", if self.waiting { "yes" } else { "no" }),
        ];
        if self.hand.len() == MAX_HAND {
            lines.push(format!("win now   {}", dash(wins.join("; "))));
        } else {
            lines.push(format!("wins on   {}", dash(wins.join("\n          "))));
            lines.push(
                "          (each scored as drawn by another player: no chì, no thông)".into(),
            );
        }
        lines.join("\n")
    }
}

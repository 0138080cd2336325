//! The Tiến Lên analyser (`bailab analyze --game tienlen`): a hand's best split into
//! combinations, its hàng and heo, its thối and any tới trắng it holds; or a play's type and size,
//! and whether it beats another play and whether that is a chặt, with its value.

use super::card::{parse_cards, Card, RANK_TWO};
use super::card_set::Cards;
use super::combo::{beats, chat_value, classify, is_chat, thoi, toi_trang, Combo, ComboType};
use super::options::Options;
use super::split::{Split, Splitter};
use crate::games::kind::AnalysisError;
use serde_json::{json, Value};

/// Cards a hand holds at most (§2.3).
pub(crate) const MAX_HAND: usize = 13;

/// Reads a set of cards for `what` (`hand`, `play`, `against`): errors name the card at fault.
fn read(text: &str, what: &'static str) -> Result<Cards, AnalysisError> {
    let cards: Vec<Card> =
        parse_cards(text).map_err(|error| AnalysisError::Cards { what, error })?;
    if cards.is_empty() {
        return Err(AnalysisError::Empty {
            what,
            hint: "no cards; write them as e.g. \"3s 4d Th 2h\"",
        });
    }
    Ok(cards.into_iter().collect())
}

/// The JSON of a combination's type as the §10.1 vectors write it: `type` (the identifier
/// without its size), `size` (cards for Single..Quad and Straight, pairs for PairSequence) and
/// `top` (the `ckey` card).
fn combo_json(cards: Cards, c: Option<Combo>) -> Value {
    let (kind, size) = match c.map(|c| c.kind) {
        None => (Value::Null, Value::Null),
        Some(ComboType::Straight(n)) => (json!("Straight"), json!(n)),
        Some(ComboType::PairSequence(k)) => (json!("PairSequence"), json!(k)),
        Some(t) => (json!(format!("{t:?}")), json!(t.cards())),
    };
    json!({
        "cards": cards.to_string(),
        "type": kind,
        "size": size,
        "top": c.map(|c| c.top.to_string()),
    })
}

/// A half-cược amount in cược (`1.5`).
fn cuoc(half: u32) -> f64 {
    f64::from(half) / 2.0
}

/// Analyses a hand: the best split, hàng, heo, thối and tới trắng.
pub(crate) fn analyze_hand(text: &str, o: &Options) -> Result<(Value, String), AnalysisError> {
    let hand = read(text, "hand")?;
    if hand.len() as usize > MAX_HAND {
        return Err(AnalysisError::TooMany {
            cards: hand.len() as usize,
            max: MAX_HAND,
            variant: None,
        });
    }
    let mut split = Split::new();
    Splitter::default().split(hand, &mut split);
    let singles = split.iter().filter(|c| c.kind == ComboType::Single).count();
    let hang: Vec<&Combo> = split.iter().filter(|c| c.is_hang()).collect();
    let heo = hand.of_rank(RANK_TWO);
    let thoi = thoi(hand, o);
    let names = |initial| -> Vec<&'static str> {
        toi_trang(hand, initial, o).iter().map(|t| t.id()).collect()
    };
    let (normal, initial) = (names(false), names(true));
    let json = json!({
        "hand": hand.to_string(),
        "cards": hand.len(),
        "split": split.iter().map(|c| combo_json(c.cards, Some(*c))).collect::<Vec<_>>(),
        "combinations": split.len(),
        "singles": singles,
        "hang": hang.iter().map(|c| combo_json(c.cards, Some(**c))).collect::<Vec<_>>(),
        "heo": heo.to_string(),
        "thoi": cuoc(thoi),
        "toi_trang": {"normal": normal, "initial": initial},
    });
    let list = |v: &[&str]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let parts: Vec<String> = split
        .iter()
        .map(|c| format!("[{}] {}", c.cards, c.kind))
        .collect();
    let hang_text: Vec<String> = hang
        .iter()
        .map(|c| format!("{} [{}]", c.kind, c.cards))
        .collect();
    let text = format!(
        "hand         {hand} ({} cards)\n\
         split        {} ({} combinations, {singles} singles)\n\
         hàng         {}\n\
         heo          {}\n\
         thối         {} cược if left holding this hand (§7.3)\n\
         tới trắng    normal game: {}; initial game: {}",
        hand.len(),
        parts.join(" | "),
        split.len(),
        if hang_text.is_empty() {
            "none".into()
        } else {
            hang_text.join(", ")
        },
        if heo.is_empty() {
            "none".into()
        } else {
            heo.to_string()
        },
        cuoc(thoi),
        list(&normal),
        list(&initial),
    );
    Ok((json, text))
}

/// Analyses a play: its type and size, and against another play whether it beats it, whether
/// that is a chặt and the chặt's value. With a hand, the play must come from it.
pub(crate) fn analyze_play(
    hand: Option<&str>,
    play: &str,
    against: Option<&str>,
    o: &Options,
) -> Result<(Value, String), AnalysisError> {
    let a = read(play, "play")?;
    if let Some(h) = hand.filter(|h| !h.trim().is_empty()) {
        let h = read(h, "hand")?;
        if let Some(c) = a.minus(h).lowest() {
            return Err(AnalysisError::NotInHand {
                card: c.to_string(),
            });
        }
    }
    let ca = classify(a);
    let mut json = combo_json(a, ca);
    let describe = |c: Option<Combo>| c.map_or("Invalid".to_string(), |c| c.kind.to_string());
    let mut text = format!("play         {a}: {}", describe(ca));
    if let Some(b_text) = against {
        let b = read(b_text, "against")?;
        if let Some(c) = a.inter(b).lowest() {
            return Err(AnalysisError::InPlay {
                card: c.to_string(),
            });
        }
        let cb = classify(b);
        let beats_ab = matches!((ca, cb), (Some(x), Some(y)) if beats(&x, &y, o));
        let chat = beats_ab && matches!((ca, cb), (Some(x), Some(y)) if is_chat(&x, &y, o));
        let value = cb.filter(|_| chat).map(|y| cuoc(chat_value(&y, o)));
        json["against"] = combo_json(b, cb);
        json["beats"] = json!(beats_ab);
        json["chat"] = json!(chat);
        json["chat_value"] = json!(value);
        text += &format!(
            "\nagainst      {b}: {}\nbeats        {}{}",
            describe(cb),
            if beats_ab { "yes" } else { "no" },
            match value {
                Some(v) => format!(", a chặt worth {v} cược (§3.3)"),
                None => String::new(),
            }
        );
    }
    Ok((json, text))
}

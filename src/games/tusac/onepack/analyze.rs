//! The hand analyser (`bailab analyze`): what a player's "Find Trash" button shows for a private
//! block: trash, one optimal partition, the legal and worst discards, the hand value and the waits.

use super::rules::{can_win, cards_of, legal_discards};
use super::trash::{optimal_partition, trash};
use super::worst::{outs, unseen, worst_set, COPIES};
use crate::games::kind::AnalysisError;
use crate::games::tusac::card::{format_cards, parse_cards, Card, CARD_TYPES};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::sets::{Origin, SetInstance, SetKind, Zone};
use serde_json::{json, Value};

/// Largest private block a player can hold (`F`'s 21 cards).
pub(crate) const MAX_HAND: usize = 21;

/// Everything the analyser reports about one hand.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The hand as given, in canonical order.
    pub hand: Vec<Card>,
    /// Dealt quadruples, exposed as Quans before the rest is analysed (§1.4).
    pub quans: Vec<Card>,
    /// The private block (the hand less its Quans).
    pub private: Hand,
    /// Trash count (§3.1).
    pub trash: u8,
    /// One optimal partition of highest value (§3.6): Quans first, then the private sets.
    pub sets: Vec<SetInstance>,
    /// Its trash cards.
    pub(crate) trash_cards: Vec<Card>,
    /// Legal discards (C7) with their outs (§5.1).
    pub discards: Vec<(Card, u32)>,
    /// The worst legal discards (§5.1 item 5).
    pub worst: Vec<Card>,
    /// Hand value `hv` when trash is 0 (§6.1), Quans included.
    pub hand_value: Option<u32>,
    /// Card types that, taken as the active card, would win (C1), with their unseen copies.
    pub waits: Vec<(Card, u32)>,
}

/// Analyses a classic hand given in notation; `seen` lists cards visible elsewhere (dead pile,
/// public blocks) for the outs of §5. Errors name the token and its position.
pub fn analyze(hand_text: &str, seen_text: &str) -> Result<Analysis, AnalysisError> {
    let cards = parse_cards(hand_text, COPIES).map_err(|error| AnalysisError::Cards {
        what: "hand",
        error,
    })?;
    if cards.is_empty() {
        return Err(AnalysisError::Empty {
            what: "hand",
            hint: "empty; give the cards of a private block, e.g. \"rK rA rE yP\"",
        });
    }
    if cards.len() > MAX_HAND {
        return Err(AnalysisError::TooMany {
            cards: cards.len(),
            max: MAX_HAND,
            variant: None,
        });
    }
    let mut counts = [0u8; CARD_TYPES];
    cards.iter().for_each(|c| counts[c.index()] += 1);
    let seen = parse_cards(seen_text, COPIES).map_err(|error| AnalysisError::Cards {
        what: "seen",
        error,
    })?;
    let mut visible = [0u8; CARD_TYPES];
    for (i, c) in seen.iter().enumerate() {
        visible[c.index()] += 1;
        if visible[c.index()] + counts[c.index()] > COPIES {
            return Err(AnalysisError::SeenCopies {
                position: i + 1,
                card: c.to_string(),
                copies: COPIES,
            });
        }
    }
    let quans: Vec<Card> = Card::all().filter(|c| counts[c.index()] == 4).collect();
    quans.iter().for_each(|c| counts[c.index()] = 0);
    let private = Hand::from_counts(&counts);
    quans.iter().for_each(|c| visible[c.index()] += 4);
    Ok(analyze_block(cards, quans, private, &visible))
}

/// Analyses a private block with nothing seen elsewhere (the analyser's core, used by `bench`).
pub(crate) fn analyze_hand(private: Hand) -> Analysis {
    analyze_block(
        private.cards().collect(),
        Vec::new(),
        private,
        &[0; CARD_TYPES],
    )
}

fn analyze_block(
    mut hand: Vec<Card>,
    quans: Vec<Card>,
    private: Hand,
    visible: &[u8; CARD_TYPES],
) -> Analysis {
    hand.sort();
    let part = optimal_partition(private);
    let quan_sets = quans
        .iter()
        .map(|&c| SetInstance::new(SetKind::Quad, &[c; 4], Zone::Public, Origin::Dealt));
    let sets: Vec<SetInstance> = quan_sets.chain(part.sets.iter().copied()).collect();
    let t = trash(private);
    let discards: Vec<(Card, u32)> = cards_of(legal_discards(private))
        .map(|c| (c, outs(c, private, visible)))
        .collect();
    let waits = Card::all()
        .filter(|&x| can_win(private, x))
        .map(|x| (x, unseen(x, private, visible)))
        .collect();
    Analysis {
        hand,
        quans,
        private,
        trash: t,
        hand_value: (t == 0).then(|| sets.iter().map(|s| s.classic_value()).sum()),
        sets,
        trash_cards: part.trash.to_vec(),
        discards,
        worst: cards_of(worst_set(private, visible)).collect(),
        waits,
    }
}

fn card_list(cards: &[Card]) -> Value {
    Value::from(cards.iter().map(|c| c.to_string()).collect::<Vec<_>>())
}

impl Analysis {
    /// The JSON object of `analyze --json` (keys `hand`, `trash`, `sets`, `trash_cards`, ...).
    pub fn to_json(&self) -> Value {
        let sets: Vec<Value> = self
            .sets
            .iter()
            .map(|s| {
                json!({"kind": s.kind.name(), "cards": card_list(s.cards()), "name": s.classic_name(),
                       "value": s.classic_value()})
            })
            .collect();
        let outs: serde_json::Map<String, Value> = self
            .discards
            .iter()
            .map(|(c, o)| (c.to_string(), Value::from(*o)))
            .collect();
        let waits: serde_json::Map<String, Value> = self
            .waits
            .iter()
            .map(|(c, u)| (c.to_string(), Value::from(*u)))
            .collect();
        json!({
            "hand": format_cards(self.hand.iter().copied()),
            "cards": self.hand.len(),
            "trash": self.trash,
            "sets": sets,
            "trash_cards": card_list(&self.trash_cards),
            "legal_discards": card_list(&self.discards.iter().map(|d| d.0).collect::<Vec<_>>()),
            "outs": outs,
            "worst": card_list(&self.worst),
            "hand_value": self.hand_value,
            "waits": card_list(&self.waits.iter().map(|w| w.0).collect::<Vec<_>>()),
            "wait_unseen": waits,
        })
    }

    /// The readable report of `analyze`.
    pub fn to_text(&self) -> String {
        let sets: Vec<String> = self.sets.iter().map(|s| s.to_string()).collect();
        let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        let discards: Vec<String> = self
            .discards
            .iter()
            .map(|(c, o)| {
                format!(
                    "{c} (outs {o}{})",
                    if self.worst.contains(c) {
                        ", worst"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        let waits: Vec<String> = self
            .waits
            .iter()
            .map(|(c, u)| format!("{c} ({u} unseen)"))
            .collect();
        let value = match self.hand_value {
            Some(v) => v.to_string(),
            None => format!("- (not complete: {} trash)", self.trash),
        };
        [
            format!(
                "hand         {} ({} cards)",
                format_cards(self.hand.iter().copied()),
                self.hand.len()
            ),
            format!("trash        {}", self.trash),
            format!(
                "partition    {} | {}",
                sets.join(" "),
                format_cards(self.trash_cards.iter().copied())
            ),
            format!(
                "trash cards  {}",
                dash(format_cards(self.trash_cards.iter().copied()))
            ),
            format!("discards     {}", dash(discards.join(", "))),
            format!(
                "worst        {}",
                dash(format_cards(self.worst.iter().copied()))
            ),
            format!("hand value   {value}"),
            format!("waits        {}", dash(waits.join(", "))),
        ]
        .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyses_row_23_of_section_3_5() {
        let a = analyze(
            "rK rA rE yA yE yE gR gC gH gH wR wC rP yP gP wP wP yK gK gA",
            "",
        )
        .unwrap();
        assert_eq!(a.trash, 5);
        assert_eq!(a.trash_cards.len(), 5);
        let j = a.to_json();
        assert_eq!(j["trash"], 5);
        assert_eq!(j["hand_value"], Value::Null);
    }

    #[test]
    fn complete_hand_reports_value_and_quans() {
        let a = analyze("rH rH rH rH rK rA rE", "").unwrap();
        assert_eq!(a.quans.len(), 1);
        assert_eq!(a.trash, 0);
        assert_eq!(a.hand_value, Some(9));
        assert!(
            a.waits.iter().any(|(c, _)| c.is_king()),
            "a complete hand wins on any King"
        );
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(analyze("", "").unwrap_err().to_string().contains("empty"));
        assert!(analyze("rK zz", "")
            .unwrap_err()
            .to_string()
            .contains("card 2 'zz'"));
        assert!(analyze("rK rK rK rK rK", "")
            .unwrap_err()
            .to_string()
            .contains("card 5"));
        assert!(analyze("rK rK rK", "rK rK")
            .unwrap_err()
            .to_string()
            .contains("seen: card 2"));
        let many = "rP rK yK gK wK rA yA gA wA rE yE gE wE rR yR gR wR rC yC gC wC rH";
        assert!(analyze(many, "")
            .unwrap_err()
            .to_string()
            .contains("22 cards"));
    }
}

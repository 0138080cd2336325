//! One partition of a hand as sets and loose cards, for the analyser, logs and records: the
//! fewest-loose one with the most points, or a zero-loose one worth given points, followed
//! block by block through the solver's cached answers.

use super::solve::{blocks, candidates, solve_lb, solve_mask, sum_masks, Block, Counts, Template};
use crate::games::tusac::card::CARD_TYPES;
use crate::games::tusac::sets::{Origin, SetInstance, SetRules, Zone};
use arrayvec::ArrayVec;

/// One partition achieving `best` (or, with `target`, a zero-loose one worth exactly `target`
/// points) as set instances (zone Private, origin Dealt) and the loose cards, for logs/records.
/// When no zero-loose partition is worth `target`, the best partition is returned.
pub fn partition(
    hand: &Counts,
    rules: &SetRules,
    target: Option<u32>,
) -> (ArrayVec<SetInstance, 26>, Counts) {
    let mut sets = ArrayVec::new();
    let mut loose_cards = [0u8; CARD_TYPES];
    let block_list = blocks(rules);
    match target.and_then(|v| block_targets(hand, rules, &block_list, v)) {
        Some(values) => {
            for (block, v) in block_list.iter().zip(values) {
                walk_target(hand, block, rules, v, &mut sets);
            }
        }
        None => {
            for block in &block_list {
                walk_best(hand, block, rules, &mut sets, &mut loose_cards);
            }
        }
    }
    (sets, loose_cards)
}

/// A value per block, summing to `target`, each attainable by a zero-loose block partition.
fn block_targets(
    hand: &Counts,
    rules: &SetRules,
    block_list: &[Block],
    target: u32,
) -> Option<ArrayVec<u32, 9>> {
    let masks: ArrayVec<u128, 9> = block_list
        .iter()
        .map(|b| solve_mask(hand, b, rules))
        .collect();
    // suffix[i]: the sum-set of blocks i.. .
    let mut suffix = [1u128; 10];
    for i in (0..masks.len()).rev() {
        suffix[i] = sum_masks(masks[i], suffix[i + 1]);
    }
    if target >= 128 || suffix[0] >> target & 1 == 0 {
        return None;
    }
    let mut rest = target;
    let mut out = ArrayVec::new();
    for i in 0..masks.len() {
        let v =
            (0..=rest).find(|&v| masks[i] >> v & 1 == 1 && suffix[i + 1] >> (rest - v) & 1 == 1)?;
        out.push(v);
        rest -= v;
    }
    Some(out)
}

fn push_set(sets: &mut ArrayVec<SetInstance, 26>, tp: &Template) {
    let set = SetInstance::new(tp.kind, &tp.cards(), Zone::Private, Origin::Dealt);
    let _ = sets.try_push(set);
}

/// Follows the best (loose, −points) choices of the block, pushing its sets and loose cards.
fn walk_best(
    hand: &Counts,
    block: &Block,
    rules: &SetRules,
    sets: &mut ArrayVec<SetInstance, 26>,
    loose_cards: &mut Counts,
) {
    let mut cur = block.cards_in(hand);
    while let Some(t) = block.lowest(&cur) {
        let goal = solve_lb(&cur, block, rules);
        let chosen = candidates(t, &cur, rules).find(|tp| {
            let mut sub = cur;
            tp.remove(&mut sub);
            let (l, p) = solve_lb(&sub, block, rules);
            (l, p + tp.points(rules) as u16) == goal
        });
        match chosen {
            Some(tp) => {
                push_set(sets, tp);
                tp.remove(&mut cur);
            }
            None => {
                loose_cards[t] += 1;
                cur[t] -= 1;
            }
        }
    }
}

/// Follows a zero-loose partition of the block worth exactly `v`, pushing its sets.
fn walk_target(
    hand: &Counts,
    block: &Block,
    rules: &SetRules,
    mut v: u32,
    sets: &mut ArrayVec<SetInstance, 26>,
) {
    let mut cur = block.cards_in(hand);
    while let Some(t) = block.lowest(&cur) {
        let chosen = candidates(t, &cur, rules).find(|tp| {
            let mut sub = cur;
            tp.remove(&mut sub);
            let pts = tp.points(rules);
            pts <= v && solve_mask(&sub, block, rules) >> (v - pts) & 1 == 1
        });
        let Some(tp) = chosen else { return };
        push_set(sets, tp);
        v -= tp.points(rules);
        tp.remove(&mut cur);
    }
}

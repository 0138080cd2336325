//! The rule-list agent `rules:PATH`: a short ordered list of readable rules over the features
//! of candidate actions, learned by `bailab learn` or written by hand.

pub mod features;

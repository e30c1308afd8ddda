//! The first hand of a heads-up: whether the player who posted the big blind in the last hand,
//! one of three or more, posts it again (pt-tournament Art. 35º, ao-tournament-2025 Art. 34,
//! br-adtp-2012 rule 30). The rotation alone would sometimes have him do so; the texts either
//! require the button to be set so that nobody pays the big blind twice in a row, or only allow
//! it. One function asks `button.heads_up` for every table that deals a heads-up — the
//! scenario runner's and the tournament's — so both rule and record it the same way.

use crate::rules::{Finding, Rules, Ruling};
use std::collections::BTreeMap;

/// Where the button and the big blind of a heads-up hand go, and the ruling that placed them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadsUpSeats {
    /// The button's seat (index from 0); heads-up the button posts the small blind.
    pub button: usize,
    /// The big blind's seat (index from 0).
    pub big_blind: usize,
    /// The ruling at `button.heads_up`, to record with the hand: `None` when nothing had to be
    /// asked (the usual rotation makes nobody pay the big blind twice).
    pub ruling: Option<Ruling>,
    /// The ruleset's outcome (`adjust_button`...), empty when nothing was asked.
    pub outcome: String,
}

/// The button and big blind of a hand dealt heads-up. `button` and `big_blind` are the seats
/// the usual rotation gives; `last_players` is how many were dealt into the last hand and
/// `last_big_blind` the seat that posted its big blind. Where the last hand had three or more
/// players and the rotation would have its big blind post it again, `button.heads_up` is asked:
/// `adjust_button` gives him the button and the small blind; any other answer (the text only
/// allows the adjustment, or says nothing) keeps the rotation, and the ruling says so.
pub fn heads_up_seats(
    rules: &dyn Rules,
    button: usize,
    big_blind: usize,
    last_players: usize,
    last_big_blind: Option<usize>,
) -> HeadsUpSeats {
    let usual = HeadsUpSeats {
        button,
        big_blind,
        ruling: None,
        outcome: String::new(),
    };
    if last_players < 3 || last_big_blind != Some(big_blind) || button == big_blind {
        return usual;
    }
    let mut facts = BTreeMap::new();
    facts.insert("would_pay_bb_twice".to_string(), ron::Value::Bool(true));
    let answer = rules.table_event("button.heads_up", &facts);
    let twice = big_blind + 1;
    let (seats, done) = if answer.outcome == "adjust_button" {
        (
            (big_blind, button),
            format!("seat {twice}, the last big blind, takes the button and posts the small blind"),
        )
    } else {
        (
            (button, big_blind),
            format!("the button moves as usual and seat {twice} posts the big blind again"),
        )
    };
    HeadsUpSeats {
        button: seats.0,
        big_blind: seats.1,
        ruling: Some(Ruling {
            point: crate::rules::registry::get("button.heads_up").map_or("table.event", |p| p.id),
            ruleset: rules.ruleset().clone(),
            citation: answer.citation,
            finding: Finding::Text(format!("{}: {done}", answer.text)),
        }),
        outcome: answer.outcome,
    }
}

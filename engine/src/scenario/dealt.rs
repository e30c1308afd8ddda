//! Scenarios played at a table with a dealer: the hand is dealt from the scenario's deck one
//! card at a time, a burn before each street, and the rulings act on the cards — so a step
//! can assert what the table looks like after a ruling (the board, the stub, the burns, the
//! stacks and bets, the pot, who is to act and his menu, who is capped at calling).

use super::format::{Scenario, Step, TableExpect, TableSetup};
use super::keys::for_ruleset;
use super::run::{check, Outcome, StepResult};
use crate::cards::{format_cards, parse_cards, Card, Deck};
use crate::events::TableEvent;
use crate::phh::Action as PhhAction;
use crate::rules::Rules;
use crate::table::{Deal, Dealt, Player, RulesVersion, Table};
use std::sync::Arc;

/// The scenario's deck in written order (hole cards, board, then every other card).
fn deck(cards: &str) -> Result<Deck, String> {
    let compact: String = cards.split_whitespace().collect();
    let mut order = parse_cards(&compact).map_err(|e| e.to_string())?;
    for c in Card::all() {
        if !order.contains(&c) {
            order.push(c);
        }
    }
    if order.len() != 52 {
        return Err("the deck repeats a card".into());
    }
    Ok(Deck::written(&order))
}

/// Deals the scenario's hand at a table of its own.
pub(super) fn open(
    setup: &TableSetup,
    cards: &str,
    config: crate::hand::HandConfig,
    rules: &Arc<dyn Rules>,
) -> Result<Table<Player>, String> {
    let n = setup.stacks.len();
    let mut table = Table::new(n);
    let seats = setup
        .stacks
        .iter()
        .enumerate()
        .map(|(i, &stack)| {
            Some(Player {
                name: format!("p{}", i + 1),
                stack,
            })
        })
        .collect();
    table.set_seats(seats).map_err(|e| e.to_string())?;
    table.call_showdowns(setup.called_showdown);
    table
        .deal(Deal {
            config,
            positions: (0..n).collect(),
            button: n - 1,
            version: RulesVersion::unnamed(rules.clone()),
            hand_rules: rules.clone(),
            deck: deck(cards)?,
        })
        .map_err(|e| e.to_string())?;
    table.progress().map_err(|e| e.to_string())?;
    Ok(table)
}

/// Plays the scenario's steps at `table`.
pub(super) fn play(scenario: &Scenario, table: &mut Table<Player>, id: &str, out: &mut Outcome) {
    for (i, step) in scenario.steps.iter().enumerate() {
        let number = i + 1;
        let refused = match step {
            Step::Event { event, expect } => {
                super::house::chips_in_play(scenario.table.as_ref(), event)
                    .err()
                    .map(|e| (e, for_ruleset(expect, id).and_then(|x| x.refused.clone())))
            }
            _ => None,
        };
        let result = match refused {
            Some((e, Some(words))) if e.contains(words.as_str()) => {
                out.log.push(e);
                StepResult::new(number, "chips not in play")
            }
            Some((e, _)) => StepResult {
                error: Some(e),
                ..StepResult::new(number, "chips not in play")
            },
            None => step_at(step, number, table, id, &mut out.failures),
        };
        if let Some(e) = &result.error {
            out.failures
                .push(format!("step {number} ({}): refused: {e}", result.what));
        }
        out.steps.push(result);
    }
    if let Some(d) = table.last() {
        out.log = d.hand.rulings().iter().map(ToString::to_string).collect();
        if d.hand.is_complete() {
            out.stacks = Some(d.hand.stacks());
        }
    }
}

/// A clean action (PHH notation) at the table.
fn act(table: &mut Table<Player>, notation: &str) -> Result<(), String> {
    let action: PhhAction = notation
        .parse()
        .map_err(|e: crate::phh::PhhError| e.to_string())?;
    use crate::hand::Action;
    let (player, action) = match action {
        PhhAction::Fold { player } => (player, Action::Fold),
        PhhAction::CheckCall { player } => (player, Action::CheckOrCall),
        PhhAction::CompleteBetRaiseTo { player, amount } => (
            player,
            Action::BetOrRaiseTo(u64::try_from(amount).map_err(|_| "a negative amount")?),
        ),
        _ => {
            return Err(format!(
            "`{notation}`: the table's dealer deals and settles; only betting actions are steps"
        ))
        }
    };
    table
        .act(usize::from(player), action)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn step_at(
    step: &Step,
    number: usize,
    table: &mut Table<Player>,
    id: &str,
    failures: &mut Vec<String>,
) -> StepResult {
    let mut result = StepResult::new(number, String::new());
    match step {
        Step::Deal(_) | Step::Board(_) => {
            result.what = "cards".into();
            result.error =
                Some("the table's dealer deals from the deck: no Deal or Board steps".into());
        }
        Step::Act(notation) => {
            result.what = notation.clone();
            result.error = act(table, notation).err();
        }
        Step::Refused { act: a, because } => {
            result.what = format!("{a} (must be refused)");
            match act(table, a) {
                Ok(()) => failures.push(format!(
                    "step {number}: `{a}` was accepted, expected a refusal"
                )),
                Err(e) if e.contains(because.as_str()) => {
                    result.what = format!("{a} — refused: {e}");
                }
                Err(e) => failures.push(format!(
                    "step {number}: `{a}` refused with `{e}`, expected `{because}`"
                )),
            }
        }
        Step::Event { event, expect } => {
            result.what = format!("{event:?}");
            // Players in the scenario count from 0; the table's seats from 1.
            let mut event = event.clone();
            if let TableEvent::Chips { player, .. }
            | TableEvent::Declare { player, .. }
            | TableEvent::Played { player, .. }
            | TableEvent::Acted { player, .. } = &mut event
            {
                *player += 1;
            }
            match table.event("scenario", &event) {
                Ok(ruling) => {
                    if let Some(e) = for_ruleset(expect, id) {
                        check(number, &ruling, &e, failures);
                    }
                    result.ruling = Some(ruling);
                }
                Err(e) => result.error = Some(e.to_string()),
            }
        }
        Step::Table(expect) => {
            result.what = "the table".into();
            if let (Some(e), Some(d)) = (for_ruleset(expect, id), table.last()) {
                for miss in compare(&e, d) {
                    failures.push(format!("step {number}: {miss}"));
                }
            }
        }
    }
    result
}

fn cards(list: &[Card]) -> String {
    format_cards(list)
}

/// What differs between the table and what was expected of it.
pub(super) fn compare(e: &TableExpect, d: &Dealt<Player>) -> Vec<String> {
    let mut misses = Vec::new();
    let mut is = |what: &str, got: String, want: Option<String>| {
        if let Some(want) = want {
            if got != want {
                misses.push(format!("{what} is `{got}`, expected `{want}`"));
            }
        }
    };
    let hand = &d.hand;
    let compact = |s: &Option<String>| s.as_ref().map(|s| s.split_whitespace().collect());
    is("the board", cards(hand.board()), compact(&e.board));
    is(
        "the stub",
        d.dealer.stub_len().to_string(),
        e.stub.map(|n| n.to_string()),
    );
    is("the burns", cards(d.dealer.burns()), compact(&e.burns));
    is(
        "the set-aside cards",
        cards(d.dealer.set_aside()),
        compact(&e.set_aside),
    );
    is(
        "the exposed cards",
        cards(d.dealer.exposed()),
        compact(&e.exposed),
    );
    for (p, want) in &e.hole {
        let got: Vec<Card> = hand
            .hole_cards(p.saturating_sub(1))
            .iter()
            .flatten()
            .copied()
            .collect();
        is(&format!("p{p}'s cards"), cards(&got), Some(want.clone()));
    }
    is(
        "the stacks",
        format!("{:?}", hand.stacks()),
        e.stacks.as_ref().map(|v| format!("{v:?}")),
    );
    is(
        "the bets",
        format!("{:?}", hand.bets()),
        e.bets.as_ref().map(|v| format!("{v:?}")),
    );
    is(
        "the pot",
        hand.pot_total().to_string(),
        e.pot.map(|n| n.to_string()),
    );
    let legal = if d.is_playing() { hand.legal() } else { None };
    is(
        "the player to act",
        legal.map_or(0, |l| l.player + 1).to_string(),
        e.to_act.map(|n| n.to_string()),
    );
    let menu = legal.map_or(String::new(), |l| {
        let first = if l.to_call == 0 { "check" } else { "fold call" };
        match l.min_raise_to {
            Some(_) => format!("{first} raise"),
            None => first.to_string(),
        }
    });
    is("the menu", menu, e.menu.clone());
    let capped: Vec<usize> = hand.capped_at_calling().iter().map(|p| p + 1).collect();
    is(
        "the players capped at calling",
        format!("{capped:?}"),
        e.call_only.as_ref().map(|v| format!("{v:?}")),
    );
    let held: Vec<usize> = d.held.iter().map(|h| h.position + 1).collect();
    is(
        "the players whose action out of turn is held",
        format!("{held:?}"),
        e.held.as_ref().map(|v| format!("{v:?}")),
    );
    let mut away: Vec<usize> = d.away.iter().map(|p| p + 1).collect();
    away.sort_unstable();
    is(
        "the players noted away from the seat",
        format!("{away:?}"),
        e.away.as_ref().map(|v| format!("{v:?}")),
    );
    is(
        "waiting for the floor",
        d.awaiting.is_some().to_string(),
        e.waits_for_floor.map(|b| b.to_string()),
    );
    is(
        "the redeals",
        d.redeals.to_string(),
        e.redeals.map(|n| n.to_string()),
    );
    is(
        "void",
        d.is_void().to_string(),
        e.void.map(|b| b.to_string()),
    );
    let live: Vec<usize> = (0..d.positions.len())
        .filter(|&p| !hand.has_folded(p) && !hand.has_mucked(p))
        .map(|p| p + 1)
        .collect();
    is(
        "the live hands",
        format!("{live:?}"),
        e.live.as_ref().map(|v| format!("{v:?}")),
    );
    is(
        "complete",
        hand.is_complete().to_string(),
        e.complete.map(|b| b.to_string()),
    );
    misses
}

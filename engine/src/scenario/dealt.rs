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
            None if matches!(step, Step::NextHand) => {
                let mut result = StepResult::new(number, "the next hand");
                if let Some(setup) = &scenario.table {
                    result.error = next_hand(table, setup).err();
                }
                if let Some(d) = table.last() {
                    // The new hand's own rulings (a penalty served at its deal).
                    result.note_rulings(d.hand.rulings(), 0);
                }
                result
            }
            None => {
                let logged =
                    |t: &Table<Player>| t.last().map(|d| (d.number, d.hand.rulings().len()));
                let before = logged(table);
                let mut result = step_at(step, number, table, id, &mut out.failures);
                if let Some(d) = table.last() {
                    // A hand dealt anew during the step keeps none of the old log.
                    let from = match before {
                        Some((hand, count)) if hand == d.number => count,
                        _ => 0,
                    };
                    result.note_rulings(d.hand.rulings(), from);
                }
                result
            }
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
            // The seats' stacks: the hand's own, and any correction made after it settled.
            out.stacks = Some(
                table
                    .seats()
                    .iter()
                    .map(|s| s.as_ref().map_or(0, |p| p.stack))
                    .collect(),
            );
        }
    }
}

/// A clean action in PHH notation: the position in the hand (from 0) and the action.
fn betting_action(notation: &str) -> Result<(usize, crate::hand::Action), String> {
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
    Ok((usize::from(player), action))
}

/// A clean action (PHH notation) at the table: `pN` is a position in the hand (after a
/// `NextHand` the seats have moved round).
fn act(table: &mut Table<Player>, notation: &str) -> Result<(), String> {
    let (position, action) = betting_action(notation)?;
    let seat = table
        .live()
        .and_then(|d| d.positions.get(position).copied())
        .unwrap_or(position);
    table
        .act(seat, action)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The rule point whose answer refuses the clean action `notation` now (the minimum raise,
/// the pot-limit maximum, a call-only cap...), asked of a copy of the hand: `None` when the
/// action is legal or every rulebook refuses it alike.
fn refusing_point(table: &Table<Player>, notation: &str) -> Option<&'static str> {
    let (position, action) = betting_action(notation).ok()?;
    let d = table.last()?;
    d.hand.clone().act(position, action).err()?.rule_point()
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
            if let Some(point) = refusing_point(table, a) {
                result.note_point(point);
            }
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
            result.what = super::run::describe(event);
            // Players in the scenario are positions from 0; the table's seats count from 1.
            // A penalty names the seat itself (from 1).
            let mut event = event.clone();
            if let TableEvent::Chips { player, .. }
            | TableEvent::Declare { player, .. }
            | TableEvent::Played { player, .. }
            | TableEvent::Acted { player, .. } = &mut event
            {
                let seat = table.live().and_then(|d| d.positions.get(*player).copied());
                *player = seat.unwrap_or(*player) + 1;
            }
            match table.event("scenario", &event) {
                Ok(ruling) => {
                    if let Some(e) = for_ruleset(expect, id) {
                        check(number, &ruling, &e, failures);
                    }
                    result.ruling = Some(ruling);
                }
                Err(e) => {
                    let e = e.to_string();
                    match for_ruleset(expect, id).and_then(|x| x.refused.clone()) {
                        Some(words) if e.contains(words.as_str()) => {
                            result.what = format!("{} — refused: {e}", result.what);
                        }
                        Some(words) => failures.push(format!(
                            "step {number}: refused with `{e}`, expected `{words}`"
                        )),
                        None => result.error = Some(e),
                    }
                }
            }
        }
        Step::Table(expect) => {
            result.what = "the table".into();
            if let (Some(e), Some(d)) = (for_ruleset(expect, id), table.last()) {
                result.asserts = true;
                for miss in compare(&e, d).into_iter().chain(compare_table(&e, table)) {
                    failures.push(format!("step {number}: {miss}"));
                }
            }
        }
        Step::NextHand => {
            result.what = "the next hand".into();
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

/// Deals the next hand at the scenario's table: the button to the next seat with chips, the
/// first hand's blinds, antes and game, the scenario's deck in its written order.
fn next_hand(table: &mut Table<Player>, setup: &TableSetup) -> Result<(), String> {
    let cards = setup
        .deck
        .as_deref()
        .ok_or("NextHand needs the table's `deck`")?;
    let first = table.last().ok_or("no hand was dealt")?;
    if first.is_playing() {
        return Err("the hand in progress is not over".into());
    }
    let rules = first.version.rules.clone();
    let base = first.hand.config().clone();
    let n = table.seats().len();
    let with_chips = |i: usize| table.occupant(i).is_some_and(|p| p.stack > 0);
    let from = table.button().unwrap_or(n - 1);
    let button = (1..=n)
        .map(|k| (from + k) % n)
        .find(|&i| with_chips(i))
        .ok_or("nobody has chips")?;
    let positions: Vec<usize> = (1..=n)
        .map(|k| (button + k) % n)
        .filter(|&i| with_chips(i))
        .collect();
    if positions.len() < 2 {
        return Err("fewer than two players have chips".into());
    }
    let (button, positions, heads_up) = into_heads_up(first, rules.as_ref(), button, positions);
    let stacks = positions
        .iter()
        .map(|&i| table.occupant(i).map_or(0, |p| p.stack))
        .collect::<Vec<_>>();
    let m = stacks.len();
    let mut config = crate::hand::HandConfig::holdem(stacks, m - 1, setup.blinds.0, setup.blinds.1);
    config.variant = base.variant;
    config.structure = base.structure;
    config.min_bet = base.min_bet;
    config.antes = vec![setup.ante; m];
    table
        .deal(Deal {
            config,
            positions,
            button,
            version: RulesVersion::unnamed(rules.clone()),
            hand_rules: rules,
            deck: deck(cards)?,
        })
        .map_err(|e| e.to_string())?;
    if let (Some(ruling), Some(d)) = (heads_up, table.playing_mut()) {
        d.hand.record_ruling(ruling);
    }
    table.progress().map_err(|e| e.to_string())?;
    Ok(())
}

/// The button and positions of a hand that begins heads-up, as `button.heads_up` rules
/// ([`crate::table::heads_up_seats`], shared with the tournament's tables). Heads-up the button
/// posts the small blind and the other seat (position 0) the big one. Returns the ruling to
/// record with the hand, when one was asked.
fn into_heads_up(
    last: &Dealt<Player>,
    rules: &dyn Rules,
    button: usize,
    positions: Vec<usize>,
) -> (usize, Vec<usize>, Option<crate::rules::Ruling>) {
    let blinds = &last.hand.config().blinds;
    let last_big_blind = blinds
        .iter()
        .enumerate()
        .filter(|(_, &b)| b > 0)
        .max_by_key(|(p, &b)| (b, std::cmp::Reverse(*p)))
        .and_then(|(p, _)| last.positions.get(p).copied());
    if positions.len() != 2 {
        return (button, positions, None);
    }
    let seats = crate::table::heads_up_seats(
        rules,
        positions[1],
        positions[0],
        last.positions.len(),
        last_big_blind,
    );
    let other = if seats.button == positions[1] {
        positions[0]
    } else {
        positions[1]
    };
    (seats.button, vec![other, seats.button], seats.ruling)
}

/// What differs between the table's seats and penalties and what was expected of them.
fn compare_table(e: &TableExpect, table: &Table<Player>) -> Vec<String> {
    let mut misses = Vec::new();
    let mut is = |what: &str, got: String, want: Option<String>| {
        if let Some(want) = want {
            if got != want {
                misses.push(format!("{what} is `{got}`, expected `{want}`"));
            }
        }
    };
    is(
        "the hand number",
        table.hands_dealt().to_string(),
        e.hand.map(|n| n.to_string()),
    );
    let seats: Vec<u64> = table
        .seats()
        .iter()
        .map(|s| s.as_ref().map_or(0, |p| p.stack))
        .collect();
    is(
        "the seats' chips",
        format!("{seats:?}"),
        e.seats.as_ref().map(|v| format!("{v:?}")),
    );
    let penalties: std::collections::BTreeMap<usize, String> = (0..table.seats().len())
        .filter_map(|i| {
            let p = table.penalties().of_seat(i)?;
            let state = match (p.leaving, p.hands_left) {
                (true, _) => "leaves".to_string(),
                (false, Some(n)) => format!("{n} left"),
                (false, None) => "starts next deal".to_string(),
            };
            Some((i + 1, format!("{}: {state}", p.sanction)))
        })
        .collect();
    is(
        "the penalties",
        format!("{penalties:?}"),
        e.penalties.as_ref().map(|v| format!("{v:?}")),
    );
    is(
        "the chips out of play",
        table.penalties().removed().to_string(),
        e.removed.map(|n| n.to_string()),
    );
    misses
}

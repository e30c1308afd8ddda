//! Random legal play: a dealer that deals from a seeded deck and players that choose uniformly
//! among legal actions. Property tests, benchmarks and load generators use it to drive the
//! state machine through hands nobody wrote by hand; it is deterministic for a given seed.

use crate::cards::{Card, Deck};
use crate::hand::{Action, ActionError, Hand, HandConfig, Legal, Phase, Structure, Variant};
use crate::phh::PhhHand;
use crate::replay::to_phh;
use crate::rules::Rules;
use crate::Chips;
use rand::Rng;
use std::sync::Arc;

/// Chooses a legal action at random: fold, check or call, a minimum raise, an all-in, or a
/// raise somewhere in between — each with a fixed weight so hands reach showdown often and
/// all-ins and side pots are common.
pub fn random_action<R: Rng + ?Sized>(legal: &Legal, rng: &mut R) -> Action {
    let roll = rng.random_range(0..100u32);
    let raise = legal.min_raise_to.zip(legal.max_raise_to);
    match (roll, raise) {
        (0..=14, _) if legal.to_call > 0 => Action::Fold,
        (15..=29, Some((min, _))) => Action::BetOrRaiseTo(min),
        (30..=37, Some((min, max))) if max > min => {
            Action::BetOrRaiseTo(rng.random_range(min..=max))
        }
        (38..=42, Some((_, max))) => Action::BetOrRaiseTo(max),
        _ => Action::CheckOrCall,
    }
}

/// Deals whatever the dealer owes next (a player's hole cards or the next board cards) from
/// `deck`. Returns `Ok(false)` when the hand is not waiting for cards.
pub fn deal_next(hand: &mut Hand, deck: &mut Deck) -> Result<bool, ActionError> {
    let mut draw = |k: usize| -> Result<Vec<Card>, ActionError> {
        (0..k)
            .map(|_| {
                deck.deal()
                    .ok_or_else(|| ActionError::Deal("the deck is empty".into()))
            })
            .collect()
    };
    if let Some(player) = hand.next_hole_deal() {
        let cards: Vec<Option<Card>> = draw(hand.config().variant.hole_cards())?
            .into_iter()
            .map(Some)
            .collect();
        hand.deal_hole(player, &cards)?;
        return Ok(true);
    }
    if let Some(k) = hand.board_cards_due() {
        let cards = draw(k)?;
        hand.deal_board(&cards)?;
        return Ok(true);
    }
    Ok(false)
}

/// Plays `hand` to the end: deals from `deck`, acts at random for the players, and at
/// showdown has each player show (or, one time in five, muck). Every step is a legal event,
/// so an error here is a bug in the state machine, reported rather than hidden.
pub fn play_out<R: Rng + ?Sized>(
    hand: &mut Hand,
    deck: &mut Deck,
    rng: &mut R,
) -> Result<(), ActionError> {
    // A hand has at most a few hundred events; the bound guards against a state machine
    // that stops making progress.
    for _ in 0..10_000 {
        match hand.phase() {
            Phase::Complete => return Ok(()),
            Phase::DealingHole | Phase::DealingBoard => {
                deal_next(hand, deck)?;
            }
            Phase::Betting => {
                let legal = hand.legal().ok_or(ActionError::NotBetting(
                    "no player to act in a betting round",
                ))?;
                hand.act(legal.player, random_action(&legal, rng))?;
            }
            Phase::Showdown => {
                let pending = (0..hand.config().players()).find(|&p| hand.can_show(p));
                match pending {
                    Some(p) if rng.random_ratio(1, 5) => hand.muck(p)?,
                    Some(p) => hand.show(p, None)?,
                    None => hand.finish_showdown()?,
                }
            }
        }
    }
    Err(ActionError::NotBetting("the hand did not terminate"))
}

/// A random but valid table: 2 to 11 players, the button last (as PHH has it), blinds, and
/// sometimes antes, a big-blind ante, a straddle or a live post; any of the structures and
/// both games. The property tests and the performance oracle play hands at such tables.
pub fn random_config<R: Rng + ?Sized>(rng: &mut R) -> HandConfig {
    let n = rng.random_range(2..=11usize);
    let bb: Chips = rng.random_range(1..=50) * 2;
    let sb = bb / 2;
    // Stacks from a few chips (all-in on the blinds) to deep.
    let stacks: Vec<Chips> = (0..n)
        .map(|_| match rng.random_range(0..10) {
            0 => rng.random_range(1..=bb * 2),
            1..=6 => rng.random_range(bb * 10..=bb * 100),
            _ => rng.random_range(1..=bb * 300),
        })
        .collect();
    let mut config = HandConfig::holdem(stacks, n - 1, sb, bb);
    match rng.random_range(0..6) {
        0 => config.antes = vec![rng.random_range(1..=sb.max(1)); n],
        1 => {
            // Big-blind ante: the big blind posts one ante for the table.
            let big_blind = if n == 2 { 0 } else { 1 };
            config.antes[big_blind] = bb;
        }
        _ => {}
    }
    if n >= 4 && rng.random_ratio(1, 8) {
        config.blinds[2] = bb * 2; // a straddle
    } else if n >= 4 && rng.random_ratio(1, 8) {
        config.posts[rng.random_range(2..n)] = bb; // a live post by a newcomer
    }
    config.variant = if rng.random_ratio(1, 4) {
        Variant::Omaha
    } else {
        Variant::Holdem
    };
    config.structure = match rng.random_range(0..8) {
        0 | 1 => Structure::PotLimit,
        2 => Structure::FixedLimit {
            small_bet: bb,
            big_bet: bb * 2,
        },
        3 => Structure::HalfPotLimit,
        _ => Structure::NoLimit,
    };
    config
}

/// A corpus of `count` random no-limit hold'em hands (2 to 9 players, blinds 1/2, stacks of
/// 20 to 400 big blinds) played to the end under `rules` and written as PHH records, the way
/// the cross-check corpora were made. Deterministic for a given `seed`; used by the replay
/// benchmark and by load tests.
pub fn random_nlhe_records<R: Rng + ?Sized>(
    rng: &mut R,
    count: usize,
    rules: Arc<dyn Rules>,
) -> Vec<PhhHand> {
    let mut records = Vec::with_capacity(count);
    while records.len() < count {
        let n = rng.random_range(2..=9usize);
        let stacks = (0..n).map(|_| rng.random_range(40..=800)).collect();
        let config = HandConfig::holdem(stacks, n - 1, 1, 2);
        let Ok(mut hand) = Hand::new(config, rules.clone()) else {
            continue;
        };
        let mut deck = Deck::shuffled(rng);
        if play_out(&mut hand, &mut deck, rng).is_err() {
            continue;
        }
        if let Ok(record) = to_phh(&hand) {
            records.push(record);
        }
    }
    records
}

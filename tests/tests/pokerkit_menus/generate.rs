//! Hands that stress the corners of the betting rules, played by floor with random legal
//! actions and written as PHH records for the reference engine to replay: 2–9 players, very
//! uneven and very short stacks, antes, big-blind antes, straddles and live posts, no-limit,
//! pot-limit and fixed-limit hold'em and omaha, all-ins and run-outs in which hands are
//! mucked.

use floor_engine::cards::Deck;
use floor_engine::hand::{Hand, HandConfig, Phase, Structure, Variant};
use floor_engine::phh::PhhHand;
use floor_engine::replay::to_phh;
use floor_engine::rules::Rules;
use floor_engine::sim::{deal_next, random_action};
use floor_engine::Chips;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A random table, weighted toward the corners.
fn random_config(rng: &mut ChaCha8Rng) -> HandConfig {
    let n = rng.random_range(2..=9usize);
    let bb: Chips = [2, 4, 10, 20, 50][rng.random_range(0..5)];
    let sb = bb / 2;
    let stacks: Vec<Chips> = (0..n)
        .map(|_| match rng.random_range(0..10) {
            0 | 1 => rng.random_range(1..=bb * 2),
            2 | 3 => rng.random_range(bb * 2..=bb * 10),
            4..=7 => rng.random_range(bb * 10..=bb * 100),
            _ => rng.random_range(bb * 100..=bb * 400),
        })
        .collect();
    let mut config = HandConfig::holdem(stacks, n - 1, sb, bb);
    match rng.random_range(0..8) {
        0 | 1 => config.antes = vec![rng.random_range(1..=sb.max(1)); n],
        2 => {
            let big_blind = if n == 2 { 0 } else { 1 };
            config.antes[big_blind] = bb;
        }
        _ => {}
    }
    if n >= 4 && rng.random_ratio(1, 6) {
        config.blinds[2] = bb * 2;
    } else if n >= 4 && rng.random_ratio(1, 8) {
        config.posts[rng.random_range(2..n)] = bb;
    }
    config.variant = if rng.random_ratio(3, 10) {
        Variant::Omaha
    } else {
        Variant::Holdem
    };
    config.structure = match rng.random_range(0..10) {
        0..=3 => Structure::NoLimit,
        4..=6 => Structure::PotLimit,
        _ => Structure::FixedLimit {
            small_bet: bb,
            big_bet: bb * 2,
        },
    };
    config
}

/// Plays one hand to the end with random legal actions; during a run-out a live hand is
/// sometimes mucked, and at the showdown hands are shown or mucked in turn.
fn play(hand: &mut Hand, rng: &mut ChaCha8Rng) -> Option<()> {
    let mut deck = Deck::shuffled(rng);
    for _ in 0..2_000 {
        match hand.phase() {
            Phase::Complete => return Some(()),
            Phase::DealingBoard => {
                let live = (0..hand.config().players()).filter(|&p| hand.can_show(p));
                let live: Vec<usize> = live.collect();
                if live.len() >= 2 && rng.random_ratio(1, 6) {
                    hand.muck(live[rng.random_range(0..live.len())]).ok()?;
                } else {
                    deal_next(hand, &mut deck).ok()?;
                }
            }
            Phase::DealingHole => {
                deal_next(hand, &mut deck).ok()?;
            }
            Phase::Betting => {
                let legal = hand.legal()?;
                hand.act(legal.player, random_action(&legal, rng)).ok()?;
            }
            Phase::Showdown => match (0..hand.config().players()).find(|&p| hand.can_show(p)) {
                Some(p) if rng.random_ratio(1, 5) => hand.muck(p).ok()?,
                Some(p) => hand.show(p, None).ok()?,
                None => hand.finish_showdown().ok()?,
            },
        }
    }
    None
}

/// `count` random hands played under `rules`, as PHH records (seeded: the same every run).
pub fn corner_hands(seed: u64, count: usize, rules: Arc<dyn Rules>) -> Vec<PhhHand> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut records = Vec::with_capacity(count);
    while records.len() < count {
        let config = random_config(&mut rng);
        let Ok(mut hand) = Hand::new(config, rules.clone()) else {
            continue;
        };
        if play(&mut hand, &mut rng).is_none() {
            continue;
        }
        if let Ok(record) = to_phh(&hand) {
            records.push(record);
        }
    }
    records
}

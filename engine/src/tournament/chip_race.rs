//! Colour-up and the chip race (rule points `tournament.chip_up_color_up` and
//! `tournament.chip_race`).
//!
//! When a denomination is retired, every player's chips that make whole chips of the next
//! denomination are exchanged at par; what is left (the *odd* chips, worth less than one new
//! chip) goes to the race: cards are dealt from seat 1, one per odd chip, and the highest
//! cards win one new chip each — at most one per player — and nobody is eliminated by it: a
//! player left with nothing gets one chip of the lowest denomination in play (pt-tournament
//! Art. 24º(1)–(2), br-adtp-2012 rule 20).
//!
//! How many new chips the race gives is where the texts part (the `fractions` setting):
//! pt-tournament Art. 24º(4) removes what cannot make a full chip without compensation, so
//! the race gives the odd chips' total divided by the new chip, rounded **down**; br-adtp-2012
//! rule 20 only says the leftover chips are raced, read here as the common practice of
//! rounding the total to the **nearest** whole chip (half up). A stack is valued in chips, so
//! a player's odd chips are the part of his stack that is not a multiple of the new
//! denomination (every higher chip is a multiple of it).

use super::seating::PlayerId;
use crate::cards::{Card, Deck};
use crate::Chips;
use rand::Rng;
use serde::Serialize;

/// What the race does with the odd chips' total that does not make a whole new chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Fractions {
    /// Removed without compensation: the race gives the total rounded down (pt-tournament
    /// Art. 24º(4)).
    Removed,
    /// The race gives the total rounded to the nearest whole chip, half up.
    RoundHalfUp,
}

/// A colour-up: the denomination retired, the one its chips are raced for, and the lowest
/// denomination in play afterwards (what a player who loses everything receives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ColorUp {
    /// The chip retired (e.g. 25).
    pub retire: Chips,
    /// The next-higher chip the odd chips are raced for (e.g. 100).
    pub into: Chips,
    /// The lowest chip in play after the colour-up.
    pub lowest_in_play: Chips,
    /// How fractions of a new chip are treated.
    pub fractions: Fractions,
}

/// One player's part in the race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RaceLine {
    /// The player.
    pub player: PlayerId,
    /// His stack before.
    pub before: Chips,
    /// The value of his odd chips.
    pub odd: Chips,
    /// The cards he was dealt, one per odd chip (as text).
    pub cards: Vec<String>,
    /// He won a new chip.
    pub won: bool,
    /// He lost everything in the race and received one lowest chip instead.
    pub saved: bool,
    /// His stack after.
    pub after: Chips,
}

/// The race at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChipRace {
    /// The players, in seat order from seat 1.
    pub lines: Vec<RaceLine>,
    /// New chips given by the race.
    pub chips_awarded: u32,
    /// Chips in play before and after (they differ by the fractions removed or rounded up
    /// and the chips given to players saved from elimination).
    pub total_before: Chips,
    /// Chips in play after.
    pub total_after: Chips,
}

/// Runs a colour-up and chip race for the players of one table, given in seat order from
/// seat 1 with their stacks, dealing the race cards from a deck shuffled with `rng`.
pub fn chip_race<R: Rng + ?Sized>(
    players: &[(PlayerId, Chips)],
    color_up: &ColorUp,
    rng: &mut R,
) -> ChipRace {
    let into = color_up.into.max(1);
    let retire = color_up.retire.max(1);
    let mut lines: Vec<RaceLine> = players
        .iter()
        .map(|&(player, before)| RaceLine {
            player,
            before,
            odd: before % into,
            cards: Vec::new(),
            won: false,
            saved: false,
            after: before - before % into,
        })
        .collect();
    let total: Chips = lines.iter().map(|l| l.odd).sum();
    let racers = lines.iter().filter(|l| l.odd > 0).count() as u64;
    let whole = match color_up.fractions {
        Fractions::Removed => total / into,
        Fractions::RoundHalfUp => (total + into / 2) / into,
    }
    .min(racers);
    // Deal from seat 1, one card per odd chip, round by round.
    let mut deck = Deck::shuffled(rng);
    let mut best: Vec<Option<Card>> = vec![None; lines.len()];
    let counts: Vec<u64> = lines.iter().map(|l| l.odd.div_ceil(retire)).collect();
    let rounds = counts.iter().copied().max().unwrap_or(0);
    for round in 0..rounds {
        for (i, line) in lines.iter_mut().enumerate() {
            if counts[i] > round {
                let dealt = match deck.deal() {
                    Some(c) => Some(c),
                    None => {
                        deck = Deck::shuffled(rng);
                        deck.deal()
                    }
                };
                let Some(card) = dealt else { continue };
                line.cards.push(card.to_string());
                if best[i].is_none_or(|b| (card.rank(), card.suit()) > (b.rank(), b.suit())) {
                    best[i] = Some(card);
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..lines.len()).filter(|&i| best[i].is_some()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(best[i].map(|c| (c.rank(), c.suit()))));
    for &i in order.iter().take(whole as usize) {
        lines[i].won = true;
        lines[i].after += into;
    }
    for line in &mut lines {
        if line.after == 0 && line.before > 0 {
            line.saved = true;
            line.after = color_up.lowest_in_play;
        }
    }
    ChipRace {
        total_before: players.iter().map(|p| p.1).sum(),
        total_after: lines.iter().map(|l| l.after).sum(),
        chips_awarded: whole as u32,
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn art_24_tv_a20_one_chip_each_nobody_eliminated() {
        // For example: colouring up 25s into 100s; seat 1 holds three 25s, seat 2 one 25.
        let color_up = ColorUp {
            retire: 25,
            into: 100,
            lowest_in_play: 100,
            fractions: Fractions::Removed,
        };
        let players = [(1, 1075), (2, 25), (3, 2000)];
        for seed in 0..20 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let race = chip_race(&players, &color_up, &mut rng);
            assert_eq!(race.lines[0].cards.len(), 3);
            assert_eq!(race.lines[1].cards.len(), 1);
            assert!(race.lines[2].cards.is_empty());
            // 100 in odd chips make exactly one new chip: one winner.
            assert_eq!(race.chips_awarded, 1);
            assert_eq!(race.lines.iter().filter(|l| l.won).count(), 1);
            // Seat 2 either wins the chip or is saved with one lowest chip.
            assert_eq!(race.lines[1].after, 100);
            assert_eq!(race.lines[1].saved, !race.lines[1].won);
            assert!(race.lines.iter().all(|l| l.after % 100 == 0));
        }
    }

    #[test]
    fn art_24_4_fractions_removed_against_rule_20_rounded() {
        let mut c = ColorUp {
            retire: 25,
            into: 100,
            lowest_in_play: 100,
            fractions: Fractions::Removed,
        };
        let players = [(1, 1050), (2, 1025), (3, 1025)];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        // 100 of odd chips: one new chip either way.
        assert_eq!(chip_race(&players, &c, &mut rng).chips_awarded, 1);
        let players = [(1, 1050), (2, 1025), (3, 1050), (4, 1025)];
        // 150: pt removes the 50; br (rounded) gives 2.
        assert_eq!(chip_race(&players, &c, &mut rng).chips_awarded, 1);
        c.fractions = Fractions::RoundHalfUp;
        assert_eq!(chip_race(&players, &c, &mut rng).chips_awarded, 2);
    }
}

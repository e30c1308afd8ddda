//! A round of [`Tournament::play_round`] split in two, for a caller that plays the hands
//! itself — the daemon, where each player posts his own actions over HTTP. The runtime still
//! decides everything a rulebook regulates: which tables play and which stop, the positions
//! and blinds of every hand ([`Tournament::plan_round`]), and, once the caller hands back how
//! each hand ended, the eliminations and finishing places, the clock, hand-for-hand and the
//! winner ([`Tournament::finish_round`]). Between the two, nothing but late entries may change
//! the tables.

use super::{Bust, Round, RuntimeError, Tournament};
use crate::hand::HandConfig;
use crate::tournament::seating::Positions;
use crate::tournament::structure::Level;
use crate::Chips;
use serde::Serialize;
use std::collections::BTreeMap;

/// One hand the runtime wants dealt at a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandPlan {
    /// The table's number.
    pub table: u32,
    /// The button, the blinds and the seats dealt in (the hand's players are
    /// `positions.dealt`, in that order).
    pub positions: Positions,
    /// The hand's stacks, blinds and antes at the level in force, position by position of
    /// `positions.dealt`.
    pub config: HandConfig,
    /// The `button.heads_up` ruling that placed the button, to record with the hand, where
    /// the table came down to two players after a hand of three or more.
    pub heads_up: Option<crate::rules::Ruling>,
}

/// One round: a hand at every table that is not stopped, all at the same level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundPlan {
    /// The level's index (from 0) the round is played at.
    pub level_index: usize,
    /// That level.
    pub level: Level,
    /// The hands to deal.
    pub hands: Vec<HandPlan>,
    /// Tables stopped until balanced (`table.balancing.stop_play_threshold`).
    pub stopped: Vec<u32>,
    /// Win-the-button seats taken for this round, given back if the hand is void.
    buttons: BTreeMap<u32, usize>,
}

/// How a planned hand ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandResult {
    /// Played to the end: the stacks after it, position by position of `positions.dealt`.
    Played(Vec<Chips>),
    /// Void, every bet returned: as if it had not been dealt (the same positions next round).
    Void,
}

impl Tournament {
    /// Plans the next round: the tables that stop are ruled on, and every other table with
    /// two players to deal in gets its positions and its hand's configuration at the level a
    /// new hand is played at. `None` on a break (let time pass with [`Tournament::elapse`]).
    pub fn plan_round(&mut self) -> Option<RoundPlan> {
        let (level_index, level) = self
            .clock
            .level_for_new_hand()
            .map(|(i, l)| (i, l.clone()))?;
        let stopped = self.stopped_tables();
        let mut hands = Vec::new();
        let mut buttons = BTreeMap::new();
        for t in 0..self.tables.len() {
            let number = self.tables[t].number;
            if stopped.contains(&number) {
                continue;
            }
            let button_to = self.next_button.remove(&number);
            if let Some(b) = button_to {
                buttons.insert(number, b);
            }
            let Some((positions, heads_up)) = self.hand_positions(t, button_to) else {
                continue;
            };
            if positions.dealt.len() < 2 {
                self.tables[t].hand_played(&positions);
                continue;
            }
            let config = self.hand_config(t, &positions, &level);
            hands.push(HandPlan {
                table: number,
                positions,
                config,
                heads_up: heads_up.and_then(|s| s.ruling),
            });
        }
        Some(RoundPlan {
            level_index,
            level,
            hands,
            stopped,
            buttons,
        })
    }

    /// The configuration of a hand at table `t` (index) at `positions` and `level`: the same
    /// one [`Tournament::play_round`] deals (its `play_hand` calls this).
    pub(super) fn hand_config(&self, t: usize, positions: &Positions, level: &Level) -> HandConfig {
        let table = &self.tables[t];
        let n = positions.dealt.len();
        let stacks: Vec<Chips> = positions
            .dealt
            .iter()
            .map(|&s| table.seats[s].as_ref().map_or(0, |p| p.chips))
            .collect();
        let index = |seat: usize| positions.dealt.iter().position(|&s| s == seat);
        let mut config = HandConfig::holdem(stacks, n - 1, 0, 0);
        config.blinds = vec![0; n];
        if positions.small_blind_posted {
            if let Some(i) = index(positions.small_blind_seat) {
                config.blinds[i] = level.small_blind;
            }
        }
        let bb = index(positions.big_blind);
        if let Some(i) = bb {
            config.blinds[i] = level.big_blind;
        }
        config.min_bet = level.big_blind;
        if level.ante > 0 {
            match (level.big_blind_ante, bb) {
                (true, Some(i)) => config.antes[i] = level.ante * n as Chips,
                _ => config.antes = vec![level.ante; n],
            }
        }
        config
    }

    /// Ends a planned round with how each of its hands ended (`results` in the order of
    /// `plan.hands`): stacks are checked (chips conserved) and applied, busted players placed
    /// (`tournament.bubble_same_hand_eliminations`), the clock advanced by `seconds`
    /// (hand-for-hand: as `time.hand_for_hand_clock` rules), hand-for-hand turned on or off
    /// and the winner placed. A player seated while the round was played (a late entry) keeps
    /// waiting for the button if he sat between it and the small blind.
    pub fn finish_round(
        &mut self,
        plan: &RoundPlan,
        results: &[HandResult],
        seconds: u64,
    ) -> Result<Round, RuntimeError> {
        if results.len() != plan.hands.len() {
            return Err(RuntimeError::Hand {
                table: 0,
                message: format!(
                    "{} hands were planned but {} results given",
                    plan.hands.len(),
                    results.len()
                ),
            });
        }
        let mut round = Round {
            tables_stopped: plan.stopped.clone(),
            ..Round::default()
        };
        // Busted players are still seated here, so this counts them.
        let left_before = self.players_left();
        let mut busts: Vec<Bust> = Vec::new();
        for (hand, result) in plan.hands.iter().zip(results) {
            let number = hand.table;
            let t = self
                .tables
                .iter()
                .position(|x| x.number == number)
                .ok_or_else(|| RuntimeError::Hand {
                    table: number,
                    message: "the table is no longer in play".into(),
                })?;
            let positions = &hand.positions;
            let after = match result {
                HandResult::Void => {
                    if let Some(&b) = plan.buttons.get(&number) {
                        self.next_button.insert(number, b);
                    }
                    continue;
                }
                HandResult::Played(after) => after,
            };
            let before: Vec<Chips> = positions
                .dealt
                .iter()
                .map(|&s| self.tables[t].seats[s].as_ref().map_or(0, |p| p.chips))
                .collect();
            let (sum_before, sum_after) =
                (before.iter().sum::<Chips>(), after.iter().sum::<Chips>());
            if after.len() != before.len() || sum_before != sum_after {
                return Err(RuntimeError::ChipsNotConserved {
                    table: number,
                    before: sum_before,
                    after: sum_after,
                });
            }
            self.hands_played += 1;
            round.tables_played.push(number);
            self.settle_stacks(t, &positions.dealt, &before, after, &mut busts);
            let newcomers: Vec<usize> = self.tables[t]
                .seated()
                .filter(|(i, s)| {
                    s.new_here && !positions.dealt.contains(i) && !positions.skipped.contains(i)
                })
                .map(|(i, _)| i)
                .collect();
            self.tables[t].hand_played(positions);
            for i in newcomers {
                if let Some(s) = self.tables[t].seats[i].as_mut() {
                    s.new_here = true;
                }
            }
            if self.setup.modality == super::Modality::WinTheButton {
                // The caller reports the stacks only: the winner is read from them.
                let winner = crate::tournament::last_hand::by_stacks(&before, after);
                self.win_the_button(t, positions, winner);
            }
            for seat in self.tables[t].seats.iter_mut() {
                if seat.as_ref().is_some_and(|p| p.chips == 0) {
                    *seat = None;
                }
            }
        }
        round.finishes = self.place_busts(left_before, &busts);
        self.tables.retain(|t| t.players() > 0);
        self.tick(plan.level_index, seconds, !round.tables_played.is_empty());
        self.finish_if_won();
        Ok(round)
    }

    /// The setup the tournament was created with.
    pub fn setup(&self) -> &super::Setup {
        &self.setup
    }
}

#[cfg(test)]
mod tests {
    use super::super::Setup;
    use super::*;
    use crate::rules::DefaultRules;
    use crate::tournament::play::play_paced;
    use crate::tournament::structure::{Modality, Structure};
    use crate::{cards::Deck, hand::Hand};
    use rand::SeedableRng;
    use std::sync::Arc;

    /// Rounds planned and finished by a caller that plays the hands itself reach a winner
    /// with chips conserved and every entry placed, as `play_round` does.
    #[test]
    fn rounds_played_by_the_caller_reach_a_winner_with_chips_conserved() {
        let levels = (0..20u64)
            .map(|i| Level {
                small_blind: 25 << i.min(12),
                big_blind: 50 << i.min(12),
                ante: 0,
                big_blind_ante: false,
                minutes: 1,
            })
            .collect();
        let setup = Setup {
            seats_per_table: 6,
            starting_stack: 2_000,
            structure: Structure {
                levels,
                breaks: Vec::new(),
            },
            modality: Modality::Standard,
            format: "6-max".into(),
            paid_places: 3,
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut t = Tournament::new(setup, Arc::new(DefaultRules)).expect("tournament");
        t.start(12, &mut rng).expect("start");
        let mut rounds = 0;
        while t.players_left() > 1 {
            rounds += 1;
            assert!(rounds < 20_000);
            t.balance(&mut rng);
            let plan = t.plan_round().expect("no breaks");
            let results: Vec<HandResult> = plan
                .hands
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    if rounds % 7 == 0 && i == 0 {
                        return HandResult::Void;
                    }
                    let mut hand =
                        Hand::new(h.config.clone(), Arc::new(DefaultRules)).expect("hand");
                    let mut deck = Deck::shuffled(&mut rng);
                    play_paced(&mut hand, &mut deck, &mut rng).expect("played");
                    HandResult::Played(hand.stacks())
                })
                .collect();
            t.finish_round(&plan, &results, 20).expect("finished");
            assert_eq!(t.chips_at_tables(), t.chips_in_play());
        }
        assert_eq!(t.finishes.len(), 12);
        assert!(t.finishes.iter().any(|f| f.place == 1));
    }
}

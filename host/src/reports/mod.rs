//! What an operator reads of the daemon's play: every hand it played as a PHH hand history
//! ([`phh`], `floor audit --phh`) and reports per table over a time range ([`tables`],
//! `floor audit --report`, `GET /api/reports`).
//!
//! Both read a replay of the journal through the engine ([`crate::serve::App::watch`]): the
//! hands, the commission and the rulings are the ones the engine made when the daemon played
//! them, never worked out again here. [`Hands`] follows the replay command by command and
//! hands over each hand as it ends, with the journal's time of its deal and its rulings.

pub mod phh;
pub mod tables;
pub mod when;

use crate::journal::RulingRecord;
use crate::serve::{Effect, Replayed};
use floor_engine::table::PlayedHand;
use std::collections::{BTreeMap, HashMap};

/// A hand that ended, with what the journal says about it.
#[derive(Debug)]
pub struct HandRecord {
    /// The hand as its table recorded it.
    pub played: PlayedHand,
    /// The tournament the table belongs to (`None`: a cash table).
    pub tournament: Option<String>,
    /// When the command that dealt it was journaled (ms since the Unix epoch); the time of
    /// the command that ended it when the deal is not in the replay.
    pub dealt_ms: i64,
    /// The journal entry of the command that dealt it.
    pub dealt_seq: i64,
    /// The journal entry of the command that ended it.
    pub ended_seq: i64,
    /// Every ruling the journal holds for the hand, in order.
    pub rulings: Vec<RulingRecord>,
}

/// Follows a replay and gathers each hand's deal time and rulings until it ends.
#[derive(Default)]
pub struct Hands {
    /// (table, hand) → (time, entry) of the command that dealt it.
    dealt: HashMap<(String, u64), (i64, i64)>,
    /// (table, hand) → its rulings so far.
    rulings: HashMap<String, BTreeMap<u64, Vec<RulingRecord>>>,
}

impl Hands {
    /// The hands `replayed` ended, in order.
    pub fn see(&mut self, replayed: &Replayed<'_>) -> Vec<HandRecord> {
        let Effect {
            rulings,
            table,
            tournament,
        } = &replayed.effect;
        for r in rulings {
            self.rulings
                .entry(r.table.clone())
                .or_default()
                .entry(r.hand)
                .or_default()
                .push(r.clone());
        }
        let at = (replayed.at_ms, replayed.seq);
        let mut ended = Vec::new();
        if let Some(applied) = table {
            if let Some(n) = applied.hand {
                self.dealt.insert((replayed.table.to_string(), n), at);
            }
            ended.extend(applied.ended.iter().map(|p| (**p).clone()));
        }
        let owner = tournament.as_ref().map(|_| replayed.table.to_string());
        if let Some(done) = tournament {
            for (table, n) in &done.dealt {
                self.dealt.insert((table.clone(), *n), at);
            }
            ended.extend(done.ended.iter().cloned());
        }
        ended
            .into_iter()
            .map(|played| {
                let key = (played.table.clone(), played.number);
                let (dealt_ms, dealt_seq) = self.dealt.remove(&key).unwrap_or(at);
                let rulings = self.take_rulings(&played.table, played.number);
                HandRecord {
                    played,
                    tournament: owner.clone(),
                    dealt_ms,
                    dealt_seq,
                    ended_seq: replayed.seq,
                    rulings,
                }
            })
            .collect()
    }

    /// The rulings of hand `number` at `table`; those of earlier hands there are dropped
    /// (they belong to no hand that can still end).
    fn take_rulings(&mut self, table: &str, number: u64) -> Vec<RulingRecord> {
        let Some(by_hand) = self.rulings.get_mut(table) else {
            return Vec::new();
        };
        let later = by_hand.split_off(&(number + 1));
        let mine = by_hand.remove(&number).unwrap_or_default();
        *by_hand = later;
        mine
    }
}

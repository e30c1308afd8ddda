//! What a viewer may see of a tournament: its level and clock, the money and the payout
//! list, the finishing places with their prizes, every entry and where it sits, and each
//! table as that viewer may see it (a player sees only his own cards).

use super::{Director, Status};
use crate::table::{TableView, Viewer};
use crate::tournament::bubble::{prizes, Finish};
use crate::tournament::clock::ClockPosition;
use crate::tournament::runtime::Tournament as Runtime;
use crate::tournament::structure::Modality;
use crate::tournament::{Cents, Payout};
use crate::Chips;
use serde::Serialize;
use std::collections::BTreeMap;

/// A tournament as a viewer may see it.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: Option<String>,
    /// The ruleset it is played under.
    pub ruleset: String,
    /// That ruleset's version (pinned at creation).
    pub version: String,
    /// That version's content hash.
    pub hash: String,
    /// `registering`, `running`, `finished`, `cancelled`.
    pub status: Status,
    /// The modality.
    pub modality: Modality,
    /// Seats per table.
    pub seats_per_table: usize,
    /// The starting stack.
    pub starting_stack: Chips,
    /// The level a hand dealt now is played at (`None` on a break or before the start).
    pub level: Option<LevelView>,
    /// On a break: the seconds left in it.
    pub break_seconds_left: Option<u64>,
    /// The level after this one (or after the break), `seconds_left` its whole length.
    pub next_level: Option<LevelView>,
    /// The next break still to come, and the seconds of play until it.
    pub next_break: Option<super::ahead::NextBreak>,
    /// The chips in play over the players still in (`None` before the start).
    pub average_stack: Option<Chips>,
    /// Hand-for-hand play is on.
    pub hand_for_hand: bool,
    /// Rounds dealt.
    pub round: u64,
    /// The round being played, if one is.
    pub round_in_play: Option<u64>,
    /// Hands played to the end over all tables.
    pub hands: u64,
    /// Entries (registrations, late entries and re-entries).
    pub entries: u32,
    /// Players still in.
    pub players_left: u32,
    /// Chips in play and at the tables (equal).
    pub chips: ChipsView,
    /// The money.
    pub money: MoneyView,
    /// Finishing places, best first, with prizes.
    pub places: Vec<PlaceView>,
    /// Every entry, with where it sits now.
    pub players: Vec<PlayerView>,
    /// The tables in play, each as this viewer may see it.
    pub tables: Vec<TableInView>,
    /// The caller's player number, when a player asks.
    pub you: Option<usize>,
    /// The tournament's last 20 rulings.
    pub rulings: Vec<String>,
}

/// A level.
#[derive(Clone, Debug, Serialize)]
pub struct LevelView {
    /// From 1.
    pub number: usize,
    /// Small blind.
    pub small_blind: Chips,
    /// Big blind.
    pub big_blind: Chips,
    /// Ante.
    pub ante: Chips,
    /// Seconds left in it (`None`: the last level).
    pub seconds_left: Option<u64>,
}

/// Chips.
#[derive(Clone, Debug, Serialize)]
pub struct ChipsView {
    /// Starting stacks of every entry, plus the chips of rebuys and add-ons.
    pub in_play: Chips,
    /// At the tables now (in stacks and pots).
    pub at_tables: Chips,
    /// Bought during a hand and waiting for the player's next one (not yet in either).
    pub queued: Chips,
}

/// Money, in cents.
#[derive(Clone, Debug, Serialize)]
pub struct MoneyView {
    /// The buy-in, fee included.
    pub buy_in: Cents,
    /// The fee, whole percent.
    pub fee_percent: u32,
    /// Everything paid in.
    pub paid_in: Cents,
    /// The house's fees.
    pub fee: Cents,
    /// The prize pool.
    pub prize_pool: Cents,
    /// The payout list by place; sums to the pool.
    pub payouts: Vec<Payout>,
    /// The article the payout list follows.
    pub payouts_citation: String,
    /// A cancelled tournament's refunds, one per payment.
    pub refunds: Vec<Refund>,
}

/// A refund.
#[derive(Clone, Debug, Serialize)]
pub struct Refund {
    /// The player, from 1.
    pub player: usize,
    /// The amount, in cents.
    pub amount: Cents,
}

/// A finishing place.
#[derive(Clone, Debug, Serialize)]
pub struct PlaceView {
    /// The place (1: the winner).
    pub place: u32,
    /// The last place of a shared group.
    pub shared_through: u32,
    /// The entry.
    pub entry: u32,
    /// The player, from 1.
    pub player: usize,
    /// Their name.
    pub name: String,
    /// The prize, in cents.
    pub prize: Cents,
}

/// An entry.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// The entry number.
    pub entry: u32,
    /// The player (from 1) it belongs to.
    pub player: usize,
    /// Their name.
    pub name: String,
    /// The table where it plays (`None`: out).
    pub table: Option<u32>,
    /// The seat, from 1.
    pub seat: Option<usize>,
    /// Chips at the start of the hand in play.
    pub chips: Option<Chips>,
    /// Disqualified: out of the tournament, unplaced and unpaid.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disqualified: bool,
}

/// A table of the tournament.
#[derive(Clone, Debug, Serialize)]
pub struct TableInView {
    /// Its number.
    pub number: u32,
    /// The table as this viewer may see it.
    pub table: TableView,
}

impl Director {
    /// The finishing places with their prizes.
    fn places(&self) -> Vec<PlaceView> {
        let Some(rt) = &self.runtime else {
            return Vec::new();
        };
        let list = self.payout_list().unwrap_or_default();
        // The runtime places a player among those in at the time he goes out; every entry
        // bought after that (late registration, re-entry) finishes ahead of him, so his place
        // moves down by one for each (reading: the field is the final one, Art. 7º entries
        // included).
        let finishes: Vec<Finish> = rt
            .finishes
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let later = self.late_marks.iter().filter(|&&m| m > i).count() as u32;
                Finish {
                    place: f.place + later,
                    shared_through: f.shared_through + later,
                    ..*f
                }
            })
            .collect();
        let paid: BTreeMap<u32, Cents> = prizes(&finishes, &list).into_iter().collect();
        let mut out: Vec<PlaceView> = finishes
            .iter()
            .map(|f: &Finish| PlaceView {
                place: f.place,
                shared_through: f.shared_through,
                entry: f.player,
                player: self.person_of_entry(f.player) + 1,
                name: self.name_of_entry(f.player),
                prize: paid.get(&f.player).copied().unwrap_or(0),
            })
            .collect();
        out.sort_by_key(|p| (p.place, p.entry));
        out
    }

    fn person_of_entry(&self, entry: u32) -> usize {
        self.entries
            .get(entry as usize - 1)
            .copied()
            .unwrap_or_default()
    }

    fn name_of_entry(&self, entry: u32) -> String {
        self.people
            .get(self.person_of_entry(entry))
            .cloned()
            .unwrap_or_default()
    }

    /// The level in force, or the seconds left of a break.
    /// What the clock shows ahead: the next level and the next break.
    fn ahead_view(&self) -> (Option<LevelView>, Option<super::ahead::NextBreak>) {
        let Some(rt) = self.runtime.as_ref() else {
            return (None, None);
        };
        let (structure, at) = (rt.clock().structure(), rt.clock().position());
        (
            super::ahead::next_level(structure, at),
            super::ahead::next_break(structure, at),
        )
    }

    fn level_view(&self) -> (Option<LevelView>, Option<u64>) {
        let Some(rt) = self.runtime.as_ref() else {
            return (None, None);
        };
        match rt.clock().position() {
            ClockPosition::Break { seconds_left, .. } => (None, Some(seconds_left)),
            ClockPosition::Level {
                index,
                seconds_left,
            } => {
                let l = &rt.clock().structure().levels[index];
                let level = LevelView {
                    number: index + 1,
                    small_blind: l.small_blind,
                    big_blind: l.big_blind,
                    ante: l.ante,
                    seconds_left,
                };
                (Some(level), None)
            }
        }
    }

    /// Every entry, with where it sits now.
    fn player_views(&self) -> Vec<PlayerView> {
        let rt = self.runtime.as_ref();
        let mut players = Vec::new();
        for (i, &p) in self.entries.iter().enumerate() {
            let entry = i as u32 + 1;
            let at = rt.and_then(|r| {
                r.locate(entry).map(|(t, s)| {
                    (
                        r.tables[t].number,
                        s + 1,
                        r.tables[t].seats[s].as_ref().map_or(0, |x| x.chips),
                    )
                })
            });
            players.push(PlayerView {
                entry,
                player: p + 1,
                name: self.people[p].clone(),
                table: at.map(|a| a.0),
                seat: at.map(|a| a.1),
                chips: at.map(|a| a.2),
                disqualified: rt.is_some_and(|r| r.is_disqualified(entry)),
            });
        }
        players
    }

    /// The money: paid in, fees, the pool, the payout list and, once cancelled, the refunds.
    fn money_view(&self) -> MoneyView {
        let pool = self.pool();
        let totals = self.ledger.totals();
        let refunds = if self.status == Status::Cancelled {
            self.ledger
                .receipts
                .iter()
                .map(|r| Refund {
                    player: r.player as usize,
                    amount: r.paid,
                })
                .collect()
        } else {
            Vec::new()
        };
        MoneyView {
            buy_in: self.terms.buy_in.amount,
            fee_percent: self.terms.buy_in.fee_percent,
            paid_in: totals.paid_in,
            fee: totals.fee,
            prize_pool: pool.prize_pool,
            payouts: self.payout_list().unwrap_or_default(),
            payouts_citation: self.payout_table.1.clone(),
            refunds,
        }
    }

    /// Table `number` as `viewer` may see it.
    pub fn table_view(&self, number: u32, viewer: Viewer) -> Option<TableView> {
        let t = self.tables.get(&number)?;
        let table = &t.table;
        let rulings = table
            .last()
            .map(|d| d.hand.rulings().iter().map(ToString::to_string).collect());
        Some(TableView {
            id: t.id.clone(),
            spec: t.spec.clone(),
            button: table.button().map(|b| b + 1),
            seats: table.seat_views(viewer),
            hand: table.hand_view(rulings),
            raked: table.raked(),
            awaiting_penalty: table.penalty_question(),
            session: None,
        })
    }

    /// The tournament as `viewer` may see it; `player` is the caller's own player (index),
    /// whose seat shows their cards (a [`Viewer::Seat`] viewer sees the public view at every
    /// other table).
    pub fn view(&self, viewer: Viewer, player: Option<usize>) -> TournamentView {
        let rt = self.runtime.as_ref();
        let (level, on_break) = self.level_view();
        let (next_level, next_break) = self.ahead_view();
        let own = player.and_then(|p| self.seat_of_player(p));
        let tables = self
            .tables
            .keys()
            .filter_map(|&n| {
                let v = match (viewer, own) {
                    (Viewer::Seat(_), Some((table, seat))) if table == n => Viewer::Seat(seat - 1),
                    (Viewer::Seat(_), _) => Viewer::Public,
                    (v, _) => v,
                };
                Some(TableInView {
                    number: n,
                    table: self.table_view(n, v)?,
                })
            })
            .collect();
        let rulings = rt.map_or_else(Vec::new, |r| {
            let all = r.rulings();
            all[all.len().saturating_sub(20)..]
                .iter()
                .map(|r| {
                    format!(
                        "{} [{} {} · {}]: {}",
                        r.point, r.ruleset.id, r.ruleset.version, r.citation, r.text
                    )
                })
                .collect()
        });
        TournamentView {
            id: self.id.clone(),
            name: self.spec.name.clone(),
            ruleset: self.ruleset.id().to_string(),
            version: self.ruleset.version().to_string(),
            hash: self.version.hash.to_string(),
            status: self.status,
            modality: self.spec.modality,
            seats_per_table: self.spec.seats_per_table,
            starting_stack: self.spec.starting_stack,
            level,
            break_seconds_left: on_break,
            next_level,
            next_break,
            average_stack: rt
                .and_then(|r| super::ahead::average_stack(r.chips_in_play(), r.players_left())),
            hand_for_hand: rt.is_some_and(Runtime::hand_for_hand),
            round: self.rounds,
            round_in_play: self.round.as_ref().map(|r| r.number),
            hands: rt.map_or(0, Runtime::hands_played),
            entries: self.entries.len() as u32,
            players_left: rt.map_or(self.entries.len() as u32, Runtime::players_left),
            chips: ChipsView {
                in_play: rt.map_or(0, Runtime::chips_in_play),
                at_tables: self.tables.values().map(|t| t.table.chips()).sum(),
                queued: self.queued.iter().map(|q| q.chips).sum(),
            },
            money: self.money_view(),
            places: self.places(),
            players: self.player_views(),
            tables,
            you: player.map(|p| p + 1),
            rulings,
        }
    }
}

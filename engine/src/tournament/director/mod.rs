//! A tournament run from commands: registrations and late entries, re-entries, rebuys and
//! add-ons with their money, the start, the rounds of hands its tables play, the clock,
//! voids and a cancellation with its refunds — a pure state machine. [`Director::apply`]
//! takes a command and the time it is given at and returns what it did and every ruling it
//! made, or why it was refused (and then nothing changed: the caller keeps a copy).
//!
//! The tournament runtime ([`super::runtime`]) decides seating, balancing and breaking,
//! levels, hand-for-hand, eliminations and places; the money [`Ledger`] and the payout table
//! decide the money; each hand the runtime lays out is played at a [`Table`] exactly as at a
//! cash table, by players posting their own actions. Play goes in the runtime's rounds — one
//! hand at every table that is not stopped — and the next round is dealt as soon as the last
//! hand of the round ends (tables that finish early wait; during hand-for-hand that is what
//! the rulebooks require), or, where the spec says `deal_on_command`, when the dealer deals
//! it or time passes: a claim on a hand just settled is heard until then, as at a cash
//! table. Every random draw comes from the tournament's seed, every clock
//! reading from the command's time, so the same commands at the same times give the same
//! tournament.

mod ahead;
mod command;
mod disqualified;
mod entry;
mod purchase;
mod rounds;
mod spec;
mod view;

pub use command::{Command, Done, Purchase, Recorded, Refusal, When};
pub use spec::{AddOnSpec, StructureSpec, TournamentSpec};
pub use view::{
    ChipsView, LevelView, MoneyView, PlaceView, PlayerView, Refund, TableInView, TournamentView,
};

use super::entries::{Ledger, Modality as Money, Price, Terms};
use super::runtime::{RoundPlan, Setup, Tournament as Runtime};
use super::structure::Structure;
use super::{bindings, prize_pool, FeeBounds, PayoutTable};
use crate::rules::Citation;
use crate::ruleset::Ruleset;
use crate::table::{Player, RulesVersion, Table, TableError, TableSpec, MAX_CHIPS};
use crate::Chips;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where the tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taking registrations.
    Registering,
    /// Being played.
    Running,
    /// One player has every chip.
    Finished,
    /// Cancelled by the operator.
    Cancelled,
}

/// The round being played.
#[derive(Clone, Debug)]
struct InPlay {
    number: u64,
    plan: RoundPlan,
}

/// A purchase paid while the player's hand was being played: its chips wait for his next hand.
#[derive(Clone, Debug)]
struct Queued {
    entry: u32,
    chips: Chips,
}

/// One of the tournament's tables: the table that plays its hands, with the id and setup it
/// is shown under (the blinds and ante of the level its last hand was dealt at).
#[derive(Clone)]
pub struct TournamentTable {
    /// `tour1.3` for table 3 of `tour1`.
    pub id: String,
    /// Its setup as shown.
    pub spec: TableSpec,
    /// The table.
    pub table: Table<Player>,
}

/// The hands a command dealt and ended, gathered for its answer.
#[derive(Clone, Default)]
struct Hands {
    dealt: Vec<(String, u64)>,
    ended: Vec<crate::table::PlayedHand>,
}

/// The most chips a stack, a blind or an add-on may be: far beyond any real event, and small
/// enough that a whole field's chips fit in a table's sums.
const MAX_TOURNAMENT_CHIPS: Chips = MAX_CHIPS / 10_000;

/// The most a buy-in, rebuy or add-on may cost, in cents (1,000,000,000 euros).
const MAX_PRICE: u64 = 100_000_000_000;

/// A tournament.
#[derive(Clone)]
pub struct Director {
    /// Its id (`tour1`...).
    pub id: String,
    /// Its setup.
    pub spec: TournamentSpec,
    ruleset: Arc<Ruleset>,
    version: RulesVersion,
    terms: Terms,
    /// The players' names, in order of registration.
    people: Vec<String>,
    /// The person (index) of each entry (entry `n` at index `n - 1`).
    entries: Vec<usize>,
    ledger: Ledger,
    runtime: Option<Runtime>,
    round: Option<InPlay>,
    rounds: u64,
    tables: BTreeMap<u32, TournamentTable>,
    status: Status,
    clock_ms: i64,
    /// How many of the runtime's rulings were reported.
    seen: usize,
    /// For each late entry or re-entry, how many finishing places were given before it.
    late_marks: Vec<usize>,
    made: Vec<Recorded>,
    /// The hands dealt and ended since the last command's answer (see [`Done`]).
    hands: Hands,
    payout_table: (PayoutTable, String),
    /// Rebuys and add-ons paid during a hand, added before the player's next one.
    queued: Vec<Queued>,
}

/// A generator for one kind of draw (`a`: seats, balancing, late seats, a table's deck) at
/// one moment (`b`), from the tournament's seed.
fn mix(seed: u64, a: u64, b: u64) -> ChaCha8Rng {
    let mut x =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 31;
    ChaCha8Rng::seed_from_u64(x)
}

fn refused(m: impl Into<String>) -> TableError {
    TableError::Refused(m.into())
}

fn invalid(m: impl Into<String>) -> TableError {
    TableError::Invalid(m.into())
}

/// A citation as text, back as a citation.
fn citation_of(text: &str) -> Citation {
    if text == Citation::NotRegulated.to_string() {
        Citation::NotRegulated
    } else {
        Citation::Article(text.to_string().into())
    }
}

/// Whether a ruleset is for tournaments (it or a layer it extends is a tournament rulebook).
pub fn is_tournament_ruleset(ruleset: &Ruleset) -> bool {
    ruleset
        .layers()
        .iter()
        .any(|l| l.file.kind == crate::ruleset::RulesetKind::Tournament)
}

/// Checks the amounts of a spec against their bounds; returns its structure of levels.
fn check_bounds(spec: &TournamentSpec) -> Result<Structure, TableError> {
    if !(2..=10).contains(&spec.seats_per_table) {
        return Err(invalid(format!(
            "a tournament table has 2 to 10 seats, not {}",
            spec.seats_per_table
        )));
    }
    if spec.starting_stack == 0 || spec.starting_stack > MAX_TOURNAMENT_CHIPS {
        return Err(invalid(format!(
            "a starting stack of 1 to {MAX_TOURNAMENT_CHIPS} chips, not {}",
            spec.starting_stack
        )));
    }
    if spec.buy_in == 0 || spec.buy_in > MAX_PRICE {
        return Err(invalid(
            "the buy-in is 1 cent to 1,000,000,000 euros (in cents)",
        ));
    }
    if spec.seconds_per_round.is_some_and(|s| s > 86_400) {
        return Err(invalid("a round counts at most 86400 seconds of the clock"));
    }
    let structure = spec.structure.structure()?;
    let cap = MAX_TOURNAMENT_CHIPS;
    if let Some((i, _)) = structure.levels.iter().enumerate().find(|(_, l)| {
        l.small_blind > cap || l.big_blind > cap || l.ante > cap || l.minutes > 24 * 60
    }) {
        return Err(invalid(format!(
            "level {}: blinds and ante at most {cap} chips, at most 1440 minutes",
            i + 1
        )));
    }
    Ok(structure)
}

/// Checks the rebuy and add-on of a spec against their bounds.
fn check_purchases(spec: &TournamentSpec) -> Result<(), TableError> {
    for (what, price) in [
        ("rebuy", spec.rebuy),
        ("add_on.price", spec.add_on.map(|a| a.price)),
    ] {
        if price.is_some_and(|p| p == 0 || p > MAX_PRICE) {
            return Err(invalid(format!(
                "`{what}` is 1 cent to 1,000,000,000 euros (in cents)"
            )));
        }
    }
    if spec
        .add_on
        .is_some_and(|a| a.chips == 0 || a.chips > MAX_TOURNAMENT_CHIPS)
    {
        return Err(invalid(format!(
            "an add-on of 1 to {MAX_TOURNAMENT_CHIPS} chips"
        )));
    }
    Ok(())
}

/// The fee the event charges: the spec's, else the one the ruleset announces, else none
/// where the text allows none.
fn fee_of(
    spec: &TournamentSpec,
    ruleset: &Ruleset,
) -> Result<(u32, FeeBounds, String), TableError> {
    let (bounds, fee_article) = bindings::fee_bounds(ruleset).unwrap_or_else(|| {
        (
            FeeBounds {
                fee_percent_min: 0,
                fee_percent_max: 100,
            },
            Citation::NotRegulated.to_string(),
        )
    });
    let fee = match (spec.fee_percent, bindings::announced_fee(ruleset)) {
        (Some(f), _) => f,
        (None, Some((f, _))) => f,
        (None, None) if bounds.fee_percent_min == 0 => 0,
        (None, None) => {
            return Err(invalid(format!(
                "{} fixes no fee, only its bounds ({}% to {}%, {fee_article}): give `fee_percent`",
                spec.ruleset, bounds.fee_percent_min, bounds.fee_percent_max
            )))
        }
    };
    Ok((fee, bounds, fee_article))
}

/// The payout table: the ruleset's, or the one the spec announces where the text has none.
fn payout_table_of(
    spec: &TournamentSpec,
    ruleset: &Ruleset,
) -> Result<(PayoutTable, String), TableError> {
    let from_ruleset = bindings::payout_table(ruleset).map_err(|e| invalid(e.to_string()))?;
    match (from_ruleset, &spec.payouts) {
        (Some(_), Some(_)) => Err(invalid(format!(
            "{} regulates `tournament.payout_table`: leave `payouts` out",
            spec.ruleset
        ))),
        (Some(t), None) => Ok(t),
        (None, Some(t)) => {
            for b in &t.bands {
                let fixed = !b.shares_percent.is_empty();
                if fixed == (b.places_percent_of_entries > 0)
                    || (fixed && b.shares_percent.iter().sum::<u32>() != 100)
                {
                    return Err(invalid(format!(
                        "payouts: the band from {} entries needs either `shares_percent` summing to 100 or `places_percent_of_entries`",
                        b.entries_min
                    )));
                }
            }
            Ok((
                t.clone(),
                format!(
                    "{} (the payout table announced for this event)",
                    Citation::NotRegulated
                ),
            ))
        }
        (None, None) => Err(invalid(format!(
            "{} does not regulate `tournament.payout_table` (not regulated by this text): announce one in `payouts`, e.g. {{\"bands\": [{{\"entries_min\": 2, \"shares_percent\": [65, 35]}}]}}",
            spec.ruleset
        ))),
    }
}

impl Director {
    /// A tournament taking registrations at `at_ms`, checked against its ruleset: a
    /// tournament rulebook, a playable structure for its modality, a fee within the text's
    /// bounds, a payout table (the ruleset's, or the one announced in the spec where the
    /// text has none). `version` is the ruleset's version the whole tournament is played
    /// under.
    pub fn new(
        id: String,
        spec: TournamentSpec,
        ruleset: Arc<Ruleset>,
        version: RulesVersion,
        at_ms: i64,
    ) -> Result<Director, TableError> {
        if !is_tournament_ruleset(&ruleset) {
            return Err(invalid(format!(
                "`{}` is not a tournament ruleset (pt-tournament, pt-solverde-chaves-2023, ao-tournament-2025, br-adtp-2012 or a house ruleset extending one)",
                spec.ruleset
            )));
        }
        let structure = check_bounds(&spec)?;
        let (fee, bounds, fee_article) = fee_of(&spec, &ruleset)?;
        prize_pool(1, 0, spec.buy_in, fee, &bounds, &fee_article)
            .map_err(|e| invalid(e.to_string()))?;
        let payout_table = payout_table_of(&spec, &ruleset)?;
        // The structure must suit the modality (the runtime refuses it otherwise).
        Runtime::new(Self::setup_for(&spec, structure, 0), version.rules.clone())
            .map_err(|e| invalid(e.to_string()))?;
        check_purchases(&spec)?;
        let price = |amount| Price {
            amount,
            fee_percent: fee,
        };
        let terms = Terms {
            modality: if spec.rebuy.is_some() || spec.add_on.is_some() {
                Money::RebuyAddOn
            } else {
                Money::FreezeOut
            },
            buy_in: price(spec.buy_in),
            starting_stack: spec.starting_stack,
            rebuy: spec.rebuy.map(price),
            max_rebuys: spec.max_rebuys,
            add_on: spec.add_on.map(|a| (price(a.price), a.chips)),
            late_registration_until_level: spec.late_registration_until_level,
            re_entries_allowed: spec.re_entries,
            bounty: 0,
            xtrastack: None,
            day_two_options: Vec::new(),
        };
        Ok(Director {
            id,
            ledger: Ledger::under(terms.clone(), &ruleset),
            terms,
            ruleset,
            version,
            spec,
            people: Vec::new(),
            entries: Vec::new(),
            runtime: None,
            round: None,
            rounds: 0,
            tables: BTreeMap::new(),
            status: Status::Registering,
            clock_ms: at_ms,
            seen: 0,
            late_marks: Vec::new(),
            made: Vec::new(),
            hands: Hands::default(),
            payout_table,
            queued: Vec::new(),
        })
    }

    fn setup_for(spec: &TournamentSpec, structure: Structure, paid_places: u32) -> Setup {
        Setup {
            seats_per_table: spec.seats_per_table,
            starting_stack: spec.starting_stack,
            structure,
            modality: spec.modality,
            format: if spec.seats_per_table == 6 {
                "6-max".into()
            } else {
                "full_ring".into()
            },
            paid_places,
        }
    }

    /// The ruleset version the tournament is played under.
    pub fn version(&self) -> &RulesVersion {
        &self.version
    }

    /// Rounds dealt so far.
    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    /// Its status.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether it is over (finished or cancelled).
    pub fn is_over(&self) -> bool {
        matches!(self.status, Status::Finished | Status::Cancelled)
    }

    /// Players registered (each counted once, whatever his entries).
    pub fn players(&self) -> usize {
        self.people.len()
    }

    /// The table number and seat (from 1) where player `p` (index, from 0) plays now.
    pub fn seat_of_player(&self, p: usize) -> Option<(u32, usize)> {
        let rt = self.runtime.as_ref()?;
        let entry = self.live_entry(p)?;
        rt.locate(entry).map(|(t, s)| (rt.tables[t].number, s + 1))
    }

    /// The entry player `p` (index) plays now, if he is still in.
    fn live_entry(&self, p: usize) -> Option<u32> {
        let rt = self.runtime.as_ref()?;
        self.entries
            .iter()
            .enumerate()
            .rev()
            .find(|(_, &who)| who == p)
            .map(|(i, _)| i as u32 + 1)
            .filter(|&e| rt.locate(e).is_some())
    }

    /// The tables with a hand in progress.
    pub fn tables_in_hand(&self) -> Vec<u32> {
        self.tables
            .iter()
            .filter(|(_, t)| t.table.in_hand())
            .map(|(n, _)| *n)
            .collect()
    }

    /// Carries out `command` given at `at_ms` (the caller's clock, kept with the command so
    /// that replaying the commands gives the same tournament). On error the caller puts the
    /// tournament back as it was (it applies commands to a copy).
    pub fn apply(&mut self, command: &Command, at_ms: i64) -> Result<Done, TableError> {
        let mut done = Done::default();
        if self.is_over() {
            return Err(refused(format!("tournament {} is over", self.id)));
        }
        match command {
            Command::Register { name } => match self.register(name)? {
                Ok(entry) => done.entry = Some(entry),
                Err(r) => done.refused = Some(r),
            },
            Command::ReEnter { player } => match self.re_enter(*player)? {
                Ok(entry) => done.entry = Some(entry),
                Err(r) => done.refused = Some(r),
            },
            Command::Purchase { player, add_on } => match self.purchase(*player, *add_on)? {
                Ok(p) => done.purchase = Some(p),
                Err(r) => done.refused = Some(r),
            },
            Command::Start => self.start(at_ms)?,
            Command::Act {
                table,
                seat,
                action,
            } => {
                let t = self.playing_table(*table)?;
                let index = t.table.index(&t.id, *seat)?;
                t.table.act(index, action.action())?;
                self.note_ended(*table);
                self.after_hand(at_ms)?;
            }
            Command::Event { table, event } => {
                let t = self.playing_table(*table)?;
                let was_playing = t.table.in_hand();
                done.ruling = Some(t.table.event(&t.id, event)?);
                if was_playing {
                    self.note_ended(*table);
                }
                self.after_hand(at_ms)?;
            }
            Command::Deal => self.deal_on(at_ms)?,
            Command::Clock { seconds } => self.clock(*seconds, at_ms)?,
            Command::Void {
                point,
                citation,
                why,
                table,
            } => {
                let point = crate::rules::registry::get(point)
                    .map_or("online.communication_failure", |p| p.id);
                let citation = citation
                    .as_deref()
                    .map_or(Citation::NotRegulated, citation_of);
                self.playing_table(*table)?
                    .table
                    .void_ruled(point, citation, why)?;
                self.note_ended(*table);
                self.after_hand(at_ms)?;
            }
            Command::Cancel => self.cancel()?,
        }
        self.collect();
        done.rulings = std::mem::take(&mut self.made);
        let hands = std::mem::take(&mut self.hands);
        (done.dealt, done.ended) = (hands.dealt, hands.ended);
        Ok(done)
    }

    /// Records the hand at table `number` if it has ended (an action or event that ends a
    /// hand is the only one that can: a table plays one hand at a time).
    pub(super) fn note_ended(&mut self, number: u32) {
        if let Some(t) = self.tables.get(&number) {
            if !t.table.in_hand() {
                if let Some(played) = t.table.played(&t.id) {
                    self.hands.ended.push(played);
                }
            }
        }
    }

    fn playing_table(&mut self, number: u32) -> Result<&mut TournamentTable, TableError> {
        if self.status != Status::Running {
            return Err(refused("the tournament is not being played"));
        }
        let id = self.id.clone();
        self.tables
            .get_mut(&number)
            .ok_or_else(|| invalid(format!("tournament {id} has no table {number}")))
    }

    /// Voids every hand in progress and cancels the tournament.
    fn cancel(&mut self) -> Result<(), TableError> {
        let citation = self
            .ruleset
            .resolve("governance.final_authority")
            .map_or(Citation::NotRegulated, |r| {
                Citation::Article(r.binding.citation.clone().into())
            });
        for t in self.tables.values_mut() {
            if t.table.in_hand() {
                t.table.void_ruled(
                    "governance.final_authority",
                    citation.clone(),
                    "the tournament direction cancelled the tournament",
                )?;
                self.hands.ended.extend(t.table.played(&t.id));
            }
        }
        self.round = None;
        self.status = Status::Cancelled;
        Ok(())
    }
}

//! A tournament in the daemon: the engine's tournament runtime
//! ([`floor_engine::tournament::runtime`]) decides seating, balancing and breaking, levels,
//! hand-for-hand, eliminations and places; the engine's [`Ledger`] and payout table decide the
//! money; and each hand the runtime lays out is played at a daemon [`Table`] exactly as at a
//! cash table, by players posting their own actions.
//!
//! Play goes in the runtime's rounds — one hand at every table that is not stopped — and the
//! next round is dealt as soon as the last hand of the round ends (tables that finish early
//! wait; during hand-for-hand that is what the rulebooks require). The state is a function
//! of the commands ([`Op`]) applied in order: every random draw comes from the tournament's
//! seed, every clock reading from the command's journaled time, so replaying the journal
//! rebuilds the tournament exactly.

use super::tables::{Move, Seat, Table, TableError, TableView, Viewer};
use crate::live::Version;
use floor_engine::events::{EventRuling, TableEvent};
use floor_engine::rules::Citation;
use floor_engine::tournament::bubble::{prizes, Finish};
use floor_engine::tournament::clock::ClockPosition;
use floor_engine::tournament::entries::{Ledger, Modality as Money, Price, Terms};
use floor_engine::tournament::runtime::{
    EntryWindows, HandResult, RoundPlan, RuntimeError, Setup, Tournament as Runtime,
};
use floor_engine::tournament::structure::{Break, Level, Modality, Structure};
use floor_engine::tournament::{bindings, payouts, prize_pool, Cents, FeeBounds, Payout};
use floor_engine::tournament::{PayoutTable, PrizePool};
use floor_engine::Chips;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The structure of levels: a named default or the levels themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StructureSpec {
    /// `"standard"` (20-minute levels), `"turbo"` (10), `"hyper"` (3): 20 levels from 25/50.
    Named(String),
    /// `{"levels": [{"small_blind", "big_blind", "ante", "minutes"}], "breaks": [...]}`.
    Levels {
        /// The levels.
        levels: Vec<Level>,
        /// The breaks.
        #[serde(default)]
        breaks: Vec<Break>,
    },
}

impl Default for StructureSpec {
    fn default() -> Self {
        StructureSpec::Named("standard".into())
    }
}

impl StructureSpec {
    fn structure(&self) -> Result<Structure, TableError> {
        match self {
            StructureSpec::Levels { levels, breaks } => Ok(Structure {
                levels: levels.clone(),
                breaks: breaks.clone(),
            }),
            StructureSpec::Named(name) => {
                let minutes = match name.as_str() {
                    "standard" => 20,
                    "turbo" => 10,
                    "hyper" => 3,
                    other => {
                        return Err(TableError::Invalid(format!(
                            "`{other}` is not a named structure (standard, turbo, hyper) — or give {{\"levels\": [...]}}"
                        )))
                    }
                };
                const BLINDS: [Chips; 20] = [
                    50, 100, 150, 200, 300, 400, 600, 800, 1000, 1200, 1600, 2000, 3000, 4000,
                    6000, 8000, 10000, 12000, 16000, 20000,
                ];
                Ok(Structure {
                    levels: BLINDS
                        .iter()
                        .map(|&bb| Level {
                            small_blind: bb / 2,
                            big_blind: bb,
                            ante: 0,
                            big_blind_ante: false,
                            minutes,
                        })
                        .collect(),
                    breaks: Vec::new(),
                })
            }
        }
    }
}

fn nine() -> usize {
    9
}

fn stack() -> Chips {
    10_000
}

/// How a tournament is set up (the body of `POST /api/tournaments`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSpec {
    /// A tournament ruleset (or a house ruleset extending one); the version live at creation
    /// is the one the whole tournament is played under.
    pub ruleset: String,
    /// A name for people.
    #[serde(default)]
    pub name: Option<String>,
    /// The levels.
    #[serde(default)]
    pub structure: StructureSpec,
    /// The starting stack, in chips.
    #[serde(default = "stack")]
    pub starting_stack: Chips,
    /// The buy-in, fee included, in cents.
    pub buy_in: Cents,
    /// The fee, whole percent of the buy-in (default: the ruleset's announced fee, else 0
    /// where the text does not bound it).
    #[serde(default)]
    pub fee_percent: Option<u32>,
    /// The modality as far as the tables go.
    #[serde(default)]
    pub modality: Modality,
    /// Seats per table (2 to 10).
    #[serde(default = "nine")]
    pub seats_per_table: usize,
    /// The seed of every random draw (seats, buttons, moves, cards); chosen by the daemon
    /// when not given, and journaled.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The payout table, in the format of a ruleset's `tournament.payout_table` value, for a
    /// ruleset that does not regulate it.
    #[serde(default)]
    pub payouts: Option<PayoutTable>,
    /// The last level (from 1) at which late registration and re-entry are open.
    #[serde(default)]
    pub late_registration_until_level: Option<u32>,
    /// Re-entries announced.
    #[serde(default)]
    pub re_entries: bool,
    /// Clock seconds each round counts; when absent the level clock follows the daemon's
    /// wall clock.
    #[serde(default)]
    pub seconds_per_round: Option<u64>,
    /// The rebuy price in cents (fee at `fee_percent`; a rebuy gives a starting stack), when
    /// rebuys are offered. Offering rebuys or an add-on makes the event a rebuy/add-on one
    /// (Solverde §3.1.2); otherwise it is a freeze-out (§3.1.1).
    #[serde(default)]
    pub rebuy: Option<Cents>,
    /// Most rebuys per player (absent: no limit announced).
    #[serde(default)]
    pub max_rebuys: Option<u32>,
    /// The add-on offered.
    #[serde(default)]
    pub add_on: Option<AddOnSpec>,
}

/// One command to a tournament, as journaled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// The tournament is created under the ruleset version with `hash`.
    Create {
        /// Its setup (seed filled in).
        spec: TournamentSpec,
        /// The ruleset version's content hash.
        hash: String,
    },
    /// A player registers (before the start, or late) and gets `token`.
    Register {
        /// The player's name.
        name: String,
        /// Their token's SHA-256 (`auth::digest`): the token itself is never kept.
        #[serde(rename = "token_sha256")]
        token: String,
    },
    /// A player out of the tournament buys a new entry.
    ReEnter {
        /// The player (from 1, in order of registration).
        player: usize,
    },
    /// A player still in buys a rebuy or the add-on: paid at once, its chips added to his
    /// stack between hands (at once on a break; at the start of his next hand, before its
    /// deal, when bought while his table's hand of the round is being played).
    Purchase {
        /// The player (from 1, in order of registration).
        player: usize,
        /// The add-on (`false`: a rebuy).
        add_on: bool,
    },
    /// Seats are drawn and the first round is dealt.
    Start,
    /// A betting action at a table.
    Act {
        /// The table's number.
        table: u32,
        /// The seat, from 1.
        seat: usize,
        /// The action.
        action: Move,
    },
    /// A table event (scenario vocabulary; `player` is the seat number).
    Event {
        /// The table's number.
        table: u32,
        /// The event.
        event: TableEvent,
    },
    /// Deals the next round when none is being played (after a break).
    Deal,
    /// Lets time pass on the level clock.
    Clock {
        /// Seconds.
        seconds: u64,
    },
    /// The hand in progress at a table is voided, its bets returned.
    Void {
        /// The table's number.
        table: u32,
        /// The rule point.
        point: String,
        /// The article (`None`: not regulated by this text).
        citation: Option<String>,
        /// Why.
        why: String,
    },
    /// The tournament is cancelled: hands in progress voided, every payment refunded.
    Cancel,
}

/// A registered player.
#[derive(Clone, Debug)]
pub struct Person {
    /// Their name.
    pub name: String,
    /// Their token's SHA-256: the token acts for their seat and shows their own cards.
    pub token: String,
}

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

#[derive(Clone, Debug)]
struct InPlay {
    number: u64,
    plan: RoundPlan,
}

/// A ruling made by a tournament command, for the journal.
#[derive(Clone, Debug)]
pub struct Made {
    /// `tour1` for the tournament's own rulings, `tour1.3` for a hand at its table 3.
    pub table: String,
    /// The round (tournament rulings) or the table's hand number.
    pub hand: u64,
    /// Rule point, ruleset id and version, citation, text.
    pub point: String,
    /// The ruleset id.
    pub ruleset: String,
    /// Its version.
    pub version: String,
    /// The citation.
    pub citation: String,
    /// The ruling in English.
    pub text: String,
}

/// What a command gave.
#[derive(Clone, Debug, Default)]
pub struct Done {
    /// The entry number a registration or re-entry got.
    pub entry: Option<u32>,
    /// The ruling of a table event.
    pub ruling: Option<EventRuling>,
    /// A late entry, re-entry, rebuy or add-on the ruleset refused: the command changed
    /// nothing but the ruling, which is journaled with it (answered 409 with the article).
    pub refused: Option<Refusal>,
    /// A rebuy or add-on bought.
    pub purchase: Option<Purchase>,
}

/// A rebuy or add-on bought: what it cost, where the money went, the chips it added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Purchase {
    /// The player, from 1.
    pub player: usize,
    /// The entry whose stack grew.
    pub entry: u32,
    /// `rebuy` or `add_on`.
    pub stream: String,
    /// Paid, in cents.
    pub paid: Cents,
    /// The house's fee, in cents.
    pub fee: Cents,
    /// Into the prize pool, in cents.
    pub to_pool: Cents,
    /// Chips added to the stack.
    pub chips: Chips,
    /// The stack after it.
    pub stack: Chips,
    /// The rule point that allowed it.
    pub point: String,
    /// Its article (or *not regulated by this text*).
    pub citation: String,
    /// When the chips join the stack: `now` (between hands: `stack` includes them) or
    /// `next_hand` (bought while his table's hand is played: queued, `stack` is the stack
    /// he plays that hand with).
    pub applies: &'static str,
    /// For a queued purchase, the ruling on when it applies (`tournament.rebuy.declaration`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<When>,
}

/// The ruling on when a queued purchase's chips join the stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct When {
    /// The rule point (`tournament.rebuy.declaration`).
    pub point: String,
    /// Its article (pt-tournament Art. 27º), or *not regulated by this text*.
    pub citation: String,
    /// The ruling in English.
    pub text: String,
}

/// A purchase paid while the player's hand was being played: its chips wait for his next hand.
#[derive(Clone, Debug)]
struct Queued {
    entry: u32,
    chips: Chips,
}

/// The add-on offered (the body's `add_on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddOnSpec {
    /// Its price, in cents (fee at the event's `fee_percent`).
    pub price: Cents,
    /// The chips it gives.
    pub chips: Chips,
}

/// A late entry or re-entry refused by the runtime's announced windows, or a rebuy or add-on
/// refused by the money ledger, as the ruleset ruled (`tournament.late_registration`,
/// `tournament.reentry`, `tournament.modality.rebuy_addon`, `tournament.modality.freeze_out`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The rule point.
    pub point: String,
    /// What was asked for (`late registration`, `re-entry`).
    pub what: String,
    /// Why not, in the ruling's words.
    pub why: String,
    /// The article, or *not regulated by this text*.
    pub citation: String,
}

impl Refusal {
    /// The refusal as one line: what, why, the article.
    pub fn message(&self) -> String {
        format!("{} refused: {} ({})", self.what, self.why, self.citation)
    }
}

/// A tournament in the daemon.
#[derive(Clone)]
pub struct Tour {
    /// Its id (`tour1`...).
    pub id: String,
    /// Its setup.
    pub spec: TournamentSpec,
    version: Version,
    terms: Terms,
    /// The players, in order of registration.
    pub people: Vec<Person>,
    /// The person (index) of each entry (entry `n` at index `n - 1`).
    entries: Vec<usize>,
    ledger: Ledger,
    runtime: Option<Runtime>,
    round: Option<InPlay>,
    rounds: u64,
    tables: BTreeMap<u32, Table>,
    status: Status,
    clock_ms: i64,
    seen: usize,
    /// For each late entry or re-entry, how many finishing places were given before it.
    late_marks: Vec<usize>,
    marks: BTreeMap<u32, (u64, usize)>,
    made: Vec<Made>,
    payout_table: (PayoutTable, String),
    /// Rebuys and add-ons paid during a hand, added before the player's next one.
    queued: Vec<Queued>,
}

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

/// Whether a ruleset is for tournaments (it or a layer it extends is a tournament rulebook).
pub fn is_tournament_ruleset(version: &Version) -> bool {
    version
        .ruleset
        .layers()
        .iter()
        .any(|l| l.file.kind == floor_engine::ruleset::RulesetKind::Tournament)
}

impl Tour {
    /// A tournament taking registrations, checked against its ruleset: a tournament rulebook,
    /// a playable structure for its modality, a fee within the text's bounds, a payout table
    /// (the ruleset's, or the one announced in the spec where the text has none).
    pub fn new(
        id: String,
        spec: TournamentSpec,
        version: Version,
        at_ms: i64,
    ) -> Result<Tour, TableError> {
        if !is_tournament_ruleset(&version) {
            return Err(invalid(format!(
                "`{}` is not a tournament ruleset (pt-tournament, pt-solverde-chaves-2023, ao-tournament-2025, br-adtp-2012 or a house ruleset extending one)",
                spec.ruleset
            )));
        }
        if !(2..=10).contains(&spec.seats_per_table) {
            return Err(invalid(format!(
                "a tournament table has 2 to 10 seats, not {}",
                spec.seats_per_table
            )));
        }
        if spec.starting_stack == 0 || spec.starting_stack > super::tables::MAX_CHIPS / 10_000 {
            return Err(invalid(format!(
                "a starting stack of 1 to {} chips, not {}",
                super::tables::MAX_CHIPS / 10_000,
                spec.starting_stack
            )));
        }
        if spec.buy_in == 0 || spec.buy_in > 100_000_000_000 {
            return Err(invalid(
                "the buy-in is 1 cent to 1,000,000,000 euros (in cents)",
            ));
        }
        if spec.seconds_per_round.is_some_and(|s| s > 86_400) {
            return Err(invalid("a round counts at most 86400 seconds of the clock"));
        }
        let structure = spec.structure.structure()?;
        let cap = super::tables::MAX_CHIPS / 10_000;
        if let Some((i, _)) = structure.levels.iter().enumerate().find(|(_, l)| {
            l.small_blind > cap || l.big_blind > cap || l.ante > cap || l.minutes > 24 * 60
        }) {
            return Err(invalid(format!(
                "level {}: blinds and ante at most {cap} chips, at most 1440 minutes",
                i + 1
            )));
        }
        let ruleset = &version.ruleset;
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
        prize_pool(1, 0, spec.buy_in, fee, &bounds, &fee_article)
            .map_err(|e| invalid(e.to_string()))?;
        let from_ruleset = bindings::payout_table(ruleset).map_err(|e| invalid(e.to_string()))?;
        let payout_table = match (from_ruleset, &spec.payouts) {
            (Some(_), Some(_)) => {
                return Err(invalid(format!(
                    "{} regulates `tournament.payout_table`: leave `payouts` out",
                    spec.ruleset
                )))
            }
            (Some(t), None) => t,
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
                let checked = t.clone();
                (
                    checked,
                    format!(
                        "{} (the payout table announced for this event)",
                        Citation::NotRegulated
                    ),
                )
            }
            (None, None) => {
                return Err(invalid(format!(
                    "{} does not regulate `tournament.payout_table` (not regulated by this text): announce one in `payouts`, e.g. {{\"bands\": [{{\"entries_min\": 2, \"shares_percent\": [65, 35]}}]}}",
                    spec.ruleset
                )))
            }
        };
        // The structure must suit the modality (the runtime refuses it otherwise).
        Runtime::new(
            Self::setup_for(&spec, structure.clone(), 0),
            version.rules.clone(),
        )
        .map_err(|e| invalid(e.to_string()))?;
        for (what, price) in [
            ("rebuy", spec.rebuy),
            ("add_on.price", spec.add_on.map(|a| a.price)),
        ] {
            if price.is_some_and(|p| p == 0 || p > 100_000_000_000) {
                return Err(invalid(format!(
                    "`{what}` is 1 cent to 1,000,000,000 euros (in cents)"
                )));
            }
        }
        if spec
            .add_on
            .is_some_and(|a| a.chips == 0 || a.chips > super::tables::MAX_CHIPS / 10_000)
        {
            return Err(invalid(format!(
                "an add-on of 1 to {} chips",
                super::tables::MAX_CHIPS / 10_000
            )));
        }
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
            buy_in: Price {
                amount: spec.buy_in,
                fee_percent: fee,
            },
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
        Ok(Tour {
            id,
            ledger: Ledger::under(terms.clone(), ruleset),
            terms,
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
            marks: BTreeMap::new(),
            made: Vec::new(),
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
    pub fn version(&self) -> &Version {
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

    /// The rulings made since the last call, for the journal.
    pub fn take_made(&mut self) -> Vec<Made> {
        std::mem::take(&mut self.made)
    }

    /// The person (index) whose token has digest `token` (`auth::digest`).
    pub fn person_of_token(&self, token: &str) -> Option<usize> {
        self.people
            .iter()
            .position(|p| crate::serve::auth::same(&p.token, token))
    }

    /// The table number and seat (from 1) where person `p` plays now.
    pub fn seat_of_person(&self, p: usize) -> Option<(u32, usize)> {
        let rt = self.runtime.as_ref()?;
        let entry = self.live_entry(p)?;
        rt.locate(entry).map(|(t, s)| (rt.tables[t].number, s + 1))
    }

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

    /// The level (from 1) a hand dealt now is played at (on a break: the level before it).
    fn level_now(&self) -> u32 {
        match &self.runtime {
            None => 1,
            Some(rt) => match rt.clock().position() {
                ClockPosition::Level { index, .. } => index as u32 + 1,
                ClockPosition::Break { after, .. } => after as u32 + 1,
            },
        }
    }

    /// Applies a command at `at_ms` (the daemon's clock, journaled with it). On error the
    /// caller puts the tournament back as it was.
    pub fn apply(&mut self, op: &Op, at_ms: i64) -> Result<Done, TableError> {
        let mut done = Done::default();
        if matches!(self.status, Status::Finished | Status::Cancelled) {
            return Err(refused(format!("tournament {} is over", self.id)));
        }
        match op {
            Op::Create { .. } => return Err(invalid("the tournament exists")),
            Op::Register { name, token } => match self.register(name, token)? {
                Ok(entry) => done.entry = Some(entry),
                Err(r) => done.refused = Some(r),
            },
            Op::ReEnter { player } => match self.re_enter(*player)? {
                Ok(entry) => done.entry = Some(entry),
                Err(r) => done.refused = Some(r),
            },
            Op::Purchase { player, add_on } => match self.purchase(*player, *add_on)? {
                Ok(p) => done.purchase = Some(p),
                Err(r) => done.refused = Some(r),
            },
            Op::Start => self.start(at_ms)?,
            Op::Act {
                table,
                seat,
                action,
            } => {
                self.playing_table(*table)?.act(*seat, *action)?;
                self.after_hand(at_ms)?;
            }
            Op::Event { table, event } => {
                done.ruling = Some(self.playing_table(*table)?.event(event)?);
                self.after_hand(at_ms)?;
            }
            Op::Deal => {
                if self.status != Status::Running {
                    return Err(refused("the tournament has not started"));
                }
                if self.round.is_some() {
                    return Err(refused(format!("round {} is being played", self.rounds)));
                }
                self.feed_clock(at_ms);
                if !self.deal(at_ms)? {
                    return Err(refused(self.break_message()));
                }
            }
            Op::Clock { seconds } => {
                if *seconds > 86_400 * 7 {
                    return Err(invalid("at most a week of clock at a time"));
                }
                if self.runtime.is_none() {
                    return Err(refused("the tournament has not started"));
                }
                self.feed_clock(at_ms);
                if let Some(rt) = self.runtime.as_mut() {
                    rt.elapse(*seconds);
                }
                if self.round.is_none() {
                    self.deal(at_ms)?;
                }
            }
            Op::Void {
                point,
                citation,
                why,
                table,
            } => {
                let point = floor_engine::rules::registry::get(point)
                    .map_or("online.communication_failure", |p| p.id);
                let citation = citation
                    .as_deref()
                    .map_or(Citation::NotRegulated, |c| Citation::Article(c.into()));
                self.playing_table(*table)?.void(point, citation, why)?;
                self.after_hand(at_ms)?;
            }
            Op::Cancel => {
                let citation = self
                    .version
                    .ruleset
                    .resolve("governance.final_authority")
                    .map_or(Citation::NotRegulated, |r| {
                        Citation::Article(r.binding.citation.clone().into())
                    });
                for t in self.tables.values_mut() {
                    if t.in_hand() {
                        t.void(
                            "governance.final_authority",
                            citation.clone(),
                            "the tournament direction cancelled the tournament",
                        )?;
                    }
                }
                self.round = None;
                self.status = Status::Cancelled;
            }
        }
        self.collect();
        Ok(done)
    }

    fn playing_table(&mut self, number: u32) -> Result<&mut Table, TableError> {
        if self.status != Status::Running {
            return Err(refused("the tournament is not being played"));
        }
        let id = self.id.clone();
        self.tables
            .get_mut(&number)
            .ok_or_else(|| invalid(format!("tournament {id} has no table {number}")))
    }

    /// A registration: before the start, an entry; once under way, a late entry the runtime
    /// seats only inside the announced window (`Ok(Err(..))`: refused by the ruleset, nothing
    /// changed but the ruling).
    fn register(&mut self, name: &str, token: &str) -> Result<Result<u32, Refusal>, TableError> {
        if name.trim().is_empty() {
            return Err(invalid("a player needs a name"));
        }
        if self.people.iter().any(|p| p.name == name) {
            return Err(refused(format!("{name} is registered already")));
        }
        let person = self.people.len();
        let level = self.level_now();
        let late = self.status == Status::Running;
        self.people.push(Person {
            name: name.to_string(),
            token: token.to_string(),
        });
        if !late {
            self.ledger
                .register(self.version.rules.as_ref(), person as u32 + 1, level, false)
                .map_err(|e| refused(e.to_string()))?;
            self.entries.push(person);
            return Ok(Ok(self.entries.len() as u32));
        }
        let entry = match self.enter_late(person, "late_registrant")? {
            Ok(entry) => entry,
            Err(r) => {
                self.people.pop();
                return Ok(Err(r));
            }
        };
        // The money: the ledger records the entry the runtime's window let in.
        self.ledger
            .register(self.version.rules.as_ref(), person as u32 + 1, level, true)
            .map_err(|e| refused(e.to_string()))?;
        Ok(Ok(entry))
    }

    /// A re-entry by a player who is out, seated by the runtime only inside the announced
    /// window (`Ok(Err(..))`: refused by the ruleset, nothing changed but the ruling).
    fn re_enter(&mut self, player: usize) -> Result<Result<u32, Refusal>, TableError> {
        let person = player
            .checked_sub(1)
            .filter(|&p| p < self.people.len())
            .ok_or_else(|| invalid(format!("there is no player {player}")))?;
        if self.status != Status::Running {
            return Err(refused(
                "re-entries are bought once the tournament is under way",
            ));
        }
        if self.live_entry(person).is_some() {
            return Err(refused(format!(
                "{} is still playing: a re-entry is for a player who is out",
                self.people[person].name
            )));
        }
        let level = self.level_now();
        let entry = match self.enter_late(person, "reentry")? {
            Ok(entry) => entry,
            Err(r) => return Ok(Err(r)),
        };
        self.ledger
            .re_enter(self.version.rules.as_ref(), person as u32 + 1, level, 0)
            .map_err(|e| refused(e.to_string()))?;
        Ok(Ok(entry))
    }

    /// A late entrant or re-entry: the runtime asks the ruleset whether its announced window
    /// is open (the ruling recorded either way) and seats them at one of the shortest tables;
    /// the table takes them at once, dealt in from its next hand.
    fn enter_late(
        &mut self,
        person: usize,
        category: &str,
    ) -> Result<Result<u32, Refusal>, TableError> {
        let next = self.entries.len() as u64 + 1;
        let seed = self.seed();
        let rt = self
            .runtime
            .as_mut()
            .ok_or_else(|| refused("the tournament has not started"))?;
        let entry = match rt.late_entry(category, &mut mix(seed, 3, next)) {
            Ok(entry) => entry,
            Err(RuntimeError::EntryRefused {
                what,
                why,
                citation,
            }) => {
                let point = rt.rulings().last().map(|r| r.point.clone());
                return Ok(Err(Refusal {
                    point: point.unwrap_or_default(),
                    what,
                    why,
                    citation,
                }));
            }
            Err(e) => return Err(refused(e.to_string())),
        };
        self.entries.push(person);
        if entry as usize != self.entries.len() {
            return Err(refused(format!(
                "entry numbers out of step ({entry} for the {}th entry)",
                self.entries.len()
            )));
        }
        self.late_marks.push(rt.finishes.len());
        let (t, s) = rt
            .locate(entry)
            .ok_or_else(|| refused(format!("entry {entry} was not seated")))?;
        let number = rt.tables[t].number;
        let seat = Seat {
            name: self.people[person].name.clone(),
            stack: self.spec.starting_stack,
            token: self.people[person].token.clone(),
        };
        match self.tables.get_mut(&number) {
            Some(table) => table.seat_between(s, seat)?,
            None => return Err(refused(format!("table {number} is not open"))),
        }
        Ok(Ok(entry))
    }

    /// A rebuy or add-on (`add_on`) for a player still in: the money ledger asks the
    /// ruleset (`tournament.modality.rebuy_addon`; a freeze-out's `tournament.modality.
    /// freeze_out` refuses both) and records where the money goes; the runtime adds the chips
    /// to his stack and to the chips in play ([`Runtime::add_chips`]), and his table's seat
    /// with them. The ruleset's refusal (`Ok(Err(..))`) is recorded and changes nothing else.
    /// What it allows is paid at once; its chips are added between hands only: at once when
    /// his table is not playing a hand of the round, else queued and added at the start of his
    /// next hand, before its deal ([`Tour::add_queued`]). pt-tournament Art. 27º (inherited by
    /// pt-solverde-chaves-2023): a player may not miss a hand, and one who declares a rebuy
    /// plays the hand with the chips he holds — reading: a purchase made while his hand is
    /// played is such a declaration for that hand, so its chips join at his next hand.
    fn purchase(
        &mut self,
        player: usize,
        add_on: bool,
    ) -> Result<Result<Purchase, Refusal>, TableError> {
        let person = player
            .checked_sub(1)
            .filter(|&p| p < self.people.len())
            .ok_or_else(|| invalid(format!("there is no player {player}")))?;
        if self.status != Status::Running {
            return Err(refused(
                "rebuys and add-ons are bought once the tournament is under way",
            ));
        }
        let name = self.people[person].name.clone();
        let entry = self.live_entry(person).ok_or_else(|| {
            refused(format!(
                "{name} is out: a rebuy or add-on is for a player still in (a player who is out buys a re-entry)"
            ))
        })?;
        let rt = self
            .runtime
            .as_ref()
            .ok_or_else(|| refused("the tournament has not started"))?;
        let (t, s) = rt
            .locate(entry)
            .ok_or_else(|| refused(format!("entry {entry} is not seated")))?;
        let number = rt.tables[t].number;
        let level = self.level_now();
        let point = match self.terms.modality {
            Money::FreezeOut => "tournament.modality.freeze_out",
            _ => "tournament.modality.rebuy_addon",
        };
        let bought = self
            .ledger
            .rebuy(
                self.version.rules.as_ref(),
                person as u32 + 1,
                level,
                add_on,
            )
            .cloned();
        let what = if add_on { "add_on" } else { "rebuy" };
        let ruling = |outcome: &str, citation: &str, text: String| EventRuling {
            point: point.to_string(),
            ruleset: self.version.rules.ruleset().clone(),
            citation: if citation == Citation::NotRegulated.to_string() {
                Citation::NotRegulated
            } else {
                Citation::Article(citation.into())
            },
            outcome: outcome.to_string(),
            fields: [
                ("player".to_string(), player.to_string()),
                ("entry".to_string(), entry.to_string()),
                ("purchase".to_string(), what.to_string()),
            ]
            .into_iter()
            .collect(),
            text,
        };
        let receipt = match bought {
            Ok(r) => r,
            Err(e) => {
                let r = ruling("refused", &e.citation, e.to_string());
                if let Some(rt) = self.runtime.as_mut() {
                    rt.note(r);
                }
                return Ok(Err(Refusal {
                    point: point.into(),
                    what: e.what,
                    why: e.why,
                    citation: e.citation,
                }));
            }
        };
        // Chips join a stack between hands only: while his table's hand of the round is being
        // played (or waits for the round's other tables), they wait for his next hand.
        let playing = self
            .round
            .as_ref()
            .filter(|round| round.plan.hands.iter().any(|h| h.table == number))
            .map(|round| round.number);
        let r = ruling(
            "allowed",
            &receipt.citation,
            format!(
                "{name} buys a{} {} of {} chips for {} cents ({} to the prize pool, {} fee){}",
                if add_on { "n" } else { "" },
                if add_on { "add-on" } else { "rebuy" },
                receipt.chips,
                receipt.paid,
                receipt.to_pool,
                receipt.fee,
                if playing.is_some() {
                    "; the chips are added at the start of his next hand"
                } else {
                    ""
                }
            ),
        );
        if let Some(round) = playing {
            let when = self.when_queued(&name, add_on, receipt.chips, number, round);
            let stack = rt.tables[t].seats[s].as_ref().map_or(0, |x| x.chips);
            let rt = self
                .runtime
                .as_mut()
                .ok_or_else(|| refused("the tournament has not started"))?;
            rt.note(r);
            rt.note(EventRuling {
                point: when.point.clone(),
                ruleset: self.version.rules.ruleset().clone(),
                citation: if when.citation == Citation::NotRegulated.to_string() {
                    Citation::NotRegulated
                } else {
                    Citation::Article(when.citation.clone().into())
                },
                outcome: "queued".into(),
                fields: [
                    ("player".to_string(), player.to_string()),
                    ("entry".to_string(), entry.to_string()),
                    ("chips".to_string(), receipt.chips.to_string()),
                ]
                .into_iter()
                .collect(),
                text: when.text.clone(),
            });
            self.queued.push(Queued {
                entry,
                chips: receipt.chips,
            });
            return Ok(Ok(Purchase {
                player,
                entry,
                stream: what.into(),
                paid: receipt.paid,
                fee: receipt.fee,
                to_pool: receipt.to_pool,
                chips: receipt.chips,
                stack,
                point: point.into(),
                citation: receipt.citation,
                applies: "next_hand",
                when: Some(when),
            }));
        }
        let rt = self
            .runtime
            .as_mut()
            .ok_or_else(|| refused("the tournament has not started"))?;
        rt.note(r);
        rt.add_chips(entry, receipt.chips)
            .map_err(|e| refused(e.to_string()))?;
        let stack = rt.tables[t].seats[s].as_ref().map_or(0, |x| x.chips);
        self.tables
            .get_mut(&number)
            .ok_or_else(|| refused(format!("table {number} is not open")))?
            .add_to_stack(s, receipt.chips)?;
        Ok(Ok(Purchase {
            player,
            entry,
            stream: what.into(),
            paid: receipt.paid,
            fee: receipt.fee,
            to_pool: receipt.to_pool,
            chips: receipt.chips,
            stack,
            point: point.into(),
            citation: receipt.citation,
            applies: "now",
            when: None,
        }))
    }

    /// The ruling on when a purchase made during the player's hand applies: under
    /// `tournament.rebuy.declaration` (pt-tournament Art. 27º, inherited by
    /// pt-solverde-chaves-2023; br-adtp-2012 rule 23) with the binding's article, or *not
    /// regulated by this text* where the ruleset does not bind it (ao-tournament-2025, whose
    /// Art. 23–29 are missing). The ruling is the engine's own (when chips can join a stack),
    /// not the point's decision, which rules on a declaration made before a hand.
    fn when_queued(&self, name: &str, add_on: bool, chips: Chips, table: u32, round: u64) -> When {
        let point = "tournament.rebuy.declaration";
        let citation = self
            .version
            .ruleset
            .resolve(point)
            .map_or(Citation::NotRegulated.to_string(), |r| {
                r.binding.citation.clone()
            });
        When {
            point: point.into(),
            citation,
            text: format!(
                "{name} bought a{} {} while his hand of round {round} is played at table {table}: he plays that hand with the chips he holds, and the {chips} chips are added to his stack at the start of his next hand, before the deal",
                if add_on { "n" } else { "" },
                if add_on { "add-on" } else { "rebuy" },
            ),
        }
    }

    /// Adds the queued purchases' chips once the round's hands are over, before the runtime
    /// settles the round and the next one is dealt: to the runtime's stack and chips in play,
    /// and to the finishing stack `results` give the player's hand (so a player who lost
    /// every chip in that hand is not out: the rebuy he paid for keeps him in, Art. 27º's
    /// "obliged to rebuy"), and to his seat at the daemon's table.
    fn add_queued(
        &mut self,
        plan: &RoundPlan,
        results: &mut [HandResult],
    ) -> Result<(), TableError> {
        for q in std::mem::take(&mut self.queued) {
            let rt = self
                .runtime
                .as_mut()
                .ok_or_else(|| refused("the tournament has not started"))?;
            let (t, s) = rt
                .locate(q.entry)
                .ok_or_else(|| refused(format!("entry {} is not seated", q.entry)))?;
            let number = rt.tables[t].number;
            let hand = plan
                .hands
                .iter()
                .position(|h| h.table == number)
                .map(|i| (i, &plan.hands[i]));
            if let Some((i, hand)) = hand {
                if let (Some(HandResult::Played(after)), Some(k)) = (
                    results.get_mut(i),
                    hand.positions.dealt.iter().position(|&d| d == s),
                ) {
                    if let Some(stack) = after.get_mut(k) {
                        *stack += q.chips;
                    }
                }
            }
            rt.add_chips(q.entry, q.chips)
                .map_err(|e| refused(e.to_string()))?;
            // The daemon's table shows it at once; the next deal lays every seat out again
            // from the runtime in any case.
            if let Some(table) = self.tables.get_mut(&number) {
                let _ = table.add_to_stack(s, q.chips);
            }
        }
        Ok(())
    }

    fn seed(&self) -> u64 {
        self.spec.seed.unwrap_or(0)
    }

    fn start(&mut self, at_ms: i64) -> Result<(), TableError> {
        if self.status != Status::Registering {
            return Err(refused("the tournament has started already"));
        }
        let count = self.entries.len();
        if count < 2 {
            return Err(refused(format!(
                "a tournament needs two players, {count} registered"
            )));
        }
        let list = self.payout_list()?;
        let setup = Self::setup_for(
            &self.spec,
            self.spec.structure.structure()?,
            list.len() as u32,
        );
        let mut rt =
            Runtime::new(setup, self.version.rules.clone()).map_err(|e| invalid(e.to_string()))?;
        rt.start(count, &mut mix(self.seed(), 1, 0))
            .map_err(|e| refused(e.to_string()))?;
        // The windows the direction announced: from now on every late entry and re-entry is
        // asked of the ruleset (`tournament.late_registration`, `tournament.reentry`).
        rt.announce_entry_windows(EntryWindows {
            late_registration_until_level: self.spec.late_registration_until_level,
            re_entries: self.spec.re_entries,
        });
        self.runtime = Some(rt);
        self.status = Status::Running;
        self.clock_ms = at_ms;
        if !self.deal(at_ms)? {
            return Err(refused(self.break_message()));
        }
        Ok(())
    }

    fn break_message(&self) -> String {
        match self.runtime.as_ref().map(|r| r.clock().position()) {
            Some(ClockPosition::Break { seconds_left, .. }) => {
                format!("on a break: {seconds_left} seconds left (POST .../clock lets time pass)")
            }
            _ => "no hand can be dealt now".into(),
        }
    }

    /// The prize pool from the entries so far.
    pub fn pool(&self) -> PrizePool {
        let totals = self.ledger.totals();
        PrizePool {
            entries: self.ledger.counted_entries(),
            buy_in: self.terms.buy_in.amount,
            fee_percent: self.terms.buy_in.fee_percent,
            fee_per_entry: self.terms.buy_in.fee(),
            fee: totals.fee,
            prize_pool: totals.prize_pool,
        }
    }

    /// The payout list from the entries so far, 1st place first, summing to the pool.
    pub fn payout_list(&self) -> Result<Vec<Payout>, TableError> {
        payouts(
            &self.payout_table.0,
            &self.pool(),
            self.spec.seats_per_table == 6,
            &self.payout_table.1,
        )
        .map_err(|e| refused(e.to_string()))
    }

    /// Feeds the wall-clock time since the last reading into the level clock (only when the
    /// tournament follows the wall clock; hand-for-hand the ruleset counts time per hand).
    fn feed_clock(&mut self, at_ms: i64) {
        if self.spec.seconds_per_round.is_some() {
            return;
        }
        let Some(rt) = self.runtime.as_mut() else {
            return;
        };
        let seconds = (at_ms - self.clock_ms).max(0) / 1000;
        if rt.hand_for_hand() {
            self.clock_ms = at_ms;
        } else if seconds > 0 {
            rt.elapse(seconds as u64);
            self.clock_ms += seconds * 1000;
        }
    }

    /// Balances the tables and deals a round. `false`: on a break, nothing dealt.
    fn deal(&mut self, _at_ms: i64) -> Result<bool, TableError> {
        let seed = self.seed();
        let round = self.rounds + 1;
        let Some(rt) = self.runtime.as_mut() else {
            return Ok(false);
        };
        if rt.players_left() < 2 {
            return Ok(false);
        }
        rt.balance(&mut mix(seed, 2, round));
        let Some(plan) = rt.plan_round() else {
            return Ok(false);
        };
        self.collect_tables();
        let Some(rt) = self.runtime.as_ref() else {
            return Ok(false);
        };
        // The daemon's tables follow the runtime's: broken tables go, new ones open, every
        // seat as the runtime has it.
        let numbers: Vec<u32> = rt.tables.iter().map(|t| t.number).collect();
        self.tables.retain(|n, _| numbers.contains(n));
        for t in &rt.tables {
            let seats: Vec<Option<Seat>> = t
                .seats
                .iter()
                .map(|s| {
                    s.as_ref().and_then(|s| {
                        let person = *self.entries.get(s.player as usize - 1)?;
                        let p = self.people.get(person)?;
                        Some(Seat {
                            name: p.name.clone(),
                            stack: s.chips,
                            token: p.token.clone(),
                        })
                    })
                })
                .collect();
            let id = format!("{}.{}", self.id, t.number);
            let table = self.tables.entry(t.number).or_insert_with(|| {
                Table::for_tournament(id, self.spec.ruleset.clone(), t.seats.len())
            });
            table.set_seats(seats)?;
            table.spec.blinds = (plan.level.small_blind, plan.level.big_blind);
            table.spec.ante = plan.level.ante;
        }
        self.rounds = round;
        for hand in &plan.hands {
            let table = self
                .tables
                .get_mut(&hand.table)
                .ok_or_else(|| refused(format!("table {} is not open", hand.table)))?;
            let deck = rand::Rng::random::<u64>(&mut mix(seed, 4 + u64::from(hand.table), round));
            table.start_planned_hand(
                &self.version,
                deck,
                hand.config.clone(),
                hand.positions.dealt.clone(),
                hand.positions.button,
            )?;
        }
        self.round = Some(InPlay {
            number: round,
            plan,
        });
        self.after_hand(_at_ms)?;
        Ok(true)
    }

    /// After a hand changed: once every hand of the round is over, the runtime finishes the
    /// round (places, clock, hand-for-hand) and the next one is dealt.
    fn after_hand(&mut self, at_ms: i64) -> Result<(), TableError> {
        let Some(round) = &self.round else {
            return Ok(());
        };
        let mut results = Vec::new();
        for hand in &round.plan.hands {
            match self.tables.get(&hand.table).and_then(Table::hand_outcome) {
                None => return Ok(()),
                Some(None) => results.push(HandResult::Void),
                Some(Some(stacks)) => results.push(HandResult::Played(stacks)),
            }
        }
        let Some(InPlay { plan, .. }) = self.round.take() else {
            return Ok(());
        };
        self.add_queued(&plan, &mut results)?;
        let seconds = match self.spec.seconds_per_round {
            Some(s) => s,
            None => {
                let s = (at_ms - self.clock_ms).max(0) / 1000;
                self.clock_ms += s * 1000;
                s as u64
            }
        };
        let rt = self
            .runtime
            .as_mut()
            .ok_or_else(|| refused("the tournament has not started"))?;
        rt.finish_round(&plan, &results, seconds)
            .map_err(|e| refused(e.to_string()))?;
        if rt.players_left() <= 1 {
            self.status = Status::Finished;
            return Ok(());
        }
        self.deal(at_ms)?;
        Ok(())
    }

    /// Records the rulings made since the last call (tournament and tables) for the journal.
    fn collect(&mut self) {
        if let Some(rt) = &self.runtime {
            for r in &rt.rulings()[self.seen.min(rt.rulings().len())..] {
                self.made.push(Made {
                    table: self.id.clone(),
                    hand: self.rounds,
                    point: r.point.clone(),
                    ruleset: r.ruleset.id.to_string(),
                    version: r.ruleset.version.to_string(),
                    citation: r.citation.to_string(),
                    text: r.text.clone(),
                });
            }
            self.seen = rt.rulings().len();
        }
        self.collect_tables();
    }

    /// Records the tables' rulings made since the last call (before a new hand replaces
    /// the last one's).
    fn collect_tables(&mut self) {
        for (n, t) in &self.tables {
            let from = match self.marks.get(n) {
                Some(&(hand, count)) if hand == t.hand_number() => count,
                _ => 0,
            };
            for r in t.rulings_since(from) {
                self.made.push(Made {
                    table: t.id.clone(),
                    hand: r.hand,
                    point: r.ruling.point.to_string(),
                    ruleset: r.ruling.ruleset.id.to_string(),
                    version: r.ruling.ruleset.version.to_string(),
                    citation: r.ruling.citation.to_string(),
                    text: r.ruling.text(),
                });
            }
        }
        self.marks = self
            .tables
            .iter()
            .map(|(n, t)| (*n, (t.hand_number(), t.rulings_count())))
            .collect();
    }

    /// The tables with a hand in progress (for voiding after a crash).
    pub fn tables_in_hand(&self) -> Vec<u32> {
        self.tables
            .iter()
            .filter(|(_, t)| t.in_hand())
            .map(|(n, _)| *n)
            .collect()
    }

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
            .map_or_else(String::new, |p| p.name.clone())
    }

    /// The tournament as `viewer` may see it; `person` is the caller's own player (index),
    /// whose seat shows their cards.
    pub fn view(&self, viewer: Viewer, person: Option<usize>) -> TournamentView {
        let rt = self.runtime.as_ref();
        let (level, on_break) = match rt.map(|r| r.clock().position()) {
            Some(ClockPosition::Break { seconds_left, .. }) => (None, Some(seconds_left)),
            Some(ClockPosition::Level {
                index,
                seconds_left,
            }) => {
                let l = &self
                    .runtime
                    .as_ref()
                    .map(|r| r.clock().structure().levels[index].clone());
                (
                    l.clone().map(|l| LevelView {
                        number: index + 1,
                        small_blind: l.small_blind,
                        big_blind: l.big_blind,
                        ante: l.ante,
                        seconds_left,
                    }),
                    None,
                )
            }
            None => (None, None),
        };
        let own = person.and_then(|p| self.seat_of_person(p));
        let tables = self
            .tables
            .iter()
            .map(|(n, t)| {
                let v = match (viewer, own) {
                    (Viewer::Seat(_), Some((table, seat))) if table == *n => Viewer::Seat(seat - 1),
                    (Viewer::Seat(_), _) => Viewer::Public,
                    (v, _) => v,
                };
                TableInView {
                    number: *n,
                    table: t.view(v),
                }
            })
            .collect();
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
                name: self.people[p].name.clone(),
                table: at.map(|a| a.0),
                seat: at.map(|a| a.1),
                chips: at.map(|a| a.2),
            });
        }
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
            ruleset: self.version.ruleset.id().to_string(),
            version: self.version.ruleset.version().to_string(),
            hash: self.version.hash.clone(),
            status: self.status,
            modality: self.spec.modality,
            seats_per_table: self.spec.seats_per_table,
            starting_stack: self.spec.starting_stack,
            level,
            break_seconds_left: on_break,
            hand_for_hand: rt.is_some_and(Runtime::hand_for_hand),
            round: self.rounds,
            round_in_play: self.round.as_ref().map(|r| r.number),
            hands: rt.map_or(0, Runtime::hands_played),
            entries: self.entries.len() as u32,
            players_left: rt.map_or(self.entries.len() as u32, Runtime::players_left),
            chips: ChipsView {
                in_play: rt.map_or(0, Runtime::chips_in_play),
                at_tables: self.tables.values().map(Table::chips).sum(),
                queued: self.queued.iter().map(|q| q.chips).sum(),
            },
            money: MoneyView {
                buy_in: self.terms.buy_in.amount,
                fee_percent: self.terms.buy_in.fee_percent,
                paid_in: totals.paid_in,
                fee: totals.fee,
                prize_pool: pool.prize_pool,
                payouts: self.payout_list().unwrap_or_default(),
                payouts_citation: self.payout_table.1.clone(),
                refunds,
            },
            places: self.places(),
            players,
            tables,
            you: person.map(|p| p + 1),
            rulings,
        }
    }
}

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
}

/// A table of the tournament.
#[derive(Clone, Debug, Serialize)]
pub struct TableInView {
    /// Its number.
    pub number: u32,
    /// The table as this viewer may see it.
    pub table: TableView,
}

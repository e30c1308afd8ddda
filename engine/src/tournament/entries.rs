//! Entries and purchases: registration, late registration, re-entries, rebuys, add-ons,
//! Multistack day-2 entries, bounties and Xtrastacks — who paid what, what the house keeps,
//! and where every cent goes (rule points `tournament.prize_pool`, `tournament.reentry`,
//! `tournament.modality.rebuy_addon`, `tournament.xtrastack`, `tournament.modality.*`).
//!
//! The [`Ledger`] records every purchase as a [`Receipt`] split into four destinations: the
//! fee (the house), the prize pool, bounties (outside the pool, Solverde §3.1.3) and the
//! Xtrastack fund (the quarterly final, §3.1.13, §9.3). `paid = fee + to_pool + bounty +
//! to_fund` holds for each receipt, so money is conserved by construction and checked again
//! by the result (see [`super::result`]).
//!
//! What the announced terms say ([`Terms`]) is the organiser's: the texts leave the price,
//! the fee within its bounds, the number of rebuys and the windows to the tournament direction
//! (Solverde §3.1.2.1, §3.1.2.2, §4.2, §6.1, §3.1.12). What the texts fix is asked of the
//! ruleset: whether the modality allows rebuys at all, the add-on's minimum size, the
//! Xtrastack window, whether a re-entry may be bought — each refusal cites its article.

use super::ask::{ask, flag, int, regulated, text};
use super::Cents;
use crate::rules::Rules;
use crate::Chips;
use serde::{Deserialize, Serialize};

/// The tournament's format, as far as money is concerned (Solverde §3.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Modality {
    /// §3.1.1: no rebuy, no add-on.
    FreezeOut,
    /// §3.1.2: rebuys as announced, one add-on of at least the starting stack.
    RebuyAddOn,
    /// §3.1.3: a fixed bounty on top of the entry, paid to the eliminator, outside the pool;
    /// no rebuys nor add-ons (§3.1.3.2).
    KnockoutBounty,
    /// §3.1.4: the pool becomes seats of the target event's buy-in.
    Satellite {
        /// The target event's buy-in: the value of one seat.
        target_buy_in: Cents,
    },
    /// §3.1.9: ends at the money, equal shares.
    Survivor,
    /// §3.1.10: day-1 entries and day-2 direct entries, one pool.
    Multistack,
}

/// A price with its fee, in whole percent of the price (Solverde §4.3, §3.1.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Price {
    /// What the player pays, fee included.
    pub amount: Cents,
    /// The fee deducted from it, in whole percent.
    pub fee_percent: u32,
}

impl Price {
    /// The fee on this price, rounded down to the cent (as [`super::prize_pool`] does).
    pub fn fee(&self) -> Cents {
        (u128::from(self.amount) * u128::from(self.fee_percent.min(100)) / 100) as Cents
    }
}

/// What the organiser announced before the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// The format.
    pub modality: Modality,
    /// The entry (also a late registration's and a re-entry's price).
    pub buy_in: Price,
    /// Starting stack, in chips (an add-on must give at least this many under Solverde §3.1.2).
    pub starting_stack: Chips,
    /// The rebuy price, when rebuys are offered.
    #[serde(default)]
    pub rebuy: Option<Price>,
    /// Most rebuys per player (`None`: as many as the window allows).
    #[serde(default)]
    pub max_rebuys: Option<u32>,
    /// The add-on price and its chips, when offered.
    #[serde(default)]
    pub add_on: Option<(Price, Chips)>,
    /// The last level at which late registration (and re-entry) is open; `None`: no late
    /// registration.
    #[serde(default)]
    pub late_registration_until_level: Option<u32>,
    /// Re-entries announced (pt-tournament Art. 7º(2): only "where announced").
    #[serde(default)]
    pub re_entries_allowed: bool,
    /// The bounty added to each entry (knockout bounty).
    #[serde(default)]
    pub bounty: Cents,
    /// The Xtrastack price and its chips, when offered (§3.1.11, §3.1.12).
    #[serde(default)]
    pub xtrastack: Option<(Cents, Chips)>,
    /// Multistack day-2 direct entries: three options of price and chips (§3.1.10).
    #[serde(default)]
    pub day_two_options: Vec<(Price, Chips)>,
}

/// What a purchase is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stream {
    /// A registration before the start.
    Entry,
    /// A registration during the late-registration window.
    LateEntry,
    /// A new stack bought by a player giving up (or having lost) his own.
    ReEntry,
    /// A rebuy.
    Rebuy,
    /// The add-on.
    AddOn,
    /// A Multistack day-2 direct entry (option 0, 1 or 2).
    DayTwoEntry,
    /// An Xtrastack.
    Xtrastack,
}

impl Stream {
    /// The rule point that governs this stream.
    pub fn point(self) -> &'static str {
        match self {
            Stream::Entry => "tournament.buy_in_and_fee",
            Stream::LateEntry => "tournament.late_registration",
            Stream::ReEntry => "tournament.reentry",
            Stream::Rebuy | Stream::AddOn => "tournament.modality.rebuy_addon",
            Stream::DayTwoEntry => "tournament.modality.multistack",
            Stream::Xtrastack => "tournament.xtrastack",
        }
    }

    /// Whether it counts as an entry for the payout table's band and places (Solverde §7.4
    /// counts paid entries plus re-entries; late registrations and day-2 entries are paid
    /// entries).
    pub fn counts_as_entry(self) -> bool {
        matches!(
            self,
            Stream::Entry | Stream::LateEntry | Stream::ReEntry | Stream::DayTwoEntry
        )
    }
}

/// One purchase, with where its money went. `paid = fee + to_pool + bounty + to_fund`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Receipt {
    /// Who (the caller's player number).
    pub player: u32,
    /// What.
    pub stream: Stream,
    /// The level at which it was bought.
    pub level: u32,
    /// Paid in all.
    pub paid: Cents,
    /// Kept by the house.
    pub fee: Cents,
    /// Into the prize pool.
    pub to_pool: Cents,
    /// Into the bounty on the player's head (paid to his eliminator, outside the pool).
    pub bounty: Cents,
    /// Into the Xtrastack fund of the quarterly final.
    pub to_fund: Cents,
    /// Chips received.
    pub chips: Chips,
    /// The article that allowed it (or *not regulated by this text*).
    pub citation: String,
}

/// A purchase refused, with the article that refuses it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} refused: {why} ({citation})")]
pub struct Refused {
    /// What was asked for.
    pub what: String,
    /// Why not.
    pub why: String,
    /// The article, or *not regulated by this text*.
    pub citation: String,
}

/// What a ruleset's `tournament.modality.rebuy_addon` value fixes about add-ons (Solverde
/// §3.1.2: a single add-on of at least the starting stack).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AddOnRules {
    /// Add-ons per player (`add_ons_per_player`).
    pub per_player: Option<u32>,
    /// The smallest add-on, in starting stacks (`add_on_min_starting_stacks`).
    pub min_starting_stacks: Option<u64>,
    /// The article.
    pub citation: String,
}

/// Every purchase of one tournament, in order.
#[derive(Clone, Debug, Serialize)]
pub struct Ledger {
    /// The announced terms.
    pub terms: Terms,
    /// The ruleset's add-on rules, when it fixes any.
    pub add_on_rules: Option<AddOnRules>,
    /// The purchases.
    pub receipts: Vec<Receipt>,
}

impl Ledger {
    /// An empty ledger for `terms`, with no add-on rules of a text.
    pub fn new(terms: Terms) -> Ledger {
        Ledger {
            terms,
            add_on_rules: None,
            receipts: Vec::new(),
        }
    }

    /// An empty ledger for `terms` under `ruleset`, whose `tournament.modality.rebuy_addon`
    /// value (if any) fixes the add-ons per player and their smallest size.
    pub fn under(terms: Terms, ruleset: &crate::ruleset::Ruleset) -> Ledger {
        let add_on_rules = ruleset
            .resolve("tournament.modality.rebuy_addon")
            .and_then(|r| {
                let value = r.binding.value.as_ref()?;
                let get = |field: &str| match value {
                    ron::Value::Map(map) => map.iter().find_map(|(k, v)| match (k, v) {
                        (ron::Value::String(k), ron::Value::Number(n)) if k == field => {
                            Some(n.into_f64().max(0.0) as u64)
                        }
                        _ => None,
                    }),
                    _ => None,
                };
                Some(AddOnRules {
                    per_player: get("add_ons_per_player").map(|n| n as u32),
                    min_starting_stacks: get("add_on_min_starting_stacks"),
                    citation: r.binding.citation.clone(),
                })
            });
        Ledger {
            terms,
            add_on_rules,
            receipts: Vec::new(),
        }
    }

    /// An empty ledger for `terms` under any [`Rules`]: the add-on rules come from the
    /// `tournament.modality.rebuy_addon` value the rules bind (as [`Ledger::under`] reads it
    /// from a ruleset).
    pub fn under_rules(terms: Terms, rules: &dyn Rules) -> Ledger {
        let add_on_rules = rules.parameter("tournament.modality.rebuy_addon").map(|d| {
            let get = |field: &str| match &d.value {
                ron::Value::Map(map) => map.iter().find_map(|(k, v)| match (k, v) {
                    (ron::Value::String(k), ron::Value::Number(n)) if k == field => {
                        Some(n.into_f64().max(0.0) as u64)
                    }
                    _ => None,
                }),
                _ => None,
            };
            AddOnRules {
                per_player: get("add_ons_per_player").map(|n| n as u32),
                min_starting_stacks: get("add_on_min_starting_stacks"),
                citation: d.citation.to_string(),
            }
        });
        Ledger {
            terms,
            add_on_rules,
            receipts: Vec::new(),
        }
    }

    /// How many purchases of `stream` `player` has made.
    pub fn count(&self, player: u32, stream: Stream) -> u32 {
        self.receipts
            .iter()
            .filter(|r| r.player == player && r.stream == stream)
            .count() as u32
    }

    /// Entries counted for the payout table: paid entries (late and day-2 included) plus
    /// re-entries.
    pub fn counted_entries(&self) -> u32 {
        self.receipts
            .iter()
            .filter(|r| r.stream.counts_as_entry())
            .count() as u32
    }

    /// Purchases of one stream.
    pub fn total(&self, stream: Stream) -> u32 {
        self.receipts.iter().filter(|r| r.stream == stream).count() as u32
    }

    /// A registration before the start (`late` false) or during late registration. A late
    /// one asks `tournament.late_registration` whether the window is open at `level`.
    pub fn register(
        &mut self,
        rules: &dyn Rules,
        player: u32,
        level: u32,
        late: bool,
    ) -> Result<&Receipt, Refused> {
        let (stream, citation) = if late {
            let d = ask(
                rules,
                "tournament.late_registration",
                &[
                    ("purpose", text("window")),
                    ("level", int(level.into())),
                    (
                        "late_registration_until_level",
                        int(self
                            .terms
                            .late_registration_until_level
                            .map_or(0, u64::from)),
                    ),
                    (
                        "late_registration_announced",
                        flag(self.terms.late_registration_until_level.is_some()),
                    ),
                ],
            );
            let open = match self.terms.late_registration_until_level {
                Some(last) => level <= last,
                None => false,
            };
            let open = if regulated(&d) && d.outcome != "as_the_text_says" {
                d.outcome == "allowed"
            } else {
                open
            };
            if !open {
                return Err(Refused {
                    what: "late registration".into(),
                    why: format!("closed at level {level}: {}", d.text),
                    citation: d.citation.to_string(),
                });
            }
            (Stream::LateEntry, d.citation.to_string())
        } else {
            (Stream::Entry, String::new())
        };
        let price = self.terms.buy_in;
        let chips = self.terms.starting_stack;
        self.record(player, stream, level, price, chips, citation)
    }

    /// A re-entry: asks `tournament.reentry` (announced?, window open?, stack given up).
    pub fn re_enter(
        &mut self,
        rules: &dyn Rules,
        player: u32,
        level: u32,
        stack_left: Chips,
    ) -> Result<&Receipt, Refused> {
        let window = self.terms.late_registration_until_level;
        let d = ask(
            rules,
            "tournament.reentry",
            &[
                ("announced", flag(self.terms.re_entries_allowed)),
                ("level", int(level.into())),
                ("window_until_level", int(window.map_or(0, u64::from))),
                ("window_open", flag(window.is_some_and(|w| level <= w))),
                ("stack_left", int(stack_left)),
            ],
        );
        let allowed = if regulated(&d) && d.outcome != "as_the_text_says" {
            d.outcome == "allowed"
        } else {
            self.terms.re_entries_allowed && window.is_some_and(|w| level <= w)
        };
        if !allowed {
            return Err(Refused {
                what: "re-entry".into(),
                why: d.text,
                citation: d.citation.to_string(),
            });
        }
        let price = self.terms.buy_in;
        let chips = self.terms.starting_stack;
        self.record(
            player,
            Stream::ReEntry,
            level,
            price,
            chips,
            d.citation.to_string(),
        )
    }

    /// A rebuy (`add_on` false) or the add-on. The modality's flags come from the ruleset's
    /// PARAMETERs: `tournament.modality.freeze_out` and the knockout rule forbid both;
    /// `tournament.modality.rebuy_addon` caps add-ons per player and sets their minimum size.
    pub fn rebuy(
        &mut self,
        rules: &dyn Rules,
        player: u32,
        level: u32,
        add_on: bool,
    ) -> Result<&Receipt, Refused> {
        let what = if add_on { "add-on" } else { "rebuy" };
        // Freeze-out (§3.1.1) and knockout (§3.1.3.2) events have neither.
        let forbidding = match self.terms.modality {
            Modality::FreezeOut => Some("tournament.modality.freeze_out"),
            Modality::KnockoutBounty => Some("tournament.modality.knockout_bounty"),
            _ => None,
        };
        if let Some(point) = forbidding {
            let d = ask(rules, point, &[("purpose", text(what))]);
            return Err(Refused {
                what: what.into(),
                why: format!(
                    "a {} event has no rebuy and no add-on",
                    match self.terms.modality {
                        Modality::FreezeOut => "freeze-out",
                        _ => "knockout-bounty",
                    }
                ),
                citation: d.citation.to_string(),
            });
        }
        if add_on {
            if let Some(r) = &self.add_on_rules {
                let refuse = |why: String| Refused {
                    what: what.into(),
                    why,
                    citation: r.citation.clone(),
                };
                if let Some(max) = r.per_player {
                    if self.count(player, Stream::AddOn) >= max {
                        return Err(refuse(format!("{max} add-on(s) per player")));
                    }
                }
                if let (Some(min), Some((_, chips))) = (r.min_starting_stacks, self.terms.add_on) {
                    let least = min.saturating_mul(self.terms.starting_stack);
                    if chips < least {
                        return Err(refuse(format!(
                            "an add-on of {chips} chips is below the {least} the text requires"
                        )));
                    }
                }
            }
        }
        let d = ask(
            rules,
            "tournament.modality.rebuy_addon",
            &[
                ("purpose", text(what)),
                (
                    "modality",
                    text(match self.terms.modality {
                        Modality::FreezeOut => "freeze_out",
                        Modality::RebuyAddOn => "rebuy_addon",
                        Modality::KnockoutBounty => "knockout_bounty",
                        Modality::Satellite { .. } => "satellite",
                        Modality::Survivor => "survivor",
                        Modality::Multistack => "multistack",
                    }),
                ),
                ("already", int(self.count(player, Stream::AddOn).into())),
                ("starting_stack", int(self.terms.starting_stack)),
                (
                    "chips",
                    int(self.terms.add_on.map_or(0, |(_, chips)| chips)),
                ),
            ],
        );
        let citation = d.citation.to_string();
        let refuse = |why: String| Refused {
            what: what.into(),
            why,
            citation: citation.clone(),
        };
        // What the text says of this modality, when the ruleset's decision rules.
        if regulated(&d) && d.outcome == "refused" {
            return Err(refuse(d.text.clone()));
        }
        let (price, chips) = if add_on {
            self.terms
                .add_on
                .ok_or_else(|| refuse("no add-on was announced".into()))?
        } else {
            let price = self
                .terms
                .rebuy
                .ok_or_else(|| refuse("no rebuy was announced".into()))?;
            if let Some(max) = self.terms.max_rebuys {
                if self.count(player, Stream::Rebuy) >= max {
                    return Err(refuse(format!("the {max} rebuys announced are used up")));
                }
            }
            (price, self.terms.starting_stack)
        };
        let stream = if add_on { Stream::AddOn } else { Stream::Rebuy };
        self.record(player, stream, level, price, chips, citation)
    }

    /// A Multistack day-2 direct entry with option `option` (0, 1, 2).
    pub fn day_two_entry(
        &mut self,
        rules: &dyn Rules,
        player: u32,
        option: usize,
    ) -> Result<&Receipt, Refused> {
        let d = ask(
            rules,
            "tournament.modality.multistack",
            &[
                ("day", int(2)),
                ("option", int(option as u64)),
                ("options", int(self.terms.day_two_options.len() as u64)),
            ],
        );
        if self.terms.modality != Modality::Multistack || (regulated(&d) && d.outcome != "allowed")
        {
            return Err(Refused {
                what: "day-2 entry".into(),
                why: if self.terms.modality == Modality::Multistack {
                    d.text
                } else {
                    "only a Multistack event has day-2 direct entries".into()
                },
                citation: d.citation.to_string(),
            });
        }
        let (price, chips) = *self
            .terms
            .day_two_options
            .get(option)
            .ok_or_else(|| Refused {
                what: "day-2 entry".into(),
                why: format!("there is no stack option {}", option + 1),
                citation: d.citation.to_string(),
            })?;
        self.record(
            player,
            Stream::DayTwoEntry,
            2,
            price,
            chips,
            d.citation.to_string(),
        )
    }

    /// An Xtrastack: asks `tournament.xtrastack` (window, chips left, not in action).
    pub fn xtrastack(
        &mut self,
        rules: &dyn Rules,
        player: u32,
        level: u32,
        stack: Chips,
        in_action: bool,
    ) -> Result<&Receipt, Refused> {
        let d = ask(
            rules,
            "tournament.xtrastack",
            &[
                ("offered", flag(self.terms.xtrastack.is_some())),
                ("level", int(level.into())),
                (
                    "late_registration_until_level",
                    int(self
                        .terms
                        .late_registration_until_level
                        .map_or(0, u64::from)),
                ),
                ("stack", int(stack)),
                ("in_action", flag(in_action)),
            ],
        );
        let citation = d.citation.to_string();
        let Some((price, chips)) = self.terms.xtrastack else {
            return Err(Refused {
                what: "Xtrastack".into(),
                why: "none was announced".into(),
                citation,
            });
        };
        if !regulated(&d) || d.outcome != "allowed" {
            return Err(Refused {
                what: "Xtrastack".into(),
                why: d.text,
                citation,
            });
        }
        // All of it to the quarterly final's fund (Solverde §3.1.13): no fee, nothing to the pool.
        self.receipts.push(Receipt {
            player,
            stream: Stream::Xtrastack,
            level,
            paid: price,
            fee: 0,
            to_pool: 0,
            bounty: 0,
            to_fund: price,
            chips,
            citation,
        });
        Ok(self.receipts.last().expect("just pushed"))
    }

    /// Records a purchase at `price`: the fee off the price, the bounty (entries of a knockout
    /// event) on top of it, the rest to the pool.
    fn record(
        &mut self,
        player: u32,
        stream: Stream,
        level: u32,
        price: Price,
        chips: Chips,
        citation: String,
    ) -> Result<&Receipt, Refused> {
        let fee = price.fee();
        let bounty = match (&self.terms.modality, stream.counts_as_entry()) {
            (Modality::KnockoutBounty, true) => self.terms.bounty,
            _ => 0,
        };
        self.receipts.push(Receipt {
            player,
            stream,
            level,
            paid: price.amount + bounty,
            fee,
            to_pool: price.amount - fee,
            bounty,
            to_fund: 0,
            chips,
            citation,
        });
        Ok(self.receipts.last().expect("just pushed"))
    }

    /// The money in all.
    pub fn totals(&self) -> Totals {
        let mut t = Totals::default();
        for r in &self.receipts {
            t.paid_in += r.paid;
            t.fee += r.fee;
            t.prize_pool += r.to_pool;
            t.bounties += r.bounty;
            t.xtrastack_fund += r.to_fund;
        }
        t
    }
}

/// Sums over a ledger. `paid_in = fee + prize_pool + bounties + xtrastack_fund`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Everything the players paid.
    pub paid_in: Cents,
    /// The house's fees.
    pub fee: Cents,
    /// The prize pool.
    pub prize_pool: Cents,
    /// Bounties, outside the pool.
    pub bounties: Cents,
    /// The Xtrastack fund (quarterly final).
    pub xtrastack_fund: Cents,
}

//! Rebuys and add-ons for a player still in: the ledger asks the ruleset and records where
//! the money goes; the chips join his stack between hands only — at once when his table is
//! not playing a hand of the round, else at the start of his next hand, before its deal.
//!
//! pt-tournament Art. 27º (inherited by pt-solverde-chaves-2023): a player may not miss a
//! hand, and one who declares a rebuy plays the hand with the chips he holds — reading: a
//! purchase made while his hand is played is such a declaration for that hand, so its chips
//! join at his next hand.

use super::{citation_of, refused, Director, Purchase, Queued, Refusal, Status, When};
use crate::events::EventRuling;
use crate::rules::Citation;
use crate::table::TableError;
use crate::tournament::entries::Modality as Money;
use crate::tournament::runtime::{HandResult, RoundPlan};
use crate::Chips;

/// A purchase's ruling, before it is recorded.
struct PurchaseRuling {
    point: &'static str,
    player: usize,
    entry: u32,
    what: &'static str,
    outcome: String,
    citation: String,
    text: String,
}

impl Director {
    /// A rebuy or add-on (`add_on`) for a player still in: the money ledger asks the
    /// ruleset (`tournament.modality.rebuy_addon`; a freeze-out's `tournament.modality.
    /// freeze_out` refuses both) and records where the money goes; the runtime adds the chips
    /// to his stack and to the chips in play, and his table's seat with them. The ruleset's
    /// refusal (`Ok(Err(..))`) is recorded and changes nothing else.
    pub(super) fn purchase(
        &mut self,
        player: usize,
        add_on: bool,
    ) -> Result<Result<Purchase, Refusal>, TableError> {
        let person = self.person(player)?;
        if self.status != Status::Running {
            return Err(refused(
                "rebuys and add-ons are bought once the tournament is under way",
            ));
        }
        let name = self.people[person].clone();
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
        let noted = |outcome: &str, citation: &str, text: String| PurchaseRuling {
            point,
            player,
            entry,
            what,
            outcome: outcome.to_string(),
            citation: citation.to_string(),
            text,
        };
        let receipt = match bought {
            Ok(r) => r,
            Err(e) => {
                self.note_purchase(noted("refused", &e.citation, e.to_string()));
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
        let text = format!(
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
        );
        let stack_before = rt.tables[t].seats[s].as_ref().map_or(0, |x| x.chips);
        self.note_purchase(noted("allowed", &receipt.citation, text));
        let mut bought = Purchase {
            player,
            entry,
            stream: what.into(),
            paid: receipt.paid,
            fee: receipt.fee,
            to_pool: receipt.to_pool,
            chips: receipt.chips,
            stack: stack_before,
            point: point.into(),
            citation: receipt.citation,
            applies: "now",
            when: None,
        };
        match playing {
            Some(round) => self.queue(&mut bought, &name, add_on, number, round),
            None => {
                bought.stack = self.add_now(entry, number, s, receipt.chips)?;
            }
        }
        Ok(Ok(bought))
    }

    /// Records a purchase's ruling among the tournament's.
    fn note_purchase(&mut self, p: PurchaseRuling) {
        let ruling = EventRuling {
            point: p.point.to_string(),
            ruleset: self.version.rules.ruleset().clone(),
            citation: citation_of(&p.citation),
            outcome: p.outcome,
            fields: [
                ("player".to_string(), p.player.to_string()),
                ("entry".to_string(), p.entry.to_string()),
                ("purchase".to_string(), p.what.to_string()),
            ]
            .into_iter()
            .collect(),
            text: p.text,
        };
        if let Some(rt) = self.runtime.as_mut() {
            rt.note(ruling);
        }
    }

    /// A purchase bought while the player's hand of `round` is played at table `number`:
    /// its chips wait for his next hand, as ruled at `tournament.rebuy.declaration`.
    fn queue(&mut self, bought: &mut Purchase, name: &str, add_on: bool, number: u32, round: u64) {
        let when = self.when_queued(name, add_on, bought.chips, number, round);
        let ruling = EventRuling {
            point: when.point.clone(),
            ruleset: self.version.rules.ruleset().clone(),
            citation: citation_of(&when.citation),
            outcome: "queued".into(),
            fields: [
                ("player".to_string(), bought.player.to_string()),
                ("entry".to_string(), bought.entry.to_string()),
                ("chips".to_string(), bought.chips.to_string()),
            ]
            .into_iter()
            .collect(),
            text: when.text.clone(),
        };
        if let Some(rt) = self.runtime.as_mut() {
            rt.note(ruling);
        }
        self.queued.push(Queued {
            entry: bought.entry,
            chips: bought.chips,
        });
        bought.applies = "next_hand";
        bought.when = Some(when);
    }

    /// A purchase's chips added at once (no hand of his is being played): to the runtime's
    /// stack and chips in play, and to his seat at table `number`. Returns his stack.
    fn add_now(
        &mut self,
        entry: u32,
        number: u32,
        seat: usize,
        chips: Chips,
    ) -> Result<Chips, TableError> {
        let rt = self
            .runtime
            .as_mut()
            .ok_or_else(|| refused("the tournament has not started"))?;
        rt.add_chips(entry, chips)
            .map_err(|e| refused(e.to_string()))?;
        let stack = rt
            .locate(entry)
            .and_then(|(t, s)| rt.tables[t].seats[s].as_ref())
            .map_or(0, |x| x.chips);
        let table = self
            .tables
            .get_mut(&number)
            .ok_or_else(|| refused(format!("table {number} is not open")))?;
        table.table.add_to_stack(&table.id, seat, chips)?;
        Ok(stack)
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
    /// "obliged to rebuy"), and to his seat at the table.
    pub(super) fn add_queued(
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
            // The table shows it at once; the next deal lays every seat out again from the
            // runtime in any case.
            if let Some(table) = self.tables.get_mut(&number) {
                let _ = table.table.add_to_stack(&table.id, s, q.chips);
            }
        }
        Ok(())
    }
}

//! Penalties given and served: the sanction checked against the text's catalogue and the
//! player's earlier penalties, its start as `penalty.timing` says, its hands counted and
//! served at each deal (his cards dealt and killed), and a player disqualified or sent from
//! the table removed when the hand in progress ends. See [`super::penalties`].

use super::penalties::{Leaving, Served};
use super::{Occupant, Table, TableError};
use crate::events::{EventRuling, Sanction};
use crate::rules::{Citation, Finding, Rules, Ruling};
use ron::Value;
use std::collections::BTreeMap;

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

fn key<'a>(value: &'a Value, name: &str) -> Option<&'a Value> {
    match value {
        Value::Map(m) => m.get(&Value::String(name.into())),
        _ => None,
    }
}

fn count(value: Option<&Value>) -> Option<u32> {
    match value? {
        Value::Number(n) => u32::try_from((*n).into_f64() as i64).ok(),
        _ => None,
    }
}

fn word(value: Option<&Value>) -> Option<&str> {
    match value? {
        Value::String(s) => Some(s),
        _ => None,
    }
}

fn number(n: usize) -> Value {
    Value::Number(ron::Number::new(i64::try_from(n).unwrap_or(i64::MAX)))
}

/// A ruling recorded with the hand at `point`.
fn ruling_at(rules: &dyn Rules, point: &str, citation: Citation, text: String) -> Ruling {
    Ruling {
        point: crate::rules::registry::get(point).map_or("table.event", |p| p.id),
        ruleset: rules.ruleset().clone(),
        citation,
        finding: Finding::Text(text),
    }
}

impl<S: Occupant> Table<S> {
    /// The sanction the text's catalogue gives for a penalty (`penalty.catalogue_and_escalation`):
    /// decided by the text itself, or the floor's `floors` checked against the catalogue and
    /// against the player's earlier penalties; `None` when the text leaves it to the floor
    /// and the floor named none (the choices are then in `ruling.fields["choices"]`).
    pub(super) fn catalogue(
        &self,
        rules: &dyn Rules,
        player: &str,
        given: &BTreeMap<String, Value>,
        floors: Option<Sanction>,
        ruling: &mut EventRuling,
    ) -> Result<Option<Sanction>, TableError> {
        let point = "penalty.catalogue_and_escalation";
        let prior = self.penalties.given_to(player);
        let Some(catalogue) = rules.parameter(point) else {
            return Err(refused(format!(
                "{point}: not regulated by this text: it names no sanction the table could serve"
            )));
        };
        let at = &catalogue.citation;
        let allowed: Vec<&str> = match key(&catalogue.value, "sanctions") {
            Some(Value::Seq(s)) => s.iter().filter_map(|v| word(Some(v))).collect(),
            _ => Vec::new(),
        };
        let escalation = word(key(&catalogue.value, "escalation")).unwrap_or("harsher");
        if escalation == "warning_then_leave_table" {
            let serious = matches!(given.get("serious_or_repeated"), Some(Value::Bool(true)));
            let s = if prior.is_empty() && !serious {
                Sanction::Warning
            } else {
                Sanction::LeaveTable
            };
            if let Some(f) = floors.filter(|f| *f != s) {
                return Err(refused(format!(
                    "{point}: the text decides the sanction ({s}, {at}), not {f}"
                )));
            }
            ruling.text = format!(
                "{}; {at}: {}",
                ruling.text,
                if s == Sanction::Warning {
                    "a first breach is warned"
                } else {
                    "a serious or repeated breach: the player must leave the table"
                }
            );
            return Ok(Some(s));
        }
        let choices = allowed
            .iter()
            .map(|k| match *k {
                "hands" | "orbits" => format!("{k} N"),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let Some(s) = floors else {
            ruling.fields.insert("choices".into(), choices.clone());
            ruling.text = format!(
                "{}; {at} leaves the sanction to the floor: the table waits for one of {choices}",
                ruling.text
            );
            return Ok(None);
        };
        if !allowed.contains(&s.kind()) {
            return Err(refused(format!(
                "{point}: {s} is not a sanction {at} lists ({choices})"
            )));
        }
        let most = match s {
            Sanction::Hands(n) => count(key(&catalogue.value, "max_hands")).map(|m| (n, m)),
            Sanction::Orbits(n) => count(key(&catalogue.value, "max_orbits")).map(|m| (n, m)),
            _ => None,
        };
        if let Some((n, m)) = most.filter(|(n, m)| n > m) {
            return Err(refused(format!(
                "{point}: {at} allows at most {m} {}, not {n}",
                s.kind()
            )));
        }
        if let Some(last) = prior.iter().max().filter(|last| s <= **last) {
            return Err(refused(format!(
                "{point}: {at}: a repeat offence gets a harsher penalty than the player's earlier {last}, not {s}"
            )));
        }
        ruling.text = format!("{}; {at}: the floor gives {s}", ruling.text);
        Ok(Some(s))
    }

    /// Gives `sanction` to `player` in seat `index`: remembered for escalation, and a penalty
    /// of hands or orbits, a removal or a disqualification made table state.
    pub(super) fn give(
        &mut self,
        rules: &dyn Rules,
        index: usize,
        player: &str,
        offence: &str,
        sanction: Sanction,
        ruling: &mut EventRuling,
    ) {
        self.penalties
            .given
            .entry(player.to_string())
            .or_default()
            .push(sanction);
        self.penalties
            .offences
            .push((player.to_string(), offence.to_string()));
        ruling
            .fields
            .insert("sanction".into(), sanction.to_string());
        ruling
            .fields
            .insert("remedy".into(), "penalty_given".into());
        let in_hand = self.live().is_some_and(|d| d.position_of(index).is_some());
        let timing = rules.parameter("penalty.timing");
        let starts = match &timing {
            Some(t) => format!("it starts at the end of the hand in play ({})", t.citation),
            None => {
                "penalty.timing is not regulated by this text: it starts with the next deal".into()
            }
        };
        match sanction {
            Sanction::Warning => {
                ruling.text = format!("{}; {player} is warned", ruling.text);
            }
            Sanction::Hands(_) | Sanction::Orbits(_) => {
                let players = self.seats.iter().flatten().count();
                self.penalties.serving.retain(|s| s.seat != index);
                self.penalties.serving.push(Served {
                    seat: index,
                    player: player.to_string(),
                    offence: offence.to_string(),
                    sanction,
                    players_at_offence: players,
                    hands_left: None,
                });
                ruling.fields.insert("starts".into(), "next_deal".into());
                ruling.text = format!(
                    "{}; {player} is penalised {sanction}: {starts}",
                    ruling.text
                );
            }
            Sanction::LeaveTable | Sanction::Disqualification => {
                let chips_removed = sanction == Sanction::Disqualification;
                let effects = chips_removed.then(|| {
                    rules.table_event("penalty.disqualification_effects", &BTreeMap::new())
                });
                if let Some(e) = &effects {
                    ruling.text = format!("{}; {} ({})", ruling.text, e.text, e.citation);
                }
                self.penalties.serving.retain(|s| s.seat != index);
                self.penalties.leaving.push(Leaving {
                    seat: index,
                    player: player.to_string(),
                    chips_removed,
                });
                if in_hand {
                    // He is removed when the hand in play ends, whatever `penalty.timing`
                    // says of penalties served in hands.
                    ruling.fields.insert("starts".into(), "end_of_hand".into());
                    ruling.text = format!(
                        "{}; {player} leaves the table when the hand in play ends, {}",
                        ruling.text,
                        if chips_removed {
                            "his chips taken out of play"
                        } else {
                            "taking his chips"
                        }
                    );
                } else {
                    self.settle_leaving();
                }
            }
        }
    }

    /// The floor names the sanction of the penalty that waits for it.
    pub(super) fn floor_sanction(&mut self, choice: &str) -> Result<EventRuling, TableError> {
        let Some(p) = self.penalties.awaiting.clone() else {
            return Err(refused(
                "no penalty at this table waits for a floor ruling".into(),
            ));
        };
        let rules = self.penalty_rules()?;
        let sanction = Sanction::parse(choice).map_err(refused)?;
        let mut ruling = EventRuling {
            point: p.point.clone(),
            ruleset: rules.ruleset().clone(),
            citation: p.citation.clone(),
            outcome: "penalty".into(),
            fields: BTreeMap::new(),
            text: format!(
                "the floor rules on {}'s {} as the text leaves it to the floor",
                p.player, p.offence
            ),
        };
        self.catalogue(
            rules.as_ref(),
            &p.player,
            &BTreeMap::new(),
            Some(sanction),
            &mut ruling,
        )?;
        self.penalties.awaiting = None;
        if self.occupant(p.seat).map(Occupant::name) != Some(p.player.as_str()) {
            return Err(refused(format!(
                "{} no longer sits in seat {}",
                p.player,
                p.seat + 1
            )));
        }
        self.give(
            rules.as_ref(),
            p.seat,
            &p.player,
            &p.offence,
            sanction,
            &mut ruling,
        );
        Ok(ruling)
    }

    /// Serves the penalties at the hand just dealt: a penalty that starts now has its hands
    /// counted by the text's formula, and every penalised player dealt in has his cards killed
    /// (his blinds and antes stay in the pot). Called by [`Table::deal`].
    pub(super) fn serve_at_deal(&mut self) {
        if self.penalties.serving.is_empty() {
            return;
        }
        let Some(d) = self.dealt.as_mut() else {
            return;
        };
        let rules = d.hand.rules().clone();
        let players = d.positions.len();
        let mut done = Vec::new();
        for (k, s) in self.penalties.serving.iter_mut().enumerate() {
            let Some(p) = d.position_of(s.seat) else {
                continue;
            };
            let held = self.seats[s.seat].as_ref().map(Occupant::name);
            if held != Some(s.player.as_str()) {
                done.push(k);
                continue;
            }
            let left = match s.hands_left {
                Some(n) => n,
                None => {
                    let hands = count_hands(rules.as_ref(), s, players, &mut d.hand);
                    serving_ruling(rules.as_ref(), s, hands, &mut d.hand);
                    hands
                }
            };
            let killed = d.hand.kill_hand(p).is_ok();
            let left = left.saturating_sub(1);
            s.hands_left = Some(left);
            let text = format!(
                "hand {}: {} serves his penalty ({}): his cards are {}; {left} hand(s) left",
                d.number,
                s.player,
                s.sanction,
                if killed {
                    "dealt and killed, his forced bets staying in the pot"
                } else {
                    "dead"
                }
            );
            let citation = rules.citation("penalty.serving");
            d.hand
                .record_ruling(ruling_at(rules.as_ref(), "penalty.serving", citation, text));
            if left == 0 {
                done.push(k);
            }
        }
        for k in done.into_iter().rev() {
            self.penalties.serving.remove(k);
        }
    }

    /// Removes the players disqualified or sent from the table once no hand is played: a
    /// disqualified player's chips go out of play, a player sent away takes his. The chips a
    /// disqualification takes out are ruled at `penalty.disqualification_effects`, recorded
    /// with the hand last dealt (the one he was removed at the end of), so the log says what
    /// left the table and under which article.
    pub(super) fn settle_leaving(&mut self) {
        if self.penalties.leaving.is_empty() || self.in_hand() {
            return;
        }
        for l in std::mem::take(&mut self.penalties.leaving) {
            let Some(seat) = self.seats.get_mut(l.seat) else {
                continue;
            };
            if seat.as_ref().map(Occupant::name) != Some(l.player.as_str()) {
                continue;
            }
            if l.chips_removed {
                let chips = seat.as_ref().map_or(0, Occupant::stack);
                self.penalties.removed += chips;
                self.penalties.disqualified.push(l.player.clone());
                if let Some(d) = self.dealt.as_mut() {
                    let rules = d.hand.rules().clone();
                    let point = "penalty.disqualification_effects";
                    let decided = rules.table_event(point, &BTreeMap::new());
                    let text = format!(
                        "{} is disqualified and leaves seat {}: his {chips} chips are taken out of play; {}",
                        l.player,
                        l.seat + 1,
                        decided.text
                    );
                    d.hand
                        .record_ruling(ruling_at(rules.as_ref(), point, decided.citation, text));
                }
            }
            *seat = None;
        }
    }
}

/// The hands a penalty costs, counted when it starts: `hands N` is N hands; `orbits N` by
/// the text's `penalty.missed_hands_formula`, with the players dealt in now and those at the
/// table at the offence (recorded with the hand).
fn count_hands(rules: &dyn Rules, s: &Served, players: usize, hand: &mut crate::hand::Hand) -> u32 {
    let Sanction::Orbits(n) = s.sanction else {
        return match s.sanction {
            Sanction::Hands(n) => n,
            _ => 0,
        };
    };
    let point = "penalty.missed_hands_formula";
    let mut facts = BTreeMap::new();
    for name in ["orbits", "rounds"] {
        facts.insert(name.to_string(), number(n as usize));
    }
    facts.insert("players_at_application".into(), number(players));
    facts.insert("players_at_infraction".into(), number(s.players_at_offence));
    facts.insert("players_at_table".into(), number(players));
    let decided = rules.table_event(point, &facts);
    let hands = decided
        .fields
        .get("hands_missed")
        .and_then(|h| h.parse::<u32>().ok())
        .unwrap_or_else(|| u32::try_from(players).unwrap_or(u32::MAX).saturating_mul(n));
    let text = if decided.fields.contains_key("hands_missed") {
        decided.text
    } else {
        format!(
            "{}; the text gives no count: {n} orbit(s) of the {players} players dealt in, {hands} hands",
            decided.text
        )
    };
    hand.record_ruling(ruling_at(rules, point, decided.citation, text));
    hands
}

/// The text's ruling on how the penalty is served, recorded with the hand where it starts.
fn serving_ruling(rules: &dyn Rules, s: &Served, hands: u32, hand: &mut crate::hand::Hand) {
    let point = "penalty.serving";
    let mut facts = BTreeMap::new();
    facts.insert("hands".to_string(), number(hands as usize));
    let decided = rules.table_event(point, &facts);
    let bets = if decided.fields.contains_key("forced_bets") {
        String::new()
    } else {
        "; the text says nothing of his forced bets: the table posts them as for every seat it deals".into()
    };
    let text = format!("{} starts {}: {}{bets}", s.player, s.sanction, decided.text);
    hand.record_ruling(ruling_at(rules, point, decided.citation, text));
}

//! Dealing and playing one hand at the cash table: who is dealt in, where the button goes,
//! the blinds and the posts the table owes (missed blinds dead, the inactive player's big
//! blind), the hand itself, the commission when it is settled, and voiding a hand broken by a
//! failure.

use super::commission::{self, per_hand, Mode, Payment, Split};
use super::decide::{decide, facts, flag, int, ints, ruling, street, text};
use super::error::CashError;
use super::hand_rules::HandRules;
use super::seats::HandReview;
use super::table::{percent, CashTable, Failure, Status};
use crate::cards::{format_cards, Card, Deck};
use crate::hand::{Action, ActionKind, Event, Hand, HandConfig, PostKind, Structure};
use crate::rules::{BlindsContext, Citation, Rules, Ruling};
use crate::table::{Deal, DealError, RulesVersion};
use crate::Chips;
use rand::Rng;
use std::sync::Arc;

impl CashTable {
    /// Deals the next hand from a deck shuffled with `rng` (which also draws the button where
    /// the ruleset draws it, pt-online rule 46).
    pub fn start_hand<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<Vec<Ruling>, CashError> {
        let deck = Deck::shuffled(rng);
        let draw = rng.random::<u32>() as usize;
        self.start_hand_with(deck, draw)
    }

    /// Deals the next hand from `deck` (hole cards in position order from the first seat
    /// after the button... as the hand asks, then the board, no burns); `draw` picks the
    /// button among the players dealt in where the ruleset draws it.
    pub fn start_hand_with(&mut self, deck: Deck, draw: usize) -> Result<Vec<Ruling>, CashError> {
        match self.status {
            Status::Closed => return Err(CashError::Closed("no more hands are dealt".into())),
            Status::Suspended { .. } => {
                return Err(CashError::CannotStart(
                    "the game is suspended until enough players are back".into(),
                ))
            }
            _ => {}
        }
        if self.live().is_some() {
            return Err(CashError::HandInProgress("finish or void it first".into()));
        }
        let mut out = Vec::new();
        let dealt = self.players_to_deal(&mut out)?;
        self.start_session(&mut out);
        let previous_button = self.table.button;
        // Where the button goes is ruled here; the table moves it when the hand is dealt.
        let button_seat = self.move_button(&dealt, draw, &mut out);
        self.mark_missed_blinds(previous_button, button_seat, &dealt);
        let rules = self.rules.clone();
        let button = dealt.iter().position(|&s| s == button_seat).unwrap_or(0);
        let start_stacks: Vec<Chips> = dealt
            .iter()
            .map(|&i| self.table.seats[i].as_ref().map_or(0, |s| s.stack))
            .collect();
        let (mut config, blinds_citation) = HandConfig::at_table(
            start_stacks,
            button,
            self.limits.small_blind,
            self.limits.big_blind,
            rules.as_ref(),
        );
        config.variant = self.config.variant;
        config.structure = match self.config.structure {
            Structure::FixedLimit { .. } => Structure::FixedLimit {
                small_bet: self.limits.big_blind,
                big_bet: self.limits.big_blind * 2,
            },
            s => s,
        };
        self.owed_posts(&dealt, &rules, &mut config, &mut out);
        let number = self
            .table
            .deal(Deal {
                config,
                positions: dealt.clone(),
                button: button_seat,
                version: RulesVersion {
                    rules: rules.clone(),
                    hash: self.hash.clone(),
                },
                hand_rules: Arc::new(HandRules(rules.clone())),
                deck,
            })
            .map_err(|e| match e {
                DealError::Setup(why) => CashError::CannotStart(why),
                DealError::Cards(e) => CashError::Hand(e),
            })?;
        for i in 0..self.table.seats.len() {
            if let Some(s) = self.table.seats[i].as_mut() {
                if s.waits_one_deal && !dealt.contains(&i) {
                    s.waits_one_deal = false;
                }
            }
        }
        self.status = Status::Running;
        self.announce_deal(number, &dealt, &rules, blinds_citation, &mut out);
        self.progress(&mut out)?;
        Ok(out)
    }

    /// The seats (indexes) dealt in the next hand, once the minimum-player rule lets the
    /// table deal; or why no hand starts.
    fn players_to_deal(&mut self, out: &mut Vec<Ruling>) -> Result<Vec<usize>, CashError> {
        if !self.check_min_players(out) {
            let why = out
                .last()
                .map_or_else(|| "too few players".to_string(), |r| format!("{r}"));
            // Before the first hand nothing is suspended: say why no hand starts.
            let d = decide(
                self.rules.as_ref(),
                "table.min_players",
                &facts([
                    ("players", int(self.players_in_play() as u64)),
                    ("table_seats", int(self.limits.seats as u64)),
                ]),
                || ("table_cannot_run".into(), why.clone()),
            );
            self.said(out, &d);
            return Err(CashError::CannotStart(format!("{}", d.ruling)));
        }
        let dealt: Vec<usize> = (0..self.table.seats.len())
            .filter(|&i| {
                self.table.seats[i]
                    .as_ref()
                    .is_some_and(|s| s.can_be_dealt())
            })
            .collect();
        if dealt.len() < 2 {
            return Err(CashError::CannotStart(format!(
                "{} player(s) can be dealt in (resting, waiting a deal or owing a rebuy are not)",
                dealt.len()
            )));
        }
        Ok(dealt)
    }

    /// What returning and inactive players owe this hand (`blinds.missed_blinds`,
    /// `blinds.inactivity_forced_post`), written into `config`.
    fn owed_posts(
        &mut self,
        dealt: &[usize],
        rules: &Arc<dyn Rules>,
        config: &mut HandConfig,
        out: &mut Vec<Ruling>,
    ) {
        // What returning and inactive players owe.
        for (p, &i) in dealt.iter().enumerate() {
            let Some(seat) = self.table.seats[i].clone() else {
                continue;
            };
            if seat.missed_small || seat.missed_big {
                let minimum = self.limits.big_blind;
                let d = decide(
                    rules.as_ref(),
                    "blinds.missed_blinds",
                    &facts([
                        ("missed_small", flag(seat.missed_small)),
                        ("missed_big", flag(seat.missed_big)),
                        ("table_minimum", int(minimum)),
                        ("small_blind", int(self.limits.small_blind)),
                    ]),
                    || {
                        (
                            "nothing_owed".into(),
                            "a returning player owes nothing for blinds missed while away".into(),
                        )
                    },
                );
                self.said(out, &d);
                if d.outcome == "post_dead" {
                    config.antes[p] = d.number("amount").unwrap_or(0);
                }
                let mut r = d.ruling;
                r.finding = crate::rules::Finding::Text(format!("{}: {}", seat.player, r.text()));
                self.push(out, r);
                if let Some(s) = self.table.seats[i].as_mut() {
                    s.missed_small = false;
                    s.missed_big = false;
                }
            }
            if seat.owes_big_blind {
                if config.blinds[p] == 0 {
                    config.posts[p] = self.limits.big_blind;
                    let r = ruling(
                        rules.as_ref(),
                        "blinds.inactivity_forced_post",
                        rules
                            .table_event("blinds.inactivity_forced_post", &facts([("hands_without_bet", int(5))]))
                            .citation,
                        format!(
                            "{} posts a big blind of {} this hand, without changing the order of betting",
                            seat.player, self.limits.big_blind
                        ),
                    );
                    self.push(out, r);
                }
                if let Some(s) = self.table.seats[i].as_mut() {
                    s.owes_big_blind = false;
                }
            }
        }
    }

    /// The ruling that says who is dealt in and who posted what.
    fn announce_deal(
        &mut self,
        number: u64,
        dealt: &[usize],
        rules: &Arc<dyn Rules>,
        blinds_citation: Citation,
        out: &mut Vec<Ruling>,
    ) {
        let players: Vec<String> = dealt
            .iter()
            .map(|&i| {
                let s = self.table.seats[i]
                    .as_ref()
                    .map_or("?", |s| s.player.as_str());
                format!("{s} (seat {})", i + 1)
            })
            .collect();
        let (blinds, stacks, antes) = self
            .live()
            .map(|l| {
                let c = l.hand.config();
                (c.blinds.clone(), c.stacks.clone(), c.antes.clone())
            })
            .unwrap_or_default();
        let posted: Vec<String> = blinds
            .iter()
            .enumerate()
            .filter(|(_, &b)| b > 0)
            .map(|(p, &b)| {
                let who = self.table.seats[dealt[p]]
                    .as_ref()
                    .map_or("?", |s| s.player.as_str());
                // A player short of the blind posts what he has (after any ante), all in:
                // the ruling says what was posted, never more.
                let stack = stacks.get(p).copied().unwrap_or(0);
                let paid = b.min(stack.saturating_sub(antes.get(p).copied().unwrap_or(0)));
                if paid < b {
                    format!("{who} posts {paid} of the {b} blind, all in")
                } else {
                    format!("{who} posts {b}")
                }
            })
            .collect();
        let r = ruling(
            rules.as_ref(),
            "blinds.positions_and_amounts",
            blinds_citation,
            format!(
                "hand {number}: {} dealt in; {}",
                players.join(", "),
                posted.join(", ")
            ),
        );
        self.push(out, r);
    }

    /// Starts a new commission session when the last one is over (per-session mode): every
    /// seated player pays (pt-casino-2007 rule 7(b)).
    fn start_session(&mut self, out: &mut Vec<Ruling>) {
        let (Mode::PerSession { minutes, .. }, _) = commission::mode(self.rules.as_ref()) else {
            return;
        };
        let number = match self.session {
            None => 1,
            Some((n, started)) if self.now >= started + minutes => n + 1,
            Some(_) => return,
        };
        self.session = Some((number, self.now));
        for i in 0..self.table.seats.len() {
            self.charge_session(i, number, out);
        }
    }

    /// Moves the button (the 2007 decree's "mão") for the new deal: `button.initial_position_and_rotation`.
    fn move_button(&mut self, dealt: &[usize], draw: usize, out: &mut Vec<Ruling>) -> usize {
        let seat_numbers: Vec<u64> = dealt.iter().map(|&i| i as u64 + 1).collect();
        let start = self.table.button.is_none();
        let previous = self.table.button.map_or(0, |b| b as u64 + 1);
        let default_next = match self.table.button {
            None => dealt[0],
            Some(b) => dealt.iter().copied().find(|&i| i > b).unwrap_or(dealt[0]),
        };
        let d = decide(
            self.rules.as_ref(),
            "button.initial_position_and_rotation",
            &facts([
                ("event", text(if start { "start" } else { "new_deal" })),
                ("occupied_seats", ints(&seat_numbers)),
                ("mao_seat", int(previous)),
                ("button_seat", int(previous)),
            ]),
            || {
                if start {
                    (
                        "button_to_first_seat".into(),
                        format!("the button starts at seat {}", default_next + 1),
                    )
                } else {
                    (
                        "button_moves_left".into(),
                        format!("the button moves to seat {}", default_next + 1),
                    )
                }
            },
        );
        self.said(out, &d);
        let named = d
            .number("mao_seat")
            .or_else(|| d.number("button_seat"))
            .map(|s| s as usize)
            .filter(|s| *s >= 1 && dealt.contains(&(s - 1)))
            .map(|s| s - 1);
        let seat = match (d.outcome.as_str(), named) {
            (_, Some(s)) => s,
            ("button_drawn", None) => dealt[draw % dealt.len()],
            _ => default_next,
        };
        let mut r = d.ruling;
        if d.outcome == "button_drawn" {
            r.finding =
                crate::rules::Finding::Text(format!("{}: seat {} drawn", r.text(), seat + 1));
        }
        self.push(out, r);
        seat
    }

    /// Players resting where the blinds fall this deal miss them (pt-casino-2007 rule 90).
    fn mark_missed_blinds(&mut self, previous: Option<usize>, button_seat: usize, dealt: &[usize]) {
        let seated: Vec<usize> = (0..self.table.seats.len())
            .filter(|&i| self.table.seats[i].as_ref().is_some_and(|s| s.stack > 0))
            .collect();
        if seated.len() == dealt.len() || seated.len() < 2 {
            return;
        }
        let Some(button) = seated.iter().position(|&s| s == button_seat) else {
            return;
        };
        let plan = self
            .rules
            .blinds(&BlindsContext {
                players: seated.len(),
                button,
            })
            .value;
        // Where the button holder posts the small blind himself (the 2007 decree's mão), a
        // resting player the marker passes over misses his small bet.
        if plan.small_blind == Some(button) {
            if let Some(previous) = previous {
                let n = self.table.seats.len();
                let mut i = (previous + 1) % n;
                while i != button_seat && i != previous {
                    if let Some(s) = self.table.seats[i]
                        .as_mut()
                        .filter(|s| s.sitting_out && s.stack > 0)
                    {
                        s.missed_small = true;
                    }
                    i = (i + 1) % n;
                }
            }
        }
        for (position, small) in [(plan.small_blind, true), (Some(plan.big_blind), false)] {
            let Some(seat) = position.and_then(|p| seated.get(p)).copied() else {
                continue;
            };
            if dealt.contains(&seat) {
                continue;
            }
            if let Some(s) = self.table.seats[seat].as_mut().filter(|s| s.sitting_out) {
                if small {
                    s.missed_small = true;
                } else {
                    s.missed_big = true;
                }
            }
        }
    }

    /// `player` acts in the hand in progress. The table deals the board as it is due and
    /// settles the hand when it ends (tabled hands speak at showdown).
    pub fn act(&mut self, player: &str, action: Action) -> Result<Vec<Ruling>, CashError> {
        let index = self
            .find(player)
            .ok_or_else(|| CashError::NotSeated(player.to_string()))?;
        let live = self.table.playing_mut().ok_or(CashError::NoHand)?;
        live.refuse_if_waiting()
            .map_err(|e| CashError::Refused(e.to_string()))?;
        let position = live.position_of(index).ok_or_else(|| {
            CashError::HandInProgress(format!("{player} is not dealt in this hand"))
        })?;
        if live.held.is_empty() {
            live.hand.act(position, action)?;
        } else {
            // Actions held out of turn come due after this one.
            live.act_in_turn(position, action)
                .map_err(|e| CashError::Refused(e.to_string()))?;
        }
        let mut out = Vec::new();
        self.progress(&mut out)?;
        Ok(out)
    }

    /// The player to act, if a hand is in progress.
    pub fn to_act(&self) -> Option<String> {
        let live = self.live()?;
        let p = live.hand.actor()?;
        self.table.seats[live.positions[p]]
            .as_ref()
            .map(|s| s.player.clone())
    }

    /// The hand in progress.
    pub fn hand(&self) -> Option<&Hand> {
        self.live().map(|l| &l.hand)
    }

    /// Deals what is due, finishes a showdown, settles a completed hand.
    pub(super) fn progress(&mut self, out: &mut Vec<Ruling>) -> Result<(), CashError> {
        let ended = self.table.progress()?;
        for r in self.table.fresh_rulings() {
            self.push(out, r);
        }
        if ended {
            self.settle(out);
        }
        Ok(())
    }

    /// Pays the hand: commission from the payments, stacks, records, then what happens
    /// between hands.
    fn settle(&mut self, out: &mut Vec<Ruling>) {
        // Out of the table while it is paid, as between hands (no hand in progress).
        let Some(live) = self.table.dealt.take() else {
            return;
        };
        let rules = live.version.rules.clone();
        let hand = &live.hand;
        let n = live.positions.len();
        let mut payments = Vec::new();
        let mut put_in = vec![0 as Chips; n];
        let mut returned = vec![0 as Chips; n];
        let mut bet = vec![false; n];
        let mut voluntary = false;
        for event in hand.events() {
            match *event {
                Event::Awarded {
                    pot,
                    player,
                    amount,
                    ..
                } => payments.push(Payment {
                    pot,
                    position: player,
                    amount,
                }),
                Event::UncalledReturned { player, amount } => returned[player] += amount,
                Event::Posted { player, kind, .. } if kind != PostKind::Ante => {
                    bet[player] = true;
                }
                Event::Acted { player, kind, .. } => {
                    if matches!(kind, ActionKind::Call | ActionKind::Bet | ActionKind::Raise) {
                        bet[player] = true;
                        voluntary = true;
                    }
                }
                _ => {}
            }
        }
        let end = hand.stacks();
        let mut won = vec![0 as Chips; n];
        for p in &payments {
            won[p.position] += p.amount;
        }
        for p in 0..n {
            // start - put in + returned + won = end
            put_in[p] = (live.start_stacks[p] + returned[p] + won[p]).saturating_sub(end[p]);
        }
        let taken = self.hand_commission(&rules, hand, &payments, voluntary, &live.positions, out);
        let mut commission = vec![0 as Chips; n];
        for (pay, t) in payments.iter().zip(&taken) {
            commission[pay.position] += t;
        }
        let board = format_cards(hand.board());
        for p in 0..n {
            let index = live.positions[p];
            let Some(seat) = self.table.seats[index].as_mut() else {
                continue;
            };
            seat.stack = end[p] - commission[p];
            let wagered = put_in[p] - returned[p];
            let net_won = won[p] - commission[p];
            if bet[p] {
                seat.hands_without_bet = 0;
                seat.idle = Default::default();
            } else {
                seat.hands_without_bet += 1;
            }
            let player = seat.player.clone();
            let totals = Arc::make_mut(&mut self.totals)
                .entry(player.clone())
                .or_default();
            // Running figures over a session: they saturate rather than wrap (each hand adds
            // at most the chips on the table, themselves bounded: see `crate::bounds`).
            totals.wagered = totals.wagered.saturating_add(wagered);
            totals.won = totals.won.saturating_add(net_won);
            totals.commission = totals.commission.saturating_add(commission[p]);
            totals.hand_commission = totals.hand_commission.saturating_add(commission[p]);
            totals.hands = totals.hands.saturating_add(1);
            let hole: Vec<Card> = hand.hole_cards(p).iter().flatten().copied().collect();
            Arc::make_mut(&mut self.reviews).insert(
                player,
                HandReview {
                    hand: live.number,
                    ruleset: rules.ruleset().to_string(),
                    seat: index + 1,
                    hole_cards: format_cards(&hole),
                    board: board.clone(),
                    wagered,
                    won: net_won,
                    commission: commission[p],
                    result: net_won as i128 - wagered as i128,
                    void: false,
                },
            );
        }
        self.between_hands(&live.positions, out);
        self.table.dealt = Some(live);
    }

    /// The per-hand commission taken from each payment, with its rulings.
    fn hand_commission(
        &mut self,
        rules: &Arc<dyn Rules>,
        hand: &Hand,
        payments: &[Payment],
        voluntary: bool,
        seats: &[usize],
        out: &mut Vec<Ruling>,
    ) -> Vec<Chips> {
        let none = vec![0; payments.len()];
        let (Mode::PerHand { basis_points, cap }, citation) = commission::mode(rules.as_ref())
        else {
            return none;
        };
        if basis_points == 0 || payments.is_empty() {
            return none;
        }
        let flop = !hand.board().is_empty();
        let d = decide(
            rules.as_ref(),
            "cash.rake.no_flop_no_drop",
            &facts([
                ("flop_dealt", flag(flop)),
                ("voluntary_bet", flag(voluntary)),
                ("street", street(hand.street())),
            ]),
            || ("commission".into(), "every hand pays the commission".into()),
        );
        self.said(out, &d);
        if d.outcome == "no_commission" {
            self.push(out, d.ruling);
            return none;
        }
        if !flop {
            // A hand over before the flop pays: the text's word on it goes in the log, since
            // it is what a player charged for a hand without a flop asks about.
            self.push(out, d.ruling);
        }
        let several = payments.len() > 1;
        let all_in = hand
            .events()
            .iter()
            .any(|e| matches!(e, Event::Acted { all_in: true, .. }));
        let split = if several {
            let d = decide(
                rules.as_ref(),
                "cash.rake.split_payments",
                &facts([
                    ("payments", int(payments.len() as u64)),
                    ("all_in", flag(all_in)),
                ]),
                || {
                    (
                        "from_the_pot".into(),
                        "the commission is taken from the pot, main pot first".into(),
                    )
                },
            );
            self.said(out, &d);
            let split = if d.outcome == "from_each_payment" {
                Split::FromEachPayment
            } else {
                Split::FromThePot
            };
            self.push(out, d.ruling);
            split
        } else {
            Split::FromEachPayment
        };
        let taken = per_hand(payments, basis_points, cap, split);
        let total: Chips = taken.iter().sum();
        if total == 0 {
            return taken;
        }
        let parts: Vec<String> = payments
            .iter()
            .zip(&taken)
            .map(|(p, t)| {
                let who = self.table.seats[seats[p.position]]
                    .as_ref()
                    .map_or("?".to_string(), |s| s.player.clone());
                format!("{t} of {who}'s {}", p.amount)
            })
            .collect();
        let capped = if cap > 0 {
            format!(", at most {cap}")
        } else {
            String::new()
        };
        let r = ruling(
            rules.as_ref(),
            "cash.rake.mode_and_bounds",
            citation,
            format!(
                "a commission of {total} ({}% of the pot{capped}) is taken before the winners are paid: {}",
                percent(basis_points),
                parts.join(", ")
            ),
        );
        self.push(out, r);
        taken
    }

    /// A failure interrupted the hand in progress (`online.communication_failure`). On the
    /// operator's side (pt-online rule 72) the hand is void: every bet and post goes back, the
    /// stacks are as before the hand, the button goes back, and nothing counts for the session.
    /// On the player's side (rule 73) the hand stands and play goes on.
    pub fn void_hand(&mut self, failure: Failure) -> Result<Vec<Ruling>, CashError> {
        let live = self.live().ok_or(CashError::NoHand)?;
        let rules = live.version.rules.clone();
        let origin = match failure {
            Failure::Operator => "operator",
            Failure::Player => "player",
        };
        let d = decide(
            rules.as_ref(),
            "online.communication_failure",
            &facts([
                ("origin", text(origin)),
                ("street", street(live.hand.street())),
            ]),
            || {
                match failure {
                Failure::Operator => (
                    "hand_void".into(),
                    "a failure on the operator's side broke the hand: it is void and every bet is returned".into(),
                ),
                Failure::Player => (
                    "hand_stands".into(),
                    "a failure of the player's own equipment does not void the hand".into(),
                ),
            }
            },
        );
        let mut out = Vec::new();
        self.said(&mut out, &d);
        let void = d.outcome == "hand_void";
        self.push(&mut out, d.ruling);
        if !void {
            return Ok(out);
        }
        self.table.void().map_err(|_| CashError::NoHand)?;
        self.after_void(&mut out);
        Ok(out)
    }

    /// Puts the table back as it was before the hand just voided: each player still seated
    /// gets his seat as it was (owed posts owed again), one who left gets back what he put
    /// in, the button goes back, and the void hand is on each player's record.
    pub(super) fn after_void(&mut self, out: &mut Vec<Ruling>) {
        let Some(live) = self.table.dealt.take() else {
            return;
        };
        for (p, &index) in live.positions.iter().enumerate() {
            let Some(before) = live.before.get(p) else {
                continue;
            };
            let still_here = self.table.seats[index]
                .as_ref()
                .is_some_and(|s| s.player == before.player);
            if still_here {
                // Flags as before the hand too: owed posts are owed again.
                let sitting_out = self.table.seats[index]
                    .as_ref()
                    .is_some_and(|s| s.sitting_out);
                let mut restored = before.clone();
                restored.sitting_out = sitting_out;
                self.table.seats[index] = Some(restored);
            } else {
                // He folded and left: what he put in goes back to him all the same.
                let returned = live.start_stacks[p].saturating_sub(live.hand.stack_of(p));
                let totals = Arc::make_mut(&mut self.totals)
                    .entry(before.player.clone())
                    .or_default();
                totals.cashed_out = totals.cashed_out.saturating_add(returned);
            }
            {
                let seat = before;
                let hole: Vec<Card> = live.hand.hole_cards(p).iter().flatten().copied().collect();
                Arc::make_mut(&mut self.reviews).insert(
                    seat.player.clone(),
                    HandReview {
                        hand: live.number,
                        ruleset: live.version.rules.ruleset().to_string(),
                        seat: index + 1,
                        hole_cards: format_cards(&hole),
                        board: format_cards(live.hand.board()),
                        wagered: 0,
                        won: 0,
                        commission: 0,
                        result: 0,
                        void: true,
                    },
                );
            }
        }
        self.table.button = live.previous_button;
        self.table.dealt = Some(live);
        self.fill_vacancies(out);
        self.check_min_players(out);
    }
}

//! Between hands: rests that run out, players who go hands without betting, stacks below the
//! table minimum, and the operator's notices before ending a session.

use super::decide::{decide, facts, flag, int, text, Decision};
use super::seats::Notices;
use super::table::CashTable;
use crate::rules::Ruling;

impl CashTable {
    /// Everything the rules ask after a hand: `presence.sit_out_and_inactivity` for resting
    /// players, `blinds.inactivity_forced_post` and `online.session_termination` for players
    /// who did not bet, `cash.rebuy_below_minimum` for short stacks; then vacant seats are
    /// offered and the minimum number of players checked.
    pub(super) fn between_hands(&mut self, dealt: &[usize], out: &mut Vec<Ruling>) {
        let rules = self.rules.clone();
        let minimum = self.limits.big_blind;
        for index in 0..self.table.seats.len() {
            let Some(seat) = self.table.seats[index].clone() else {
                continue;
            };
            let name = seat.player.clone();
            // Resting: two hands keep the seat (pt-casino-2007 rule 13). A player who asked to
            // rest during a hand he was dealt begins his rest with the next one.
            if seat.sitting_out && !dealt.contains(&index) {
                let rested = seat.hands_rested + 1;
                if let Some(s) = self.table.seats[index].as_mut() {
                    s.hands_rested = rested;
                }
                let d = decide(
                    rules.as_ref(),
                    "presence.sit_out_and_inactivity",
                    &facts([
                        ("sitting_out", flag(true)),
                        ("rest_granted", flag(true)),
                        ("hands_rested", int(rested as u64)),
                        ("repeated_rest", flag(false)),
                    ]),
                    || {
                        (
                            "keeps_seat".into(),
                            format!("{rested} hand(s) rested: the seat is kept"),
                        )
                    },
                );
                self.said(out, &d);
                let leaves = d.outcome == "must_leave";
                self.push(out, named(d, &name));
                if leaves {
                    self.remove(index, "must leave", out);
                }
                continue;
            }
            let hands = seat.hands_without_bet as u64;
            if dealt.contains(&index) && hands > 0 {
                // The 2007 decree's big blind after five hands without a bet (rule 89).
                let d = decide(
                    rules.as_ref(),
                    "blinds.inactivity_forced_post",
                    &facts([
                        ("hands_without_bet", int(hands)),
                        ("table_minimum", int(minimum)),
                    ]),
                    || ("no_post".into(), "no forced post for not betting".into()),
                );
                self.said(out, &d);
                if d.outcome == "post_big_bet" {
                    if let Some(s) = self.table.seats[index].as_mut() {
                        s.owes_big_blind = true;
                        s.hands_without_bet = 0;
                    }
                    self.push(out, named(d, &name));
                } else if !matches!(d.outcome.as_str(), "no_post" | "no_forced_post") {
                    // A text that forces no post but rules on the idle player otherwise
                    // (pt-online rule 70(b): the operator may end his session) says so
                    // before the operator's notice that carries it out.
                    self.push(out, named(d, &name));
                }
                // The operator's invitation, warning and end (pt-online rules 70(b), 71).
                if self.notice(index, "no_bets", hands, seat.idle, out) {
                    continue;
                }
            }
            let stack = self.table.seats[index].as_ref().map_or(0, |s| s.stack);
            if stack < minimum {
                let d = decide(
                    rules.as_ref(),
                    "cash.rebuy_below_minimum",
                    &facts([
                        ("stack", int(stack)),
                        ("table_minimum", int(minimum)),
                        ("hand_in_progress", flag(false)),
                    ]),
                    || {
                        if stack == 0 {
                            (
                                "must_rebuy".into(),
                                "a player with no chips must rebuy to be dealt in".into(),
                            )
                        } else {
                            (
                                "may_play".into(),
                                format!("a stack of {stack} plays on, all-in as needed"),
                            )
                        }
                    },
                );
                self.said(out, &d);
                // Said once; the obligation stands until he rebuys.
                if d.outcome == "must_rebuy" && !seat.must_rebuy {
                    if let Some(s) = self.table.seats[index].as_mut() {
                        s.must_rebuy = true;
                    }
                    self.push(out, named(d, &name));
                } else if d.outcome != "must_rebuy" && dealt.contains(&index) {
                    self.push(out, named(d, &name));
                }
                let short = self.table.seats[index]
                    .as_ref()
                    .map_or(Notices::default(), |s| s.short);
                self.notice(index, "stack_below_minimum", 0, short, out);
            }
        }
        self.fill_vacancies(out);
        self.check_min_players(out);
    }

    /// Asks `online.session_termination` for one cause; returns whether the session ended.
    fn notice(
        &mut self,
        index: usize,
        cause: &str,
        hands: u64,
        notices: Notices,
        out: &mut Vec<Ruling>,
    ) -> bool {
        let Some(name) = self.table.seats[index].as_ref().map(|s| s.player.clone()) else {
            return false;
        };
        let d = decide(
            self.rules.as_ref(),
            "online.session_termination",
            &facts([
                ("cause", text(cause)),
                ("hands_without_bet", int(hands)),
                ("invited", flag(notices.invited)),
                ("warned", flag(notices.warned)),
            ]),
            || ("no_action".into(), "the operator takes no action".into()),
        );
        self.said(out, &d);
        let outcome = d.outcome.clone();
        let update = |n: &mut Notices| match outcome.as_str() {
            "invite_to_end_session" => n.invited = true,
            "warning" => {
                n.invited = true;
                n.warned = true
            }
            _ => {}
        };
        if let Some(s) = self.table.seats[index].as_mut() {
            if cause == "no_bets" {
                update(&mut s.idle);
            } else {
                update(&mut s.short);
            }
        }
        match d.outcome.as_str() {
            "invite_to_end_session" | "warning" => {
                self.push(out, named(d, &name));
                false
            }
            "session_terminated" => {
                self.push(out, named(d, &name));
                self.remove(index, "session ended", out);
                true
            }
            _ => false,
        }
    }
}

/// The ruling with the player's name in front.
fn named(d: Decision, player: &str) -> Ruling {
    let mut r = d.ruling;
    r.finding = crate::rules::Finding::Text(format!("{player}: {}", r.text()));
    r
}

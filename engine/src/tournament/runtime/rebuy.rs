//! A rebuy declared before a hand (rule point `tournament.rebuy.declaration`): which chips
//! the player plays that hand with is the text's to say, and the runtime carries it out.
//!
//! pt-tournament Art. 27º (inherited by pt-solverde-chaves-2023, §8.8): having declared the
//! rebuy before the hand he "plays with the chips he holds" and is obliged to rebuy — the
//! rebuy chips are held out of the hand and join his stack when it ends, so losing every chip
//! he held does not put him out. br-adtp-2012 rule 23: he plays as if the rebuy chips were
//! already in play ("chips behind") — they join his stack at once. Where the ruling names no
//! chips in play (a text silent on the point leaves it to the floor), nothing is carried out
//! and the declaration is refused with the ruling's words: the rebuy can still be bought
//! between hands.

use super::{int, RuntimeError, Tournament};
use crate::events::EventRuling;
use crate::tournament::seating::PlayerId;
use crate::Chips;

impl Tournament {
    /// `player` declares, before the next hand, a rebuy of `chips`: asks
    /// `tournament.rebuy.declaration` (facts `declared_before_hand`, `stack`, `rebuy_chips`)
    /// and carries the ruling out — the chips join his stack now when the ruling puts them in
    /// play (`chips_in_play` = stack + rebuy), or are held until his next hand ends when it
    /// puts only his stack in play. Returns the ruling; a ruling that names no chips in play
    /// is [`RuntimeError::RebuyNotRuled`] and changes nothing. The money is the caller's.
    pub fn declare_rebuy(
        &mut self,
        player: PlayerId,
        chips: Chips,
    ) -> Result<EventRuling, RuntimeError> {
        let (t, s) = self
            .locate(player)
            .ok_or(RuntimeError::UnknownPlayer(player))?;
        let stack = self.tables[t].seats[s].as_ref().map_or(0, |p| p.chips);
        let ruling = self.decide(
            "tournament.rebuy.declaration",
            &[
                ("declared_before_hand", ron::Value::Bool(true)),
                ("stack", int(stack)),
                ("rebuy_chips", int(chips)),
            ],
        );
        let in_play = ruling
            .fields
            .get("chips_in_play")
            .and_then(|v| v.parse::<Chips>().ok());
        match in_play {
            Some(n) if n < stack.saturating_add(chips) => {
                *self.held_rebuys.entry(player).or_insert(0) += chips;
            }
            Some(_) => self.add_chips(player, chips)?,
            None => {
                return Err(RuntimeError::RebuyNotRuled {
                    player,
                    citation: ruling.citation.to_string(),
                    text: ruling.text,
                })
            }
        }
        Ok(ruling)
    }

    /// The rebuy chips held out of `player`'s next hand (0: none).
    pub fn held_rebuy(&self, player: PlayerId) -> Chips {
        self.held_rebuys.get(&player).copied().unwrap_or(0)
    }

    /// Takes `player`'s held rebuy chips into play (his hand has ended); returns them.
    pub(super) fn release_held_rebuy(&mut self, player: PlayerId) -> Chips {
        let chips = self.held_rebuys.remove(&player).unwrap_or(0);
        self.chips_in_play += chips;
        chips
    }
}

#[cfg(test)]
mod tests {
    use crate::ruleset::{MemoryLoader, Ruleset, RulesetRules, Sandbox};
    use crate::tournament::runtime::{RuntimeError, Setup, Tournament};
    use crate::tournament::structure::{Level, Modality, Structure};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    /// A tournament of four at one table under a ruleset whose rebuy declaration puts
    /// `chips_in_play` = the stack (`held: true`) or the stack and the rebuy (`false`).
    fn tournament(held: bool) -> Tournament {
        let in_play = if held { "stack" } else { "stack + rebuy" };
        let script = format!(
            "fn n(ctx, k) {{ if k in ctx && type_of(ctx[k]) == \"i64\" {{ ctx[k] }} else {{ 0 }} }}
             fn rebuy_declaration(ctx) {{
                 let stack = n(ctx, \"stack\"); let rebuy = n(ctx, \"rebuy_chips\");
                 #{{ outcome: \"declared\", chips_in_play: {in_play}, obliged: true, text: \"t\" }}
             }}"
        );
        let ron = r#"(id: "r", title: "R", source: "s", kind: Tournament, version: "1",
            scripts: ["money.rhai"],
            bindings: {"tournament.rebuy.declaration": (citation: "Art. 1", decision: "rebuy_declaration")})"#;
        let loader = MemoryLoader::new().with("r", ron, &[("money.rhai", script.as_str())]);
        let ruleset = Arc::new(Ruleset::load("r", &loader, &Sandbox::new()).expect("loads"));
        let rules = Arc::new(RulesetRules::new(ruleset));
        let setup = Setup {
            seats_per_table: 9,
            starting_stack: 1000,
            structure: Structure {
                levels: vec![Level {
                    small_blind: 10,
                    big_blind: 20,
                    ante: 0,
                    big_blind_ante: false,
                    minutes: 20,
                }],
                breaks: Vec::new(),
            },
            modality: Modality::Standard,
            format: "full_ring".into(),
            paid_places: 1,
        };
        let mut t = Tournament::new(setup, rules).expect("a valid tournament");
        t.start(4, &mut ChaCha8Rng::seed_from_u64(1))
            .expect("four players start");
        t
    }

    fn stack(t: &Tournament, player: u32) -> u64 {
        t.locate(player)
            .and_then(|(ti, s)| t.tables[ti].seats[s].as_ref())
            .map_or(0, |p| p.chips)
    }

    #[test]
    fn a_rebuy_played_as_chips_behind_joins_the_stack_at_once() {
        let mut t = tournament(false);
        let ruling = t.declare_rebuy(2, 1000).expect("player 2 is seated");
        assert_eq!(
            ruling.fields.get("chips_in_play").map(String::as_str),
            Some("2000")
        );
        assert_eq!((stack(&t, 2), t.held_rebuy(2)), (2000, 0));
        assert_eq!(t.chips_in_play(), 5000);
        assert_eq!(t.chips_at_tables(), 5000);
    }

    #[test]
    fn a_rebuy_held_out_of_the_hand_joins_the_stack_when_the_hand_ends() {
        let mut t = tournament(true);
        t.declare_rebuy(2, 1000).expect("player 2 is seated");
        assert_eq!((stack(&t, 2), t.held_rebuy(2)), (1000, 1000));
        assert_eq!(t.chips_in_play(), 4000);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        t.play_round(60, &mut rng).expect("a round is played");
        assert_eq!(t.held_rebuy(2), 0);
        assert_eq!(t.chips_in_play(), 5000);
        assert_eq!(t.chips_at_tables(), 5000);
        assert!(stack(&t, 2) >= 1000, "the held rebuy keeps him in");
    }

    #[test]
    fn a_rebuy_left_to_the_floor_changes_nothing() {
        let mut t = tournament(true);
        t.rules = Arc::new(crate::rules::DefaultRules);
        let refused = t.declare_rebuy(2, 1000);
        assert!(
            matches!(refused, Err(RuntimeError::RebuyNotRuled { player: 2, .. })),
            "{refused:?}"
        );
        assert_eq!((stack(&t, 2), t.held_rebuy(2)), (1000, 0));
        assert_eq!(t.chips_in_play(), 4000);
    }

    #[test]
    fn an_unseated_player_cannot_declare_a_rebuy() {
        let mut t = tournament(true);
        assert!(t.declare_rebuy(9, 1000).is_err());
    }
}

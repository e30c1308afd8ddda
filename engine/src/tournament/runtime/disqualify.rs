//! A player disqualified at his table (`penalty.disqualification_effects`: pt-tournament
//! Art. 71º(4), ao-tournament-2025 Art. 71(D), br-adtp-2012 rule 52 — his chips are removed
//! from the tournament): he leaves the event with them. No text gives a disqualified player a
//! finishing place, so he is not placed — the places (and the prizes) go to the players still
//! in, as they are eliminated — and he is never seated again.

use super::{RuntimeError, Tournament};
use crate::events::EventRuling;
use crate::tournament::seating::PlayerId;

impl Tournament {
    /// Takes a disqualified player out of the tournament: his seat emptied, his chips out of
    /// play, any rebuy held for him dropped, no finishing place; recorded as a ruling at
    /// `penalty.disqualification_effects` with the ruleset's words.
    pub fn disqualify(&mut self, player: PlayerId) -> Result<EventRuling, RuntimeError> {
        let (t, s) = self
            .locate(player)
            .ok_or(RuntimeError::UnknownPlayer(player))?;
        let chips = self.vacate(t, s).map_or(0, |p| p.chips);
        self.chips_in_play = self.chips_in_play.saturating_sub(chips);
        self.held_rebuys.remove(&player);
        self.absent.remove(&player);
        self.disqualified.insert(player);
        let mut ruling = self.decide("penalty.disqualification_effects", &[]);
        let said = format!(
            "{}; entry {player} leaves the tournament with his {chips} chips: no text gives a disqualified player a finishing place, so he is not placed nor paid and the places go to the players still in",
            ruling.text
        );
        ruling.text = said.clone();
        if let Some(last) = self.rulings.last_mut() {
            last.text = said;
        }
        self.tables.retain(|table| table.players() > 0);
        self.finish_if_won();
        Ok(ruling)
    }

    /// Whether the player was disqualified.
    pub fn is_disqualified(&self, player: PlayerId) -> bool {
        self.disqualified.contains(&player)
    }
}

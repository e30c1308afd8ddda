//! The dealer's cards: the deck as the dealer holds it during a hand — the stub, the burn
//! cards, the cards a ruling took out of play (the muck), cards exposed by accident, cards
//! found face up in the stub (boxed), and board cards turned too early and set aside.
//!
//! Every text deals the same way: one card at a time, clockwise from the first seat left of
//! the button (pt-casino-2007 rule 6, rule 69(a); pt-tournament Art. 35º; ADTP 2012 rule 6;
//! ao-tournament-2025 Art. 35º), and one card burned before the flop, the turn and the river.
//! The dealer keeps that order so that a ruling can speak of *the next card*, *the burn*,
//! *the card that would have been the river* and be carried out on real cards. A ruling's
//! reshuffle is drawn from a generator seeded with the hand's own deck, so a hand replays to
//! the same cards from the table's seed, and the engine holds no randomness of its own.

use crate::cards::{Card, Deck};
use crate::hand::{ActionError, Hand};
use rand::SeedableRng;
use serde::Serialize;

/// What a ruling ordered for the next board cards (a premature card was set aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum BoardPlan {
    /// Deal as usual: burn one, then the street's cards.
    #[default]
    Usual,
    /// The set-aside cards go back into the stub, which is shuffled; the street is dealt with
    /// a burn or without one, as the text says.
    ReturnThenDeal {
        /// Burn a card before the street.
        burn: bool,
    },
    /// The street is dealt as usual from the stub (so the card that would have come next is
    /// used); the set-aside cards then go back into the stub, which is shuffled, and the
    /// following street is dealt with a burn or not (pt-casino-2007 rule 70(e)).
    DealThenReturn {
        /// Burn a card before the street after.
        next_burn: bool,
    },
    /// The next street is dealt after `0`, `1` or `2` burns: later cards are those that would
    /// have come without a dealer's error (a burn missed or made twice on the street before).
    Burns(u8),
}

/// One street as the dealer dealt it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreetDeal {
    /// The burn cards made before it (one as a rule).
    pub burns: Vec<Card>,
    /// Whether the burn was the card a ruling set aside as the next burn (not off the stub).
    pub burn_set_aside: bool,
    /// The cards turned.
    pub cards: Vec<Card>,
}

/// The deck as the dealer holds it during a hand.
#[derive(Clone, Debug)]
pub struct Dealer {
    pub(super) stub: Deck,
    pub(super) burns: Vec<Card>,
    pub(super) muck: Vec<Card>,
    exposed: Vec<Card>,
    boxed: Vec<Card>,
    pub(super) set_aside: Vec<Card>,
    /// A card a ruling made the next street's burn (an exposed hole card, rule 70(c)).
    pub(super) next_burn: Option<Card>,
    pub(super) plan: BoardPlan,
    /// How each street was dealt: what was burned and what was turned, so that a reported
    /// dealer's error is measured against what he should have done.
    pub(super) streets: Vec<StreetDeal>,
    /// The seed of every reshuffle ordered in this hand (from the deck's own order).
    seed: u64,
    reshuffles: u64,
}

/// The dealer's cards as anyone at the table may see them (the stub only as a count).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DealerView {
    /// Cards left in the stub.
    pub stub: usize,
    /// The burn cards, in order (face down at a real table; counted by everyone).
    pub burns: usize,
    /// Cards a ruling took out of play.
    pub muck: usize,
    /// Cards exposed by accident, face up for everyone.
    pub exposed: Vec<String>,
    /// Cards found face up in the stub.
    pub boxed: Vec<String>,
    /// Board cards turned too early and set aside (face up).
    pub set_aside: Vec<String>,
}

fn names(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::to_string).collect()
}

impl Dealer {
    /// The dealer with `deck` in hand, nothing dealt yet.
    pub fn new(deck: Deck) -> Dealer {
        // The deck's own order seeds any reshuffle a ruling orders: the same deal, the same
        // reshuffle (FNV-1a over the card indices).
        let seed = deck.cards().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
            (h ^ u64::from(c.index())).wrapping_mul(0x0100_0000_01b3)
        });
        Dealer {
            stub: deck,
            burns: Vec::new(),
            muck: Vec::new(),
            exposed: Vec::new(),
            boxed: Vec::new(),
            set_aside: Vec::new(),
            next_burn: None,
            plan: BoardPlan::Usual,
            streets: Vec::new(),
            seed,
            reshuffles: 0,
        }
    }

    /// Cards left in the stub.
    pub fn stub_len(&self) -> usize {
        self.stub.remaining()
    }

    /// The next `n` cards of the stub, in order (what a ruling about *the next card* means).
    pub fn next_cards(&self, n: usize) -> Vec<Card> {
        self.stub.peek(n)
    }

    /// The burn cards, in order.
    pub fn burns(&self) -> &[Card] {
        &self.burns
    }

    /// Cards exposed by accident.
    pub fn exposed(&self) -> &[Card] {
        &self.exposed
    }

    /// Board cards turned too early and set aside.
    pub fn set_aside(&self) -> &[Card] {
        &self.set_aside
    }

    /// Cards a ruling took out of play.
    pub fn muck(&self) -> &[Card] {
        &self.muck
    }

    /// Cards found face up in the stub.
    pub fn boxed(&self) -> &[Card] {
        &self.boxed
    }

    /// The card a ruling already made the next burn, if any.
    pub fn pending_burn(&self) -> Option<Card> {
        self.next_burn
    }

    /// This dealer with `cards` shuffled by `previous`'s reshuffle generator (a misdeal's
    /// redeal: the same deal always redeals the same cards).
    pub fn reshuffle_from(&mut self, previous: &Dealer, cards: &[Card]) {
        self.seed = previous.seed;
        self.reshuffles = previous.reshuffles;
        self.reshuffle(cards);
    }

    /// The plan for the next board cards.
    pub fn plan(&self) -> BoardPlan {
        self.plan
    }

    /// What everyone at the table may see of the dealer's cards.
    pub fn view(&self) -> DealerView {
        DealerView {
            stub: self.stub.remaining(),
            burns: self.burns.len(),
            muck: self.muck.len(),
            exposed: names(&self.exposed),
            boxed: names(&self.boxed),
            set_aside: names(&self.set_aside),
        }
    }

    pub(super) fn draw(&mut self) -> Result<Card, ActionError> {
        self.stub
            .deal()
            .ok_or_else(|| ActionError::Deal("the stub is empty".into()))
    }

    /// Deals every player's hole cards, one card at a time from the first position (left of
    /// the button) round to the button, as many rounds as the game has hole cards.
    pub fn deal_hole(&mut self, hand: &mut Hand) -> Result<(), ActionError> {
        let players = hand.config().players();
        let per = hand.config().variant.hole_cards();
        let stub = std::mem::replace(&mut self.stub, Deck::from_order(&[]));
        self.stub = stub.stacked(players, per);
        let mut cards = vec![[None; 4]; players];
        for round in 0..per {
            for slot in cards.iter_mut() {
                slot[round] = Some(self.draw()?);
            }
        }
        for (p, slot) in cards.iter().enumerate() {
            hand.deal_hole(p, &slot[..per])?;
        }
        Ok(())
    }

    /// Deals the board cards the hand waits for (a burn first, unless a ruling said
    /// otherwise). Returns `Ok(false)` when the hand waits for none.
    pub fn deal_board(&mut self, hand: &mut Hand) -> Result<bool, ActionError> {
        let Some(k) = hand.board_cards_due() else {
            return Ok(false);
        };
        let burns = match std::mem::take(&mut self.plan) {
            BoardPlan::Usual => 1,
            BoardPlan::ReturnThenDeal { burn } => {
                self.return_set_aside();
                u8::from(burn)
            }
            // This street as usual; the set-aside cards go back before the next one.
            BoardPlan::DealThenReturn { next_burn } => {
                self.plan = BoardPlan::ReturnThenDeal { burn: next_burn };
                1
            }
            BoardPlan::Burns(n) => n,
        };
        let street = self.deal_street(burns, k)?;
        hand.deal_board(&street.cards)?;
        self.streets.push(street);
        Ok(true)
    }

    /// Burns `burns` cards (the one a ruling set aside first) and turns `k`.
    pub(super) fn deal_street(&mut self, burns: u8, k: usize) -> Result<StreetDeal, ActionError> {
        let mut street = StreetDeal {
            burns: Vec::with_capacity(usize::from(burns)),
            burn_set_aside: false,
            cards: Vec::with_capacity(k),
        };
        for _ in 0..burns {
            let card = match self.next_burn.take() {
                Some(card) => {
                    street.burn_set_aside = true;
                    card
                }
                None => self.draw()?,
            };
            self.burns.push(card);
            street.burns.push(card);
        }
        for _ in 0..k {
            street.cards.push(self.draw()?);
        }
        Ok(street)
    }

    /// Puts the set-aside cards back into the stub and shuffles it.
    fn return_set_aside(&mut self) {
        let back = std::mem::take(&mut self.set_aside);
        self.reshuffle(&back);
    }

    /// Shuffles `returned` into the stub with this hand's reshuffle generator.
    pub fn reshuffle(&mut self, returned: &[Card]) {
        let mut rng = self.next_rng();
        self.stub.shuffle_in(returned, &mut rng);
    }

    /// The generator of this hand's next shuffle (a reshuffle, a card drawn at random by
    /// the floor): from the deck's own order, so the same deal always draws the same.
    pub(super) fn next_rng(&mut self) -> rand_chacha::ChaCha8Rng {
        self.reshuffles += 1;
        rand_chacha::ChaCha8Rng::seed_from_u64(self.seed.wrapping_add(self.reshuffles))
    }

    /// The dealer turns board cards too early: the burn due (unless it was made) and `count`
    /// cards come off the stub and are set aside, face up. Returns the burn and the cards.
    pub fn turn_early(&mut self, count: usize) -> Result<(Option<Card>, Vec<Card>), ActionError> {
        let burn = match self.next_burn.take() {
            Some(card) => card,
            None => self.draw()?,
        };
        self.burns.push(burn);
        let cards = (0..count)
            .map(|_| self.draw())
            .collect::<Result<Vec<_>, _>>()?;
        self.set_aside.extend_from_slice(&cards);
        Ok((Some(burn), cards))
    }

    /// Carries out the plan a ruling gave for cards set aside.
    pub fn plan_board(&mut self, plan: BoardPlan, burn_returned: bool) {
        if burn_returned {
            if let Some(burn) = self.burns.pop() {
                self.set_aside.push(burn);
            }
        }
        self.plan = plan;
    }

    /// A hole card exposed in the deal is replaced from the stub and becomes the next
    /// street's burn (pt-casino-2007 rule 70(c)). Returns the replacement.
    pub fn replace_exposed(&mut self, card: Card) -> Result<Card, ActionError> {
        let replacement = self.draw()?;
        self.exposed.push(card);
        self.next_burn = Some(card);
        Ok(replacement)
    }

    /// A card shown face up that stays in play (a player showed his own card).
    pub fn note_exposed(&mut self, card: Card) {
        self.exposed.push(card);
    }

    /// Cards taken out of play by a ruling (a dead hand's cards).
    pub fn to_muck(&mut self, cards: &[Card]) {
        self.muck.extend_from_slice(cards);
    }

    /// Every card the dealer holds or dealt face down or aside — with the hand's board and
    /// hole cards, the 52: the stub, burns, muck, set-aside and boxed cards.
    pub fn accounted(&self) -> usize {
        self.stub.remaining()
            + self.burns.len()
            + self.muck.len()
            + self.set_aside.len()
            + self.boxed.len()
            + usize::from(self.next_burn.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::hand::HandConfig;
    use crate::rules::DefaultRules;
    use std::sync::Arc;

    fn hand(players: usize) -> Hand {
        let config = HandConfig::holdem(vec![100; players], players - 1, 1, 2);
        Hand::new(config, Arc::new(DefaultRules)).expect("a hand")
    }

    /// Every text deals one card at a time from the first seat left of the button, and burns
    /// before each street (pt-casino-2007 rule 6, rule 69(a)).
    #[test]
    fn one_card_at_a_time_and_a_burn_before_each_street() {
        let order = parse_cards("AhQs7c9hKhQd2d9d2c2s5s9c2hTc3cJd").expect("cards");
        let mut dealer = Dealer::new(Deck::from_order(&order));
        let mut h = hand(4);
        dealer.deal_hole(&mut h).expect("hole cards");
        let hole = |p: usize| format_hole(h.hole_cards(p));
        assert_eq!(
            [hole(0), hole(1), hole(2), hole(3)],
            ["AhKh", "QsQd", "7c2d", "9h9d"]
        );
        for p in [2, 3, 0] {
            h.act(p, crate::hand::Action::Call).expect("call");
        }
        h.act(1, crate::hand::Action::Check).expect("check");
        assert!(dealer.deal_board(&mut h).expect("flop"));
        assert_eq!(crate::cards::format_cards(h.board()), "2s5s9c");
        assert_eq!(crate::cards::format_cards(dealer.burns()), "2c");
        assert_eq!(dealer.stub_len(), 16 - 8 - 4);
    }

    fn format_hole(cards: &[Option<Card>]) -> String {
        cards.iter().flatten().map(Card::to_string).collect()
    }

    /// A deck written as a record writes it deals the written hole cards and board.
    #[test]
    fn a_written_deck_deals_the_written_cards() {
        let order = parse_cards("AhKhQsQd7c2d9h9d2s5s9cTcJd").expect("cards");
        let mut full = order.clone();
        full.extend(Card::all().filter(|c| !order.contains(c)));
        let mut dealer = Dealer::new(Deck::written(&full));
        let mut h = hand(4);
        dealer.deal_hole(&mut h).expect("hole cards");
        assert_eq!(format_hole(h.hole_cards(3)), "9h9d");
        assert_eq!(
            dealer.next_cards(4),
            parse_cards("2c2s5s9c").expect("cards")
        );
        assert_eq!(dealer.stub_len() + 8, 52);
    }
}

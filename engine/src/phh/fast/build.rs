//! The last step of reading a hand: the general reader's checks on the whole hand, then
//! every amount turned into chips at the hand's scale.

use super::{seen, FastReader, Raw, ANTES, BLINDS, FINISHING, STACKS, WINNINGS};
use crate::phh::amount::{Scale, MAX_DECIMALS};
use crate::phh::hand::{required_by_variant, PhhHand, Stack};
use crate::phh::notation::Action;

impl FastReader<'_> {
    /// Checks what the general reader checks once a hand is read, in the same order, and
    /// fills `hand` with the amounts in chips; false where the general reader would refuse
    /// the hand (or where this reader does not follow it).
    pub(super) fn build(
        &mut self,
        hand: &mut PhhHand,
        seen: u32,
        number: usize,
        line: usize,
    ) -> bool {
        if seen & seen::VARIANT == 0
            || seen & seen::LISTS[STACKS] == 0
            || seen & seen::LISTS[ANTES] == 0
            || seen & seen::ACTIONS == 0
        {
            return false;
        }
        let required = self.required_by(&hand.variant);
        if seen & required != required {
            return false;
        }
        let players = self.lens[STACKS];
        if players == 0 {
            return false;
        }
        for which in [ANTES, BLINDS, FINISHING, WINNINGS] {
            let present = seen & seen::LISTS[which] != 0;
            if present && self.lens[which] != players {
                return false;
            }
        }
        if self.lengths.iter().any(|&n| n != players) {
            return false;
        }
        // The scale: the most decimal places any amount needs (none when none is written
        // with decimals: a whole-chip record, scale 1 without the search).
        let decimals = if self.fractions {
            self.decimals_needed()
        } else {
            0
        };
        if decimals > MAX_DECIMALS {
            return false;
        }
        let scale = Scale::from_decimals(decimals).unwrap_or(Scale::ONE);
        // A hand whose actions were streamed has its stacks, antes and blinds filled at
        // scale 1 already ([`Self::fill_setup`]), and its scale is 1.
        let filled = self.streamed;
        if !filled && !self.fill_stacks(&mut hand.starting_stacks, decimals) {
            return false;
        }
        for &(index, amount) in &self.amounts {
            let Some(value) = amount.chips(scale) else {
                return false;
            };
            if let Action::CompleteBetRaiseTo { amount, .. } = &mut hand.actions[index].action {
                *amount = value;
            }
        }
        if !filled
            && (!self.fill(ANTES, &mut hand.antes, decimals)
                || !self.fill(BLINDS, &mut hand.blinds_or_straddles, decimals))
        {
            return false;
        }
        for (which, slot) in [
            (FINISHING, &mut hand.finishing_stacks),
            (WINNINGS, &mut hand.winnings),
        ] {
            // A list read whole at scale 1 is in the hand already (see `whole`).
            let in_place = self.whole & (1 << which) != 0 && decimals == 0;
            if seen & seen::LISTS[which] == 0 {
                *slot = None;
            } else if !in_place && !self.fill(which, slot.get_or_insert_with(Vec::new), decimals) {
                return false;
            }
        }
        let mut singles = [None; 4];
        for (value, raw) in singles.iter_mut().zip(&self.singles) {
            if let Some(d) = raw {
                match chips(&Raw::Amount(*d), decimals) {
                    Some(c) => *value = Some(c),
                    None => return false,
                }
            }
        }
        [hand.bring_in, hand.small_bet, hand.big_bet, hand.min_bet] = singles;
        hand.number = Some(number);
        hand.line = line;
        hand.scale = scale;
        // Tested first: clearing an empty list of fields is still a call to drop them.
        if !hand.fields.is_empty() {
            hand.fields.clear();
        }
        if !hand.field_order.is_empty() {
            hand.field_order.clear();
        }
        true
    }

    /// Per-player list `which` in chips at `decimals` decimal places, into `out`: a list
    /// read whole is there already at scale 1, and rescaled; one read as written is
    /// converted. False where an amount is not whole at that scale or does not fit.
    fn fill(&self, which: usize, out: &mut Vec<i64>, decimals: u32) -> bool {
        if self.whole & (1 << which) != 0 {
            return decimals == 0 || rescale(out, decimals);
        }
        out.clear();
        out.reserve(self.lists[which].len());
        for raw in &self.lists[which] {
            match chips(raw, decimals) {
                Some(c) => out.push(c),
                None => return false,
            }
        }
        true
    }

    /// The starting stacks at `decimals` decimal places, as [`Self::fill`] fills the
    /// other lists (`inf` an unknown stack; a negative one refused).
    fn fill_stacks(&self, out: &mut Vec<Stack>, decimals: u32) -> bool {
        if self.whole & (1 << STACKS) != 0 {
            if decimals == 0 {
                return true;
            }
            let Some(factor) = 10i64.checked_pow(decimals) else {
                return false;
            };
            for stack in out.iter_mut() {
                if let Stack::Chips(c) = stack {
                    let scaled = i64::try_from(*c).ok().and_then(|c| c.checked_mul(factor));
                    match scaled.map(u64::try_from) {
                        Some(Ok(value)) => *c = value,
                        _ => return false,
                    }
                }
            }
            return true;
        }
        out.clear();
        for raw in &self.lists[STACKS] {
            let stack = match raw {
                Raw::Inf => Stack::Unknown,
                Raw::Amount(_) => match chips(raw, decimals).map(u64::try_from) {
                    Some(Ok(c)) => Stack::Chips(c),
                    _ => return false,
                },
            };
            out.push(stack);
        }
        true
    }

    /// The bits of the fields `variant` requires (see [`required_by_variant`]), kept for
    /// the variant last asked about (a corpus is one variant): a bit no field sets for a
    /// field this reader does not type, which no hand then has.
    fn required_by(&mut self, variant: &str) -> u32 {
        // The hand's variant is the code `variant_word` spells, when that is not 0 (the
        // last variant read is the hand's).
        let word = self.variant_word;
        if word != 0 && self.required_by_word.0 == word {
            return self.required_by_word.1;
        }
        let bits = self.required_by_name(variant);
        if word != 0 {
            self.required_by_word = (word, bits);
        }
        bits
    }

    /// [`Self::required_by`] for a variant by its name.
    fn required_by_name(&mut self, variant: &str) -> u32 {
        if let Some((last, bits)) = &self.required {
            if last == variant {
                return *bits;
            }
        }
        let bits = required_by_variant(variant)
            .iter()
            .map(|key| match *key {
                "blinds_or_straddles" => seen::LISTS[BLINDS],
                "bring_in" => seen::SINGLES[0],
                "small_bet" => seen::SINGLES[1],
                "big_bet" => seen::SINGLES[2],
                "min_bet" => seen::SINGLES[3],
                _ => seen::NEVER,
            })
            .fold(0, |bits, bit| bits | bit);
        self.required = Some((variant.to_owned(), bits));
        bits
    }

    /// The most decimal places any amount of the hand needs: its scale.
    fn decimals_needed(&self) -> u32 {
        let mut decimals = 0;
        let all = self.lists.iter().flatten().filter_map(|raw| match raw {
            Raw::Amount(d) => Some(d),
            Raw::Inf => None,
        });
        for d in all.chain(self.singles.iter().flatten()) {
            decimals = decimals.max(d.decimals_needed());
        }
        for (_, amount) in &self.amounts {
            decimals = decimals.max(amount.decimals_needed());
        }
        decimals
    }
}

/// An amount as written in chips at `decimals` decimal places, if whole and within an
/// `i64` (`inf` has none).
#[inline]
fn chips(raw: &Raw, decimals: u32) -> Option<i64> {
    match raw {
        // Written at the hand's scale (every amount of a whole-chip record): as it is,
        // without the call that rescales the others.
        Raw::Amount(d) if d.frac == decimals => Some(d.mantissa),
        Raw::Amount(d) => d.chips(decimals),
        Raw::Inf => None,
    }
}

/// Whole amounts read at scale 1 (no decimals), at `decimals` decimal places: what
/// [`super::numbers::Small::chips`] gives each; false when one does not fit an `i64`.
fn rescale(values: &mut [i64], decimals: u32) -> bool {
    let Some(factor) = 10i64.checked_pow(decimals) else {
        return false;
    };
    for value in values {
        match value.checked_mul(factor) {
            Some(scaled) => *value = scaled,
            None => return false,
        }
    }
    true
}

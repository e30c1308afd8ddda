//! The shared vocabulary of penalties: the offence a floor reports, the rule point that rules
//! on it, and the [`Sanction`] given — the same words for every ruleset, so that a penalty is
//! served the same way at any table and two texts' penalties compare as hands missed or seats
//! emptied, not as sentences. Which sanction a text allows, how it escalates, how many hands
//! it costs and how it is served stay each ruleset's, read at the points
//! `penalty.catalogue_and_escalation`, `penalty.missed_hands_formula` and `penalty.serving`.

use serde::Serialize;

/// A sanction a player is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sanction {
    /// A warning: nothing served, but remembered for escalation.
    Warning,
    /// A number of hands out.
    Hands(u32),
    /// A number of orbits (rounds) out: the hands are counted by the text's formula when the
    /// penalty starts.
    Orbits(u32),
    /// The player must leave the table, taking his chips (pt-casino-2007 rule 58; pt-online
    /// rule 71, the session ended).
    LeaveTable,
    /// Disqualified: his chips are taken out of play as the text says.
    Disqualification,
}

/// The most hands or orbits a sanction may name (a bound on what a caller can send).
pub const MAX_SANCTION_LENGTH: u32 = 100;

impl Sanction {
    /// A sanction written as the floor gives it: `warning`, `hands 2`, `orbits 1` (or
    /// `rounds 1`), `leave_table`, `disqualification`.
    pub fn parse(text: &str) -> Result<Sanction, String> {
        let mut words = text.split_whitespace();
        let kind = words.next().unwrap_or("");
        let length = |n: Option<&str>| -> Result<u32, String> {
            let n: u32 = n
                .ok_or_else(|| format!("`{text}`: say how many (`{kind} 2`)"))?
                .parse()
                .map_err(|_| format!("`{text}`: the length is a whole number"))?;
            if n == 0 || n > MAX_SANCTION_LENGTH {
                return Err(format!(
                    "`{text}`: the length is from 1 to {MAX_SANCTION_LENGTH}"
                ));
            }
            Ok(n)
        };
        let sanction = match kind {
            "warning" => Sanction::Warning,
            "hands" | "hand" => Sanction::Hands(length(words.next())?),
            "orbits" | "orbit" | "rounds" | "round" => Sanction::Orbits(length(words.next())?),
            "leave_table" => Sanction::LeaveTable,
            "disqualification" => Sanction::Disqualification,
            _ => {
                return Err(format!(
                "`{text}` is not a sanction: warning, hands N, orbits N, leave_table or disqualification"
            ))
            }
        };
        if words.next().is_some() {
            return Err(format!("`{text}`: one sanction, e.g. `orbits 1`"));
        }
        Ok(sanction)
    }

    /// The sanction's kind as the catalogues list it (`warning`, `hands`, `orbits`,
    /// `leave_table`, `disqualification`).
    pub fn kind(&self) -> &'static str {
        match self {
            Sanction::Warning => "warning",
            Sanction::Hands(_) => "hands",
            Sanction::Orbits(_) => "orbits",
            Sanction::LeaveTable => "leave_table",
            Sanction::Disqualification => "disqualification",
        }
    }
}

impl std::fmt::Display for Sanction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sanction::Hands(n) | Sanction::Orbits(n) => write!(f, "{} {n}", self.kind()),
            other => f.write_str(other.kind()),
        }
    }
}

/// The offences a floor reports with the rule point that rules on each; any other offence
/// is ruled on at `penalty.triggers` (the text's list of grounds for a penalty).
pub const OFFENCE_POINTS: &[(&str, &str)] = &[
    ("exposing_cards", "conduct.exposing_cards"),
    ("improper_folding", "conduct.proper_folding"),
    ("slow_play", "time.slow_play_sanction"),
    ("dodging_blind", "blinds.dodging"),
];

/// The rule point that rules on `offence`.
pub fn offence_point(offence: &str) -> &'static str {
    OFFENCE_POINTS
        .iter()
        .find(|(o, _)| *o == offence)
        .map_or("penalty.triggers", |(_, p)| p)
}

/// What an offence point's ruling says of a penalty: the text gives the sanction itself
/// (pt-casino-2007 rule 71(a): a warning, then leaving the table), opens the catalogue (the
/// offence may be penalised), or rules no penalty at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffenceRuled {
    /// The text's own sanction.
    Sanction(Sanction),
    /// A penalty from the catalogue may be given.
    Penalty,
    /// No penalty: the ruling stands in words.
    NoPenalty,
}

/// Reads an offence point's ruling (its outcome and fields).
pub fn offence_ruled(
    outcome: &str,
    fields: &std::collections::BTreeMap<String, String>,
) -> OffenceRuled {
    match outcome {
        "warning" => OffenceRuled::Sanction(Sanction::Warning),
        "leave_table" => OffenceRuled::Sanction(Sanction::LeaveTable),
        "disqualification" => OffenceRuled::Sanction(Sanction::Disqualification),
        "penalty" | "not_allowed" => OffenceRuled::Penalty,
        _ if fields.contains_key("penalty") => OffenceRuled::Penalty,
        _ => OffenceRuled::NoPenalty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sanction_is_read_from_the_floors_words() {
        assert_eq!(Sanction::parse("orbits 2"), Ok(Sanction::Orbits(2)));
        assert_eq!(Sanction::parse("rounds 1"), Ok(Sanction::Orbits(1)));
        assert_eq!(Sanction::parse("warning"), Ok(Sanction::Warning));
        assert!(Sanction::parse("orbits 0").is_err());
        assert!(Sanction::parse("orbits").is_err());
        assert!(Sanction::parse("fine 100").is_err());
        assert_eq!(Sanction::Hands(3).to_string(), "hands 3");
    }

    #[test]
    fn harsher_sanctions_order_after_lighter_ones() {
        assert!(Sanction::Warning < Sanction::Hands(1));
        assert!(Sanction::Hands(9) < Sanction::Orbits(1));
        assert!(Sanction::Orbits(1) < Sanction::Orbits(2));
        assert!(Sanction::Orbits(4) < Sanction::Disqualification);
    }
}

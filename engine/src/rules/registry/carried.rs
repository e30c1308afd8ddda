//! Whether the engine carries out each rule point's ruling: a ruling that changes the table is
//! either carried out by the engine (the hand, the dealer's cards, the cash table or the
//! tournament change as the text says), or left as words with the reason written here; some
//! points change nothing at a table at all (a language, attire, a ranking's paperwork).
//!
//! The lists are kept by hand beside the code that carries each point out; a test checks
//! that every registered point is classified once and every id here is registered.

use super::{Area, RulePoint};
use serde::Serialize;

/// What the engine does with a point's ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Carried {
    /// The engine carries the ruling out on the table.
    CarriedOut,
    /// The ruling changes nothing the table holds (people, paper, equipment).
    NothingToCarryOut,
    /// The ruling is given in words only; `why` says why it is not carried out.
    RulingOnly,
}

/// A point's status with the reason or the place that carries it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Carrying {
    /// The status.
    pub status: Carried,
    /// Where it is carried out, or why not.
    pub why: &'static str,
}

/// Points the hand state machine plays itself on every hand (betting, all-in, pots, showdown).
const HAND: &[&str] = &[
    "betting.structure",
    "betting.min_raise",
    "betting.pot_limit_max",
    "betting.raise_cap",
    "betting.first_to_act",
    "allin.reopening",
    "allin.side_pots",
    "allin.cards_face_up",
    "showdown.order",
    "showdown.odd_chip",
    "showdown.uncontested_pot",
    "variant.offered_games",
    "blinds.positions_and_amounts",
    "button.heads_up",
];

/// The settlement: a tied pot divided as the text says, and a settled hand corrected.
const SETTLEMENT: &[&str] = &[
    "showdown.split_pot_division",
    "pot.disputes_window",
    "allin.hidden_chip_found_later",
];

/// Chips and words at the table: the ruling is an action applied to the hand.
const ACTION: &[&str] = &[
    "action.verbal_vs_chips",
    "action.amount_only_declaration",
    "action.general_declarations_binding",
    "action.undercall_far_below_bet",
    "action.insufficient_call",
    "action.amount_without_raise_word",
    "action.raise_amount_is_total",
    "action.single_oversized_chip",
    "action.multiple_chips",
    "action.uncollected_previous_bet",
    "action.overbet_for_change",
    "action.ambiguous_amount",
];

/// Actions played at the table out of turn or against the menu: the ruling is carried out on
/// the hand (held for the turn, released, bound, killed or capped).
const PLAYED: &[&str] = &[
    "action.out_of_turn",
    "action.skipped_turn",
    "action.unusual_folds",
];

/// How an action in turn was made — the words said first, the chips motion by motion — played
/// in as the event `Acted`: the ruling reads what the action amounts to and it is put in.
const MANNER: &[&str] = crate::events::MANNER_POINTS;

/// The dealer's cards: the remedy is carried out on the hand and the dealer's cards.
const DEALER: &[&str] = &[
    "deal.order",
    "deal.misdeal_conditions",
    "deal.exposed_card_during_deal",
    "deal.misdeal_redeal",
    "deal.misdeal_cutoff",
    "deal.button_short_card",
    "deck.corrupted_or_foreign_cards",
    "board.premature_flop",
    "board.premature_turn",
    "board.premature_river",
    "board.premature_card_action_cap",
];

/// The dealer's errors with the cards: the error is played out on the dealer's cards from
/// the record of how each street was dealt, and the remedy is carried out.
const DEALER_ERRORS: &[&str] = &[
    "board.missing_burn_flop",
    "board.missing_burn_turn_or_river",
    "board.too_many_burns",
    "board.too_many_cards_turn_or_river",
    "board.four_card_flop",
    "deck.disordered_stub",
    "hand.fouled_or_mixed_cards",
];

/// How hands are valued: the hand's evaluator applies it at every showdown.
const EVALUATOR: &[&str] = &["variant.hole_card_usage", "variant.hand_ranking_and_ties"];

/// The tournament director's tables: which table gives a player, when the final table forms.
const TOURNAMENT_TABLES: &[&str] = &["table.balancing.source_table", "table.final_table_size"];

/// A seat holds one player and a player one seat.
const SEATING: &[&str] = &["seating.one_player_per_seat"];

/// How a move is made (quickly, chips in racks): the move itself is the director's.
const MOVING: &[&str] = &["table.moving_players_procedure"];

/// The player to act: his clock ran out (his hand killed or checked, or, where the text answers
/// slowness with a sanction, he is warned or sent from the table when the hand ends) or he is
/// away when the action reaches him.
const TURN: &[&str] = &[
    "time.call_clock",
    "time.shot_clock",
    "time.online_timeout",
    "presence.at_seat_for_live_hand",
];

/// A seat the dealer names, whoever is to act: away when the deal ended (killed, blinds and
/// antes left in the pot), away from the seat with a live hand (noted, the hand live), a post
/// found missing after the deal (posted late, or taken back and the hand killed)
/// (`crate::events::PRESENCE_POINTS`).
const NAMED_SEAT: &[&str] = crate::events::PRESENCE_POINTS;

/// One seat's hand at a showdown the dealer calls: shown (live, its cards speak) or dead, as
/// the text rules; the pots go to the best live hand (`crate::events::SHOWDOWN_POINTS`).
const SHOWDOWN: &[&str] = crate::events::SHOWDOWN_POINTS;

/// The cash table's session: seats, button, blinds owed, commission, buy-ins.
const CASH: &[&str] = &[
    "table.seats_per_table",
    "table.min_players",
    "seating.initial_draw",
    "seating.vacancy_and_table_change",
    "seating.new_player_entry",
    "button.initial_position_and_rotation",
    "button.dead_button",
    "blinds.missed_blinds",
    "blinds.inactivity_forced_post",
    "presence.sit_out_and_inactivity",
    "cash.rake.mode_and_bounds",
    "cash.rake.no_flop_no_drop",
    "cash.rake.split_payments",
    "cash.session_definition",
    "cash.buy_in.initial_and_rebuy_amounts",
    "cash.buy_in.joining_mid_game",
    "cash.rebuy_below_minimum",
    "online.communication_failure",
    "online.session_termination",
];

/// The tournament director: entries, levels, tables, prizes.
const TOURNAMENT: &[&str] = &[
    "seating.wrong_seat",
    "table.balancing.player_selection",
    "table.balancing.stop_play_threshold",
    "table.breaking.reseat",
    "table.breaking.absent_player_chips",
    "time.hand_for_hand_clock",
    "tournament.buy_in_and_fee",
    "tournament.levels.structure",
    "tournament.levels.change_timing",
    "tournament.late_registration",
    "tournament.reentry",
    "tournament.rebuy.declaration",
    "tournament.modality.freeze_out",
    "tournament.modality.rebuy_addon",
    "tournament.modality.knockout_bounty",
    "tournament.modality.satellite",
    "tournament.modality.win_the_button",
    "tournament.modality.ante_up",
    "tournament.modality.escalator",
    "tournament.modality.sit_and_go",
    "tournament.modality.survivor",
    "tournament.modality.multistack",
    "tournament.xtrastack",
    "tournament.chip_up_color_up",
    "tournament.chip_race",
    "tournament.hand_for_hand",
    "tournament.bubble_same_hand_eliminations",
    "tournament.prize_pool",
    "tournament.payout_table",
    "prize.chop_deals",
];

/// Rulings about people, paper or equipment: nothing the table holds changes.
const NOTHING: &[&str] = &[
    "governance.final_authority",
    "governance.gap_filling",
    "governance.operator_may_change_terms",
    "governance.uncovered_error_randomisation",
    "player.responsibilities",
    "conduct.language",
    "action.official_terminology",
    "conduct.electronic_devices",
    "conduct.identification_and_attire",
    "conduct.personal_objects_on_table",
    "conduct.spectators_and_eliminated_players",
    "seating.special_needs",
    "table.equipment_and_seat_numbering",
    "table.mixed_games",
    "deck.composition_and_shufflers",
    "deck.change",
    "deck.shuffle_cut_and_protection",
    "hand.start_definition",
    "action.substantial_action_definition",
    "deal.consecutive_cards_to_button",
    "board.burn_policy",
    "board.rabbit_hunting",
    // When the dealers rotate (breaks, level changes) concerns the staff, not the cards or
    // the chips.
    "time.dealer_push_timing",
    "betting.pot_size_information",
    "betting.dealer_bet_handling_and_announcement",
    "action.wait_for_clarity",
    "action.recheck_own_cards",
    "allin.chip_count_request",
    "allin.all_in_buttons",
    "pot.no_split_by_agreement",
    "conduct.soft_play_checking_nuts",
    "conduct.soft_play_and_check_down",
    "conduct.collusion_and_chip_dumping",
    "conduct.one_player_per_hand",
    "conduct.behaviour_catalogue",
    "conduct.chip_custody",
    "conduct.chip_insertion_removal_lending",
    "conduct.discrimination_reporting",
    "tournament.registration_and_checkin",
    "tournament.start_duration_and_days",
    "tournament.breaks",
    "tournament.media_and_publicity_consent",
    "ranking.points",
    "ranking.quarterly_final",
    "ranking.claims_window",
    "online.player_information_duties",
    "online.demo_play",
    "variant.synthetic_poker",
    "variant.stud_razz_specific",
];

/// Penalties given by the floor as the event `PenaltyGiven` and served by the table between
/// hands (`crate::table::Penalties`): the offence ruled, the sanction from the catalogue after
/// the player's earlier penalties, its start, its hands counted and served, a disqualified or
/// removed player taken from his seat.
const PENALTIES: &[&str] = &[
    "penalty.missed_hands_formula",
    "penalty.serving",
    "penalty.timing",
    "penalty.catalogue_and_escalation",
    "penalty.triggers",
    "penalty.disqualification_effects",
    "conduct.exposing_cards",
    "conduct.proper_folding",
    "time.slow_play_sanction",
    "blinds.dodging",
];

/// Every id the lists above name (for the registry's consistency test).
#[cfg(test)]
pub(super) fn classified() -> impl Iterator<Item = &'static str> {
    [
        HAND,
        ACTION,
        PLAYED,
        MANNER,
        DEALER,
        TURN,
        SHOWDOWN,
        CASH,
        TOURNAMENT,
        NOTHING,
        DEALER_ERRORS,
        NAMED_SEAT,
        EVALUATOR,
        TOURNAMENT_TABLES,
        SEATING,
        MOVING,
        SETTLEMENT,
        PENALTIES,
    ]
    .into_iter()
    .flatten()
    .copied()
}

/// What the engine does with `point`'s ruling.
pub fn carrying(point: &RulePoint) -> Carrying {
    let id = point.id;
    let is = |list: &[&str]| list.contains(&id);
    let (status, why) = if is(HAND) {
        (
            Carried::CarriedOut,
            "played by the hand state machine on every hand",
        )
    } else if is(SETTLEMENT) {
        (
            Carried::CarriedOut,
            "carried out at the settlement: a tied pot is paid in the parts the text makes (equal, in units of the smallest chip in play or of the table minimum, what cannot be divided to one winner or one unit each in turn from him); a claim or a chip found after the pots are awarded is reported between hands on the hand just settled, the ruleset deciding whether it is in time (refused with the article when not) and the table changing the seats' stacks as ruled, the settled hand's record kept and the correction added to its log",
        )
    } else if is(ACTION) {
        (
            Carried::CarriedOut,
            "the ruling is an action applied to the hand (chips and words; chips a text leaves in the pot short of a call go in, and the player may complete or fold)",
        )
    } else if is(PLAYED) {
        (
            Carried::CarriedOut,
            "played in as an event and carried out on the hand: an action out of turn that binds is held and put in at the player's turn, and asked about again when a bet or raise comes in before it (released, or its chips standing); a skipped player's hand is killed or capped at calling as ruled; a fold when a check was possible folds",
        )
    } else if is(MANNER) {
        (
            Carried::CarriedOut,
            "played in as the event `Acted` (the words said first, the chips motion by motion) and carried out on the hand: the ruling reads what the action amounts to — as made, its first motion only, a call, a check, a raise completed to the ruled amount, at least the minimum bet — and it is put in; where the text leaves it to the floor the hand waits for a `FloorRuling`",
        )
    } else if is(DEALER) {
        (Carried::CarriedOut, "carried out on the hand and the dealer's cards (misdeal redealt or voided, exposed card replaced, premature cards set aside and returned, call-only cap in the legal menu)")
    } else if is(TURN) {
        (
            Carried::CarriedOut,
            "ruled on the player to act: a dead hand folds in turn, a forced check checks; where the text answers slowness with a sanction (a warning, then leaving the table) it is given as a penalty for slow play, read from and added to the table's record of his earlier ones, and a player sent away leaves with his chips when the hand ends",
        )
    } else if is(NAMED_SEAT) {
        (
            Carried::CarriedOut,
            "carried out on the seat the dealer names, whoever is to act: a player away when the last card of the deal fell has his hand killed where the text says so, his blinds and antes staying in the pot; a player who leaves his seat with a live hand is noted away and his hand stays live, as no text kills it for that (the conduct is a penalty, ruled in words); a post found missing after the deal is posted late to play, or taken back off the table and the hand killed (where it cannot be told whose post is missing the hand plays on as dealt: the table holds no record of whose chips were not there)",
        )
    } else if is(SHOWDOWN) {
        (
            Carried::CarriedOut,
            "carried out on the hand at a showdown the dealer calls: the seat's hand is shown (live, its cards speak) or dead as the text rules, and the pots go to the best live hand",
        )
    } else if is(CASH) {
        (
            Carried::CarriedOut,
            "played by the cash table's session (seats, button, blinds owed, commission, buy-ins)",
        )
    } else if is(TOURNAMENT) {
        (
            Carried::CarriedOut,
            "played by the tournament director (entries, levels, tables, prizes)",
        )
    } else if is(DEALER_ERRORS) {
        (
            Carried::CarriedOut,
            "the caller says what the dealer did; the dealer's cards record what he should have done (each street's burn and cards), so the error is played out on them and the remedy carried out: the board corrected, standing with one burn more or fewer before the next street, dealt again, or a burn drawn at random from the cards turned; a disordered stub shuffled (with the muck and burns where they cannot be told apart); a fouled hand killed, its chips left in the pot",
        )
    } else if is(EVALUATOR) {
        (
            Carried::CarriedOut,
            "applied by the hand's evaluator at every showdown: Hold'em any five of the seven cards, Omaha exactly two hole cards and three of the board; the standard ranking, the ace high or low in a straight, ties split",
        )
    } else if is(TOURNAMENT_TABLES) {
        (
            Carried::CarriedOut,
            "played by the tournament director: the final table forms when the ruleset's answer on its size says so (asked at table.breaking.reseat with the fact final_table); the texts leave the table that gives a player to a procedure the director fixes beforehand, and the director's is fixed: the highest-numbered of the fullest tables",
        )
    } else if is(SEATING) {
        (
            Carried::CarriedOut,
            "the cash table refuses a second seat, or a place on its waiting list, to a player already seated, citing the ruleset's article; a tournament seats each entry once",
        )
    } else if is(MOVING) {
        (
            Carried::NothingToCarryOut,
            "how a move is made (quickly, chips in racks, small chips exchanged) concerns people and equipment; the move itself is carried out by the tournament director's balancing and breaking",
        )
    } else if is(PENALTIES) {
        (
            Carried::CarriedOut,
            "given by the floor as the event `PenaltyGiven` and carried out by the table across its hands: the offence ruled at its own point (or the text's grounds at penalty.triggers); the sanction read from the text's catalogue, escalated after the player's earlier penalties the table remembers, or left to the floor's `FloorRuling`; started at the next deal; an orbit counted by the text's formula when it starts; served with the player's cards dealt and killed, his blinds and antes staying in the pot; a disqualified player's seat emptied and his chips taken out of play, a player sent from the table leaving with his chips, when the hand in progress ends",
        )
    } else if is(NOTHING) {
        (
            Carried::NothingToCarryOut,
            "the ruling is about people, paper or equipment: nothing the table holds changes",
        )
    } else if let Some(why) = still_words(id) {
        (Carried::RulingOnly, why)
    } else {
        let why = PRESENCE_LEFT
            .iter()
            .find(|(p, _)| *p == id)
            .map_or_else(|| ruling_only_reason(point.area), |(_, why)| why);
        (Carried::RulingOnly, why)
    };
    Carrying { status, why }
}

/// Presence and blinds points still left as words, each with exactly what is missing.
const PRESENCE_LEFT: &[(&str, &str)] = &[
    ("blinds.ante_format", "the big-blind ante is ruled in words: a hand's antes are posted by every player; no hand or table configuration has the big blind post the table's antes, nor settles a big blind short of both blind and antes (ao-tournament-2025 PR-10's ante priority)"),
    ("presence.leave_and_chip_removal", "leaving with chips or taking chips off the table is ruled in words: the cash table takes no event for chips taken off a stack while seated (refused, pt-online rule 11(a)), and its leave-and-return session keeps no stack a player left with to hold him to it on his return (pt-casino-2007 rule 14(h))"),
];
/// Why a point whose area is otherwise carried out is still left as words: exactly what the
/// table lacks to carry it out.
fn still_words(id: &str) -> Option<&'static str> {
    Some(match id {
        "time.time_bank" => "a time bank is ruled in words: the table keeps no player's banked time from hand to hand, so a time event cannot draw it down or renew it yet (the engine reads no clock; time comes in as events)",
        _ => return None,
    })
}

/// Why the points of `area` still left as words are not carried out.
fn ruling_only_reason(area: Area) -> &'static str {
    match area {
        Area::Action => "a conditional statement, a string bet, the ways of raising or calling, a call before the amount is known or a miscalled amount accepted is ruled in words: the event that would carry it out (the motions, the words and amounts in order) is not yet taken by the table",
        Area::Pots | Area::AllIn => "ruled in words: the hand's showdown does not take it as an event",
        Area::Time => "the engine reads no clock; time events are ruled in words and the hand is not yet killed or forced by them",
        Area::Presence => "a player's absence is ruled in words; the hand does not yet kill an absent player's cards",
        Area::Penalties => "ruled in words: the table serves no sanction for it",
        _ => "ruled in words; nothing in the engine applies it yet",
    }
}

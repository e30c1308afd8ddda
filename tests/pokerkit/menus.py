"""PokerKit's legal action menu at every decision point of a PHH file's hands.

Usage: python menus.py FILE.phhs > menus.jsonl

For each hand (in order), one JSON line:
  {"hand": N, "menus": {"I": [actor, to_call, min_to, max_to, can_fold], ...},
   "stacks": [...] or null, "error": null or "why PokerKit refused",
   "applied": how many of the hand's actions PokerKit applied}
where I is the index in `actions` of a betting action (f, cc, cbr) and the menu is the one
PokerKit offers just before it: who acts, what calling costs, the smallest and largest
bet or raise-to amounts (null when raising is not allowed) and whether folding is allowed.
`stacks` are the stacks at the end when PokerKit played the hand to the end.

Besides PHH's codes (NT, PO, FT), the games floor plays under its own codes are defined
here from PokerKit's parts: NO (no-limit omaha), PT (pot-limit hold'em), FO (fixed-limit
omaha, high only).
"""

import json
import sys
import warnings

from pokerkit import HandHistory
from pokerkit.games import (
    FixedLimitPokerMixin,
    Holdem,
    NoLimitPokerMixin,
    OmahaHoldemMixin,
    PotLimitPokerMixin,
    TexasHoldemMixin,
    UnfixedLimitHoldem,
)
from pokerkit.hands import OmahaHoldemHand, StandardHighHand


class NoLimitOmahaHoldem(NoLimitPokerMixin, OmahaHoldemMixin, UnfixedLimitHoldem):
    hand_types = (OmahaHoldemHand,)


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    hand_types = (StandardHighHand,)


class FixedLimitOmahaHoldem(FixedLimitPokerMixin, OmahaHoldemMixin, Holdem):
    hand_types = (OmahaHoldemHand,)
    max_completion_betting_or_raising_count = 4


HandHistory.game_types = dict(HandHistory.game_types)
HandHistory.required_field_names = dict(HandHistory.required_field_names)
for code, game, like in (
    ("NO", NoLimitOmahaHoldem, "NT"),
    ("PT", PotLimitTexasHoldem, "NT"),
    ("FO", FixedLimitOmahaHoldem, "FT"),
):
    HandHistory.game_types[code] = game
    HandHistory.required_field_names[code] = HandHistory.required_field_names[like]


def menu(state):
    """The menu of the player to act, or None."""
    actor = state.actor_index
    if actor is None:
        return None
    return [
        actor,
        state.checking_or_calling_amount,
        state.min_completion_betting_or_raising_to_amount,
        state.max_completion_betting_or_raising_to_amount,
        state.can_fold(),
    ]


def betting(action):
    words = action.split("#")[0].split()
    return len(words) >= 2 and words[0] != "d" and words[1] in ("f", "cc", "cbr")


def one_hand(hh):
    menus = {}
    error = None
    consumed = 0
    last = None
    try:
        for state, action in hh.state_actions:
            if action is not None:
                if betting(action):
                    menus[str(consumed)] = last
                consumed += 1
            last = menu(state)
    except Exception as e:  # PokerKit refuses the record, or fails an assertion
        error = f"{type(e).__name__}: {e}"
    stacks = None
    if error is None:
        stacks = [int(s) for s in state.stacks]
        if consumed != len(hh.actions):
            error = f"PokerKit applied {consumed} of {len(hh.actions)} actions"
    return {"menus": menus, "stacks": stacks, "error": error, "applied": consumed}


def main():
    warnings.simplefilter("ignore")
    with open(sys.argv[1], "rb") as f:
        for n, hh in enumerate(HandHistory.load_all(f), start=1):
            out = one_hand(hh)
            out["hand"] = n
            sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()

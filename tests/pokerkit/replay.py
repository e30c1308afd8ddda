"""Replays .phhs files with PokerKit's HandHistory (every action applied) and prints hands/s.
A hand PokerKit cannot finish (its own assertion on a pot every contender mucked) is counted apart."""
import sys, time
from pokerkit import HandHistory

start = time.perf_counter()
hands = failed = 0
for path in sys.argv[1:]:
    with open(path, "rb") as fp:
        for hh in HandHistory.load_all(fp):
            try:
                for state in hh:
                    pass
            except AssertionError:
                failed += 1
            hands += 1
elapsed = time.perf_counter() - start
print(f"{hands} hands ({failed} PokerKit could not finish) in {elapsed:.2f} s: {hands / elapsed:.0f} hands/s")

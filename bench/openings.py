#!/usr/bin/env python3
"""Openings for matches between computer players: COUNT distinct lines of PLIES moves, each move
drawn at random (from SEED) among the legal moves `fairy moves` lists, drops aside. A match by
nodes plays an opening the same way each time from the same seat, so comparing two builds over
N games needs N/2 different openings.

    bench/openings.py FAIRY RULES PLIES COUNT SEED > FILE
"""

import random
import subprocess
import sys


def legal_moves(fairy, rules, line):
    listed = subprocess.run([fairy, "moves", rules, "--moves", " ".join(line)],
                            capture_output=True, text=True, check=True).stdout.split()
    return [move for move in listed if "@" not in move]


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    fairy, rules = sys.argv[1], sys.argv[2]
    plies, count, seed = (int(arg) for arg in sys.argv[3:])
    rng = random.Random(seed)
    lines = []
    # A line that reaches an end or a position with only drops before PLIES is drawn again.
    for _ in range(100 * count):
        if len(lines) == count:
            break
        line = []
        while len(line) < plies and (moves := legal_moves(fairy, rules, line)):
            line.append(rng.choice(moves))
        if len(line) == plies and " ".join(line) not in lines:
            lines.append(" ".join(line))
    if len(lines) < count:
        sys.exit(f"only {len(lines)} distinct openings of {plies} plies found")
    print(f"# {count} openings of {plies} random legal moves: bench/openings.py FAIRY {rules} "
          f"{plies} {count} {seed}")
    print("\n".join(lines))


main()

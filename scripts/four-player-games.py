#!/usr/bin/env python3
"""Summary of four-player games recorded by `panoply match` (Armies of Faith).

How the games ended (won by the rules, adjudicated with only royal pieces left, drawn by
repetition or the 50-move rule, forfeits), their length, the search depth per move (from the
`{score/depth time}` comments), and the seat balance: wins per army with a chi-square test
against equal wins (3 degrees of freedom), over the decided games.

    scripts/four-player-games.py copies.pgn [more.pgn ...]
"""
import collections
import math
import re
import statistics
import sys

from pgn import games_of, tag

ARMIES = ["Catholic", "Protestant", "Islamic", "Byzantine"]


def chi_square_p_3(x):
    """Upper tail of the chi-square distribution with 3 degrees of freedom."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)


def main(paths):
    endings, plies, depths, wins = collections.Counter(), [], [], collections.Counter()
    count = 0
    for path in paths:
        for game in games_of(path):
            count += 1
            body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
            comments = re.findall(r"\{([^}]*)\}", body)
            last = comments[-1].strip() if comments else "(no comment)"
            ply_count = tag(game, "PlyCount")
            if ply_count:
                plies.append(int(ply_count))
            for c in comments:
                d = re.match(r"\s*(?:[-+]?\d+\.\d+|[-+]?M\d+)/(\d+)", c)
                if d:
                    depths.append(int(d.group(1)))
            winner = re.match(r"(\w+) wins (.*)", last)
            if winner:
                wins[winner.group(1)] += 1
                endings["won " + winner.group(2)] += 1
            else:
                endings[last] += 1
    print(f"games: {count}")
    won = sum(wins.values())
    print(f"won by the rules: {won} of {count} ({100 * won / max(count, 1):.1f}%)")
    for ending, n in endings.most_common():
        print(f"  {n:4d}  {ending}")
    if plies:
        print(f"plies: median {statistics.median(plies)} (min {min(plies)}, max {max(plies)})")
    if depths:
        print(
            f"depth per move: median {statistics.median(depths)}, mean "
            f"{statistics.mean(depths):.2f} over {len(depths)} moves with a score"
        )
    if won:
        expected = won / 4
        chi = sum((wins[a] - expected) ** 2 / expected for a in ARMIES)
        per_army = ", ".join(f"{a} {wins[a]}" for a in ARMIES)
        print(f"wins per army: {per_army}; chi-square {chi:.2f} (3 df), p = {chi_square_p_3(chi):.3g}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    main(sys.argv[1:])

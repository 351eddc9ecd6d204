#!/usr/bin/env python3
"""Tables of Panoply's strength levels from calibration games (scripts/calibrate-levels.sh).

Reads every `level<L>-<anchor><Elo>.pgn` (or `.pgn.xz`) in the folders given (the Panoply
engine is named `Level<L>`, the opponent is any engine rated `<Elo>` on the anchor's scale)
and prints two Markdown tables: one row per match, then one row per level pooling all its
matches. Matches
against an unrated opponent (`level<L>-<name>.pgn`, e.g. Fairy-Max) make a third table: the
opponent's Elo on the same scale, from the levels' fitted Elo and the score against them.

A level's Elo is the maximum-likelihood rating under the logistic model: the R for which the
expected scores against every game's anchor, E = 1 / (1 + 10^((anchor - R) / 400)), add up to
the points scored. Its 95 % interval is 1.96 standard errors, the error from the games' own
spread: se^2 = sum (s - E)^2 / (sum dE/dR)^2. Pooling matches against different anchors is why
a level can be placed between two anchors it scored far from 50 % against.
"""

import glob
import lzma
import math
import os
import re
import sys
from collections import defaultdict

NAME = re.compile(r"level(\d+(?:\.\d+)?)-([a-z-]+?)(\d*)\.pgn(?:\.xz)?$")


def games(pgn, me):
    """The scores (1, 0.5, 0) of engine `me` in a PGN file."""
    opener = lzma.open if pgn.endswith(".xz") else open
    with opener(pgn, "rt", encoding="utf-8") as file:
        text = file.read()
    for game in text.split("[Event ")[1:]:
        white = re.search(r'\[White "([^"]*)"', game).group(1)
        result = re.search(r'\[Result "([^"]*)"', game).group(1)
        if result == "1/2-1/2":
            yield 0.5
        elif result in ("1-0", "0-1"):
            yield 1.0 if (result == "1-0") == (white == me) else 0.0


def expected(rating, anchor):
    return 1.0 / (1.0 + 10 ** ((anchor - rating) / 400.0))


def fit(results):
    """Maximum-likelihood rating and its 95 % error from (score, anchor) pairs, or a bound."""
    points = sum(s for s, _ in results)
    anchors = [a for _, a in results]
    if points == 0:
        return f"below {min(anchors)}"
    if points == len(results):
        return f"above {max(anchors)}"
    rating, error = rate(results)
    return f"{rating:.0f} ± {error:.0f}"


def rate(results):
    """The fitted rating and its 95 % error (not for all wins or all losses)."""
    points = sum(s for s, _ in results)
    anchors = [a for _, a in results]
    low, high = min(anchors) - 2000.0, max(anchors) + 2000.0
    for _ in range(100):  # bisection: the expected total rises with the rating
        mid = (low + high) / 2
        if sum(expected(mid, a) for a in anchors) < points:
            low = mid
        else:
            high = mid
    rating = (low + high) / 2
    slope = sum(expected(rating, a) * (1 - expected(rating, a)) for a in anchors)
    slope *= math.log(10) / 400.0
    spread = sum((s - expected(rating, a)) ** 2 for s, a in results)
    return rating, 1.96 * math.sqrt(spread) / slope


def wdl(scores):
    return f"{scores.count(1.0)}-{scores.count(0.5)}-{scores.count(0.0)}"


def main(folders):
    by_level = defaultdict(list)
    unrated = []
    print("| level | opponent | games | W-D-L (Panoply) | score | Elo from this match |")
    print("|---:|---|---:|---|---:|---|")
    files = sorted(f for d in folders for f in glob.glob(os.path.join(d, "level*.pgn*")))
    for pgn in sorted(files, key=lambda f: [float(x or 0) for x in NAME.search(f).group(1, 3)]):
        level, anchor_name, anchor = NAME.search(pgn).groups()
        scores = list(games(pgn, f"Level{level}"))
        if not scores:
            continue
        if not anchor:
            unrated.append((anchor_name, float(level), scores))
            continue
        by_level[float(level)].extend((s, int(anchor)) for s in scores)
        score = 100 * sum(scores) / len(scores)
        estimate = fit([(s, int(anchor)) for s in scores])
        print(f"| {level} | {anchor_name} {anchor} | {len(scores)} | {wdl(scores)} "
              f"| {score:.0f} % | {estimate} |")
    print()
    print("| level | games | W-D-L (Panoply) | measured Elo (95 %) |")
    print("|---:|---:|---|---|")
    for level in sorted(by_level):
        results = by_level[level]
        scores = [s for s, _ in results]
        print(f"| {level:g} | {len(results)} | {wdl(scores)} | {fit(results)} |")
    if unrated:
        print()
        print("| opponent | against level | games | W-D-L (Panoply) | score | opponent's Elo |")
        print("|---|---:|---:|---|---:|---|")
    for name, level, scores in unrated:
        print(f"| {name} | {level:g} | {len(scores)} | {wdl(scores)} "
              f"| {100 * sum(scores) / len(scores):.0f} % | {rate_opponent(by_level[level], scores)} |")
    for name in sorted({name for name, _, _ in unrated}):
        print(f"| {name} | all | | | | {rate_pooled(name, unrated, by_level)} |")


def rate_pooled(name, unrated, by_level):
    """An unrated opponent's Elo over all its matches: each game against the fitted Elo of
    the level it met (the levels' own errors are left out of this interval)."""
    games_against = [
        (1 - s, rate(by_level[level])[0])
        for n, level, scores in unrated
        if n == name and by_level[level]
        for s in scores
    ]
    return fit(games_against) + " (levels' errors not included)" if games_against else "-"


def rate_opponent(level_results, scores):
    """An unrated opponent's Elo: the level's fitted Elo less the level's margin over it; the
    error adds the level's and this match's in quadrature."""
    points = sum(scores)
    if not level_results or points in (0, len(scores)):
        return "-"
    level, level_error = rate(level_results)
    margin, margin_error = rate([(s, 0) for s in scores])
    return f"{level - margin:.0f} ± {math.hypot(level_error, margin_error):.0f}"


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])

#!/usr/bin/env python3
"""Fits the win/draw/loss model of `UCI_ShowWDL` (src/search/wdl.rs) to recorded games.

    scripts/wdl-fit.py RECORD        # a `panoply selfplay --record` file (docs/tuning.md)

The model: P(win) = s((x - a) / b), P(loss) = s((-x - a) / b), P(draw) the rest, with s the
logistic function and x the search score in centipawns. a and b are fitted by maximum
likelihood over the positions' final results (1, 0.5 or 0; score and result from the same
side, White's in the record, which the symmetric model allows): a coarse grid first, then a
pattern search that halves its step until no step of a or b improves. Positions scored beyond +-2000 cp (mates, won endings) are left out: they say
nothing about the middle of the curve. Prints n, a, b and the negative log-likelihood per
position.
"""

import math
import sys

LIMIT = 2000


def read(path):
    """(score, result) pairs from the record's tab-separated lines (variant, position, result,
    score): the result and the score are both from White's side."""
    rows = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            try:
                result, score = float(fields[2]), float(fields[3])
            except (IndexError, ValueError):
                continue
            if abs(score) < LIMIT:
                rows.append((score, result))
    return rows


def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-z)) if z > -50 else 0.0


def loss(rows, a, b):
    """Negative log-likelihood of the results under the model."""
    total = 0.0
    for score, result in rows:
        win, lose = sigmoid((score - a) / b), sigmoid((-score - a) / b)
        p = win if result == 1 else lose if result == 0 else max(1e-9, 1 - win - lose)
        total -= math.log(max(p, 1e-12))
    return total


def fit(rows):
    value, a, b = min((loss(rows, a, b), a, b) for a in range(0, 400, 20) for b in range(20, 400, 20))
    step = 10.0
    while step > 0.5:
        moves = [(a + da, b + db) for da, db in ((step, 0), (-step, 0), (0, step), (0, -step))]
        better = min((loss(rows, x, y), x, y) for x, y in moves if y > 1)
        if better[0] < value:
            value, a, b = better
        else:
            step /= 2
    return a, b, value


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/wdl-fit.py RECORD")
    rows = read(sys.argv[1])
    if not rows:
        sys.exit(f"{sys.argv[1]}: no scored positions")
    a, b, value = fit(rows)
    print(f"n={len(rows)} a={a:.1f} b={b:.1f} nll_per_pos={value / len(rows):.4f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reference values for Panoply's SPRT (src/tournament/sprt.rs), computed independently.

Written for Panoply from the published formulas of the generalised SPRT (Michel Van den
Bergh's notes "Comments on normalized Elo" and "Maximum likelihood estimation of a
multinomial distribution", as fishtest's stats and fastchess use them), in plain Python with
no third-party package. It solves every secular equation by bisection to the last bit, a
different root finder from the Rust code's safeguarded Newton iteration, so that the Rust
tests compare two implementations rather than one with itself.

Run: python3 docs/sprt/reference.py
It prints, for each case, the exact LLR of both Elo models and the old approximation; the
Rust unit tests (`cargo test --release --lib tournament::sprt`) hold these figures.
"""

import math

# Empty bins count as this many observations ("regularisation"), so that a bin nobody has
# seen yet still has a small likelihood: fishtest and fastchess both use 1e-3.
EMPTY_BIN = 1e-3
# Normalised Elo per unit of t-value per game: 800 / ln 10.
NELO_PER_T = 800 / math.log(10)


def logistic_score(elo):
    """Expected score of the side `elo` logistic Elo stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def regularised(counts):
    return [c if c > 0 else EMPTY_BIN for c in counts]


def mean_var(points, probs):
    mean = sum(p * a for a, p in zip(points, probs))
    var = sum(p * (a - mean) ** 2 for a, p in zip(points, probs))
    return mean, var


def lagrange_multiplier(shifted, probs):
    """The root x of sum_i p_i c_i / (1 + x c_i) = 0 with every 1 + x c_i > 0, by bisection.

    The left side falls strictly from +inf to -inf between -1/max(c) and -1/min(c)."""
    lo, hi = -1 / max(shifted), -1 / min(shifted)
    assert min(shifted) < 0 < max(shifted), "the constraint lies outside the support"

    def f(x):
        return sum(p * c / (1 + x * c) for c, p in zip(shifted, probs))

    for _ in range(2000):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_with_mean(points, probs, score):
    """The distribution on `points` nearest `probs` (maximum likelihood) whose mean is `score`."""
    shifted = [a - score for a in points]
    x = lagrange_multiplier(shifted, probs)
    mle = [p / (1 + x * c) for c, p in zip(shifted, probs)]
    mean, _ = mean_var(points, mle)
    assert abs(mean - score) < 1e-9 and abs(sum(mle) - 1) < 1e-9
    return mle


def mle_with_t_value(points, probs, reference, t):
    """The maximum-likelihood distribution whose (mean - reference) / sigma is `t`: the
    fixed-point iteration of the Lagrange conditions, from the uniform distribution, until it
    stops moving."""
    mle = [1 / len(points)] * len(points)
    for _ in range(1000):
        mean, var = mean_var(points, mle)
        sigma = math.sqrt(var)
        shifted = [
            a - reference - t * sigma * (1 + ((mean - a) / sigma) ** 2) / 2 for a in points
        ]
        x = lagrange_multiplier(shifted, probs)
        new = [p / (1 + x * c) for c, p in zip(shifted, probs)]
        moved = max(abs(u - v) for u, v in zip(new, mle))
        mle = new
        if moved < 1e-15:
            break
    mean, var = mean_var(points, mle)
    assert abs((mean - reference) / math.sqrt(var) - t) < 1e-8, "no convergence"
    return mle


def llr(points, counts, mle0, mle1):
    """N * sum_i phat_i ln(p1_i / p0_i), N the regularised number of samples."""
    counts = regularised(counts)
    n = sum(counts)
    probs = [c / n for c in counts]
    p0, p1 = mle0(points, probs), mle1(points, probs)
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, p0, p1))


def points_of(counts):
    """Pentanomial pair scores (0, 1/4, ..., 1) or per-game scores (0, 1/2, 1)."""
    return [i / (len(counts) - 1) for i in range(len(counts))]


def llr_logistic(elo0, elo1, counts):
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return llr(
        points_of(counts),
        counts,
        lambda a, p: mle_with_mean(a, p, s0),
        lambda a, p: mle_with_mean(a, p, s1),
    )


def llr_normalized(nelo0, nelo1, counts):
    # Normalised Elo is per game; a pair's score is the mean of two games, so its t-value is
    # sqrt(2) times the per-game one (fishtest: sigma per game = sqrt(2) * sigma per pair).
    games = 2 if len(counts) == 5 else 1
    t0, t1 = (nelo / NELO_PER_T * math.sqrt(games) for nelo in (nelo0, nelo1))
    return llr(
        points_of(counts),
        counts,
        lambda a, p: mle_with_t_value(a, p, 0.5, t0),
        lambda a, p: mle_with_t_value(a, p, 0.5, t1),
    )


def llr_approximate(elo0, elo1, counts):
    """Panoply's statistic before issue 38: N (s1 - s0)(2 mu - s0 - s1) / (2 var), raw counts."""
    n = sum(counts)
    mean, var = mean_var(points_of(counts), [c / n for c in counts])
    if var == 0:
        return 0.0
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


CASES = [
    # (counts, elo0, elo1, why)
    ([1, 1, 12, 11, 22], 0, 10, "issue 38: few pairs far from both hypotheses"),
    ([0, 0, 0, 10, 10], 0, 5, "issue 38: 20 pairs, three empty bins"),
    ([0, 0, 0, 0, 30], 0, 5, "issue 38: every pair won"),
    ([0, 0, 40, 0, 0], 0, 5, "issue 38: every pair drawn"),
    ([50, 650, 2700, 690, 42], 0, 5, "near the hypotheses: exact and approximate agree"),
    ([40, 620, 2650, 640, 50], 0, 5, "near the hypotheses, the models differ"),
    ([90, 1410, 4760, 1600, 140], 0, 5, "a long test leaning to H1"),
    ([12, 75, 230, 64, 9], -5, 0, "a non-regression test leaning to H0"),
    ([3, 20, 40], 0, 5, "per-game (trinomial) bins L, D, W"),
]


def main():
    print("counts | elo0 elo1 | logistic exact | normalized exact | old approximation")
    for counts, elo0, elo1, why in CASES:
        print(
            f"{counts} | {elo0} {elo1} | {llr_logistic(elo0, elo1, counts):.10f} | "
            f"{llr_normalized(elo0, elo1, counts):.10f} | "
            f"{llr_approximate(elo0, elo1, counts):.10f}   # {why}"
        )
    # When does a match of nothing but won (or drawn) pairs decide at [0, 5], bounds +-ln 19?
    # The |LLR| of such a match grows with its length, so bisect on the number of pairs.
    bound = math.log(19)
    for label, shape in (("won", lambda n: [0, 0, 0, 0, n]), ("drawn", lambda n: [0, 0, n, 0, 0])):
        for name, f in (("logistic", llr_logistic), ("normalized", llr_normalized)):
            lo, hi = 1, 100000
            while lo < hi:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if abs(f(0, 5, shape(mid))) >= bound else (mid + 1, hi)
            print(
                f"every pair {label}, {name}: llr {f(0, 5, shape(lo - 1)):.10f} after {lo - 1} "
                f"pairs, {f(0, 5, shape(lo)):.10f} after {lo}"
            )

if __name__ == "__main__":
    main()

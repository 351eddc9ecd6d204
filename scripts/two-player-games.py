#!/usr/bin/env python3
"""Where two-player games recorded by `panoply match` were won and lost (issue 61's lever 3).

Per engine and phase of the game (plies counted from the game's start position: opening 1-30,
middlegame 31-80, endgame 81 on), the median search depth and the mean time per move, from
the `{score/depth time}` comments. Per decisive game, the ply from which the winner's own score
stays at +1 pawn or more to the end (the game "turns" there), and the ply from which the
loser's stays at -1 or less (when the loser saw it), counted by phase. How the games ended,
with forfeits apart.

    scripts/two-player-games.py match.pgn [more.pgn ...]
"""
import collections
import re
import statistics
import sys

from pgn import games_of, tag

PHASES = [("opening", 1, 30), ("middlegame", 31, 80), ("endgame", 81, 10**9)]
DECIDED = 1.0  # pawns
MOVE = re.compile(r"([a-z]\d+[a-z]\d+\S*)\s*\{([^}]*)\}")
INFO = re.compile(r"^([+-]?(?:M\d+|\d+\.\d+))/(\d+)\s+([\d.]+)s")
TERMINATION = re.compile(r"\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2)\s*$")


def pawns(score):
    """A comment's score in pawns for the side that moved; mates as +/-100."""
    if "M" in score:
        return -100.0 if score.startswith("-") else 100.0
    return float(score)


def phase_of(ply):
    return next(name for name, lo, hi in PHASES if lo <= ply <= hi)


def moves_of(game):
    """(ply, mover index 0 = White, score in pawns, depth, seconds) for every commented move."""
    body = game.split("\n\n", 1)[1] if "\n\n" in game else game
    black_first = " b " in (tag(game, "FEN") or " w ")
    out = []
    for i, (_, comment) in enumerate(MOVE.findall(body)):
        m = INFO.match(comment.strip())
        if not m:
            continue
        mover = (i + black_first) % 2
        out.append((i + 1, mover, pawns(m.group(1)), int(m.group(2)), float(m.group(3))))
    return out


def held_from(moves, mover, holds):
    """The first ply of `mover` from which every later score of theirs satisfies `holds`."""
    own = [(ply, s) for ply, who, s, _, _ in moves if who == mover]
    start = None
    for ply, s in own:
        if holds(s):
            start = ply if start is None else start
        else:
            start = None
    return start


def summarise(paths):
    per_engine = collections.defaultdict(lambda: collections.defaultdict(lambda: ([], [])))
    turns = collections.Counter()
    seen = collections.Counter()
    lags = []
    endings = collections.Counter()
    wins = collections.Counter()
    games = 0
    for path in paths:
        for game in games_of(path):
            games += 1
            names = [tag(game, "White"), tag(game, "Black")]
            result = tag(game, "Result")
            term = TERMINATION.search(game.strip())
            ending = term.group(1) if term else "?"
            endings["forfeit" if "forfeits" in ending else ending.split(" by ")[-1]] += 1
            moves = moves_of(game)
            for ply, mover, _, depth, secs in moves:
                depths, times = per_engine[names[mover]][phase_of(ply)]
                depths.append(depth)
                times.append(secs)
            if result not in ("1-0", "0-1"):
                continue
            winner = 0 if result == "1-0" else 1
            wins[names[winner]] += 1
            if "forfeits" in ending:
                continue
            turn = held_from(moves, winner, lambda s: s >= DECIDED)
            saw = held_from(moves, 1 - winner, lambda s: s <= -DECIDED)
            turns[(names[winner], phase_of(turn) if turn else "never")] += 1
            seen[(names[1 - winner], phase_of(saw) if saw else "never")] += 1
            if turn and saw:
                lags.append(saw - turn)
    return games, per_engine, turns, seen, lags, endings, wins


def report(paths):
    games, per_engine, turns, seen, lags, endings, wins = summarise(paths)
    print(f"{games} games; wins: " + ", ".join(f"{n} {w}" for n, w in sorted(wins.items())))
    print("ended by: " + ", ".join(f"{k} {v}" for k, v in endings.most_common()))
    print("\nper move (median depth, mean seconds, moves):")
    for engine in sorted(per_engine):
        cells = []
        for name, _, _ in PHASES:
            depths, times = per_engine[engine][name]
            if depths:
                cells.append(f"{name} {statistics.median(depths):g} / "
                             f"{statistics.mean(times):.2f} s / {len(depths)}")
        print(f"  {engine}: " + "; ".join(cells))
    phases = [p for p, _, _ in PHASES] + ["never"]
    print(f"\ndecisive games (forfeits left out), by the phase where the winner's own score "
          f"reached +{DECIDED:g} and held:")
    for engine in sorted({e for e, _ in turns}):
        print(f"  {engine} won: " + ", ".join(f"{p} {turns[(engine, p)]}" for p in phases))
    print(f"...and where the loser's own score reached -{DECIDED:g} and held:")
    for engine in sorted({e for e, _ in seen}):
        print(f"  {engine} lost: " + ", ".join(f"{p} {seen[(engine, p)]}" for p in phases))
    if lags:
        print(f"plies from the winner's +{DECIDED:g} to the loser's -{DECIDED:g}: median "
              f"{statistics.median(lags):g} ({len(lags)} games)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    report(sys.argv[1:])

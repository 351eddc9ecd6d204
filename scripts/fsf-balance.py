#!/usr/bin/env python3
"""Keeps the openings of a suite that Fairy-Stockfish also calls level (book/suites/README.md).

  scripts/fsf-balance.py IN OUT [--depth 12] [--max-cp 50] [--fsf PATH] [--ini FILE]

IN holds one opening per line, `variant position` (as `panoply openings` writes them); OUT
gets those whose score by Fairy-Stockfish's own search, at a fixed depth from the side to
move's view, lies within --max-cp centipawns of level; IN's header comments are kept.
Panoply's suites are balanced by Panoply's search alone, so a position it calls level may be
lost in the eyes of a stronger engine: each colour then wins it once in a pair, and the pair
measures nothing. A second judge keeps only the openings both call level.

Fairy-Stockfish (GPL-3) is built outside the project (engines/fairy-stockfish.engine says how);
it is only run as a program here. Its variant names are Panoply's: `chess` and `shatranj` are
its own, the CwDA and SwDA pairings come from engines/fairy-stockfish-variants.ini.
"""

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INI = ROOT / "engines" / "fairy-stockfish-variants.ini"


class Fsf:
    """One Fairy-Stockfish process spoken to over UCI."""

    def __init__(self, path, ini):
        self.proc = subprocess.Popen(
            [path, "load", str(ini)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.variant = None
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, prefix):
        """Lines up to and including the first that starts with `prefix`."""
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        sys.exit(f"fsf-balance: Fairy-Stockfish ended before `{prefix}`")

    def score(self, variant, fen, depth):
        """Centipawns from the side to move's view (mates as ±100000), or None."""
        if variant != self.variant:
            self.send(f"setoption name UCI_Variant value {variant}")
            self.variant = variant
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        score = None
        for line in self.wait_for("bestmove"):
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                kind, value = words[words.index("score") + 1 : words.index("score") + 3]
                score = int(value) if kind == "cp" else (100000 if int(value) > 0 else -100000)
        return score

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite_in")
    ap.add_argument("suite_out")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--max-cp", type=int, default=50)
    ap.add_argument("--fsf", default="fairy-stockfish")
    ap.add_argument("--ini", default=str(INI))
    args = ap.parse_args()
    text = open(args.suite_in).read().splitlines()
    comments = [l for l in text if l.startswith("#")]
    lines = [l.strip() for l in text if l.strip() and not l.startswith("#")]
    fsf = Fsf(args.fsf, args.ini)
    kept = []
    for n, line in enumerate(lines, 1):
        variant, fen = line.split(" ", 1)
        score = fsf.score(variant, fen, args.depth)
        if score is not None and abs(score) <= args.max_cp:
            kept.append(line)
        print(f"\r{n}/{len(lines)} read, {len(kept)} kept", end="", file=sys.stderr)
    print(file=sys.stderr)
    fsf.close()
    header = "".join(c + "\n" for c in comments) + (
        f"# Then kept by `scripts/fsf-balance.py {Path(args.suite_in).name} --depth {args.depth} "
        f"--max-cp {args.max_cp}`: {len(kept)} of {len(lines)}\n"
        f"# openings that Fairy-Stockfish's depth-{args.depth} search also scores within "
        f"{args.max_cp} cp of level.\n"
    )
    with open(args.suite_out, "w") as out:
        out.write(header + "".join(k + "\n" for k in kept))


if __name__ == "__main__":
    main()

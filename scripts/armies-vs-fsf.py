#!/usr/bin/env python3
"""Compares Panoply's armies files with Fairy-Stockfish (docs/armies.md).

  scripts/armies-vs-fsf.py ini      writes armies/variants.ini: every unofficial army of
                                    armies/unofficial.toml against FIDE, Nutty Knights and
                                    Rookies (both colours) as Fairy-Stockfish sections, with
                                    the Betza strings of the armies file unchanged
  scripts/armies-vs-fsf.py perft    perft of both engines on those pairings: depth 5 from the
                                    start, depth 4 from two middlegame positions reached by
                                    seeded random play; a difference is printed with a divide

Armies with their own long castling (the Clobberers) are left out: Fairy-Stockfish has one
queen-side castling file for both colours. Fairy-Stockfish is built outside the project; pass
its path with --fsf (default: fairy-stockfish on the PATH).
"""

import argparse
import random
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNOFFICIAL = ROOT / "armies" / "unofficial.toml"
BUILTIN = ROOT / "armies" / "builtin.toml"
INI = ROOT / "armies" / "variants.ini"
OPPONENTS = ["fide", "nutty", "rookies"]


def armies(path):
    with open(path, "rb") as f:
        return {a["code"]: a for a in tomllib.load(f)["army"]}


def comparable(army):
    return "long_castling" not in army


def pairings():
    unofficial = armies(UNOFFICIAL)
    builtin = armies(BUILTIN)
    out = []
    for code, army in unofficial.items():
        if not comparable(army):
            continue
        for other in OPPONENTS:
            out.append((army, builtin[other]))
            out.append((builtin[other], army))
    return out


def name(white, black):
    return f"cwda-{white['code']}-{black['code']}"


def section(white, black):
    lines = [f"[{name(white, black)}]",
             f"# White: {white['name']}, Black: {black['name']}",
             "pawn = p", "king = k",
             "knight = -", "bishop = -", "rook = -", "queen = -"]
    letters = {}
    for army in (white, black):
        for piece in army["piece"]:
            letters.setdefault(piece["letter"].lower(), piece["betza"])
    for i, (letter, betza) in enumerate(sorted(letters.items()), start=1):
        lines.append(f"customPiece{i} = {letter}:{betza}")
    rank = lambda a: a["setup"]
    promo = lambda a: "".join(p["letter"].lower() for p in a["piece"])
    lines += [
        f"startFen = {rank(black).lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank(white)} w KQkq - 0 1",
        f"promotionPieceTypesWhite = {promo(white)}",
        f"promotionPieceTypesBlack = {promo(black)}",
        "castling = true",
        f"castlingRookPiecesWhite = {white['castling_partner'].lower()}",
        f"castlingRookPiecesBlack = {black['castling_partner'].lower()}",
        "castlingKingsideFile = g",
        "castlingQueensideFile = c",
    ]
    return "\n".join(lines)


def write_ini():
    head = [
        "# Fairy-Stockfish sections for the unofficial armies of armies/unofficial.toml against",
        "# FIDE, Nutty Knights and Rookies, both colours; written by scripts/armies-vs-fsf.py ini",
        "# with the Betza strings of the armies file unchanged (docs/armies.md).",
        "# Usage: stockfish load armies/variants.ini, then",
        "#        setoption name UCI_Variant value cwda-forward-fide",
    ]
    text = "\n".join(head) + "\n\n" + "\n\n".join(section(w, b) for w, b in pairings()) + "\n"
    INI.write_text(text)
    print(f"wrote {INI.relative_to(ROOT)} ({len(pairings())} pairings)")


class Fsf:
    """Fairy-Stockfish over UCI, with the ini loaded."""

    def __init__(self, path):
        self.p = subprocess.Popen(["nice", "-n", "10", path, "load", str(INI)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.until("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("Fairy-Stockfish ended unexpectedly")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def divide(self, variant, fen, depth):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.until("Nodes searched")
        moves = {}
        for line in lines:
            mv, _, n = line.partition(": ")
            if n.strip().isdigit() and not mv.startswith("Nodes"):
                moves[mv.strip()] = int(n)
        return int(lines[-1].split(":")[1]), moves


def panoply(binary, *args):
    out = subprocess.run(["nice", "-n", "10", binary, "--armies", str(UNOFFICIAL), *args],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"panoply {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout


def panoply_divide(binary, variant, fen, depth):
    out = panoply(binary, "perft", str(depth), "--variant", variant, "--fen", fen, "--divide")
    moves, total = {}, None
    for line in out.splitlines():
        mv, _, n = line.partition(": ")
        if mv == "Nodes searched":
            total = int(n)
        elif n.strip().isdigit():
            moves[mv] = int(n)
    return total, moves


def middlegame(binary, variant, plies, rng):
    """The position after `plies` random legal moves (tried again when a game ends)."""
    for _ in range(20):
        played = []
        fen = None
        for _ in range(plies + 1):
            out = panoply(binary, "show", "--variant", variant, "--moves", " ".join(played))
            lines = out.splitlines()
            fen = next(l for l in lines if l.count("/") == 7)
            legal = next((l for l in lines if "legal moves:" in l), "")
            moves = legal.split(":", 1)[1].split("time")[0].split() if legal else []
            if len(played) == plies:
                return fen
            if not moves:
                break
            played.append(rng.choice(moves))
    sys.exit(f"{variant}: no middlegame position after {plies} plies")


def compare(fsf, binary, variant, fen, depth):
    theirs, their_moves = fsf.divide(variant, fen, depth)
    ours, our_moves = panoply_divide(binary, variant, fen, depth)
    status = "ok" if ours == theirs else "DIFFERENT"
    print(f"{status:9} {variant} depth {depth} {fen}: panoply {ours}, fairy-stockfish {theirs}",
          flush=True)
    if ours != theirs:
        for mv in sorted(set(our_moves) | set(their_moves)):
            a, b = our_moves.get(mv), their_moves.get(mv)
            if a != b:
                print(f"    {mv}: panoply {a}, fairy-stockfish {b}")
    return ours == theirs


def perft(args):
    fsf = Fsf(args.fsf)
    rng = random.Random(43)
    failures = 0
    for white, black in pairings():
        variant = name(white, black)
        start = (f"{black['setup'].lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white['setup']}"
                 " w KQkq - 0 1")
        failures += not compare(fsf, args.panoply, variant, start, args.depth)
        for plies in (12, 20):
            fen = middlegame(args.panoply, variant, plies, rng)
            failures += not compare(fsf, args.panoply, variant, fen, args.middle_depth)
    fsf.send("quit")
    print(f"{failures} differences")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["ini", "perft"])
    ap.add_argument("--fsf", default="fairy-stockfish")
    ap.add_argument("--panoply", default=str(ROOT / "target" / "release" / "panoply"))
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--middle-depth", type=int, default=4)
    args = ap.parse_args()
    if args.command == "ini":
        write_ini()
        return 0
    return perft(args)


if __name__ == "__main__":
    sys.exit(main())

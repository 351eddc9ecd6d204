#!/usr/bin/env python3
"""Lists the functions over 100 lines (from the `fn` line to the closing brace) in the Rust
sources of src/ and crates/, leaving out tests: `#[cfg(test)]` modules and tests.rs files.
Exits 1 when it lists any, so that a test can keep the rule. Usage: long-functions.py [LIMIT]
(run from anywhere; it reads the repository it lies in)."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 100
FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def blank_literals(text):
    """The text with comments, strings and character literals replaced by spaces (newlines
    kept), so that braces and `fn` inside them do not count."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not text[i - 1].isalnum() and text[i - 1] != "_"):
            hashes = len(re.match(r"r(#*)", text[i:]).group(1))
            end = '"' + "#" * hashes
            j = text.find(end, i + 2 + hashes)
            j = n if j < 0 else j + len(end)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
        elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:]):
            j = i + re.match(r"'(\\.[^']*|[^\\'])'", text[i:]).end()
        else:
            out.append(c)
            i += 1
            continue
        out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
        i = j
    return "".join(out)


def block_end(code, open_at):
    """The index just past the brace that closes the one at `open_at`."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(code)


def test_ranges(code):
    """The spans of `#[cfg(test)]` modules."""
    spans = []
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\([a-z]+\))?\s+)?mod\s+\w+\s*([{;])", code):
        if m.group(3) == "{":
            spans.append((m.start(), block_end(code, m.end() - 1)))
    return spans


def long_functions(path):
    code = blank_literals(path.read_text())
    tests = test_ranges(code)
    found = []
    for m in FN.finditer(code):
        if any(a <= m.start() < b for a, b in tests):
            continue
        # The body's brace: the first `{` after the signature, unless a `;` comes first (a
        # declaration in a trait).
        brace, semi = code.find("{", m.end()), code.find(";", m.end())
        if brace < 0 or 0 <= semi < brace:
            continue
        end = block_end(code, brace)
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end - 1) + 1
        if last - first + 1 > LIMIT:
            found.append((last - first + 1, first, m.group(1)))
    return found


def main():
    rows = []
    for top in ("src", "crates"):
        for path in sorted((ROOT / top).rglob("*.rs")):
            if path.name == "tests.rs" or "/tests/" in path.as_posix()[len(ROOT.as_posix()):]:
                continue
            for lines, line, name in long_functions(path):
                rows.append(f"{path.relative_to(ROOT)}:{line}: `{name}` is {lines} lines (over {LIMIT})")
    for row in rows:
        print(row)
    if rows:
        print(f"{len(rows)} functions over {LIMIT} lines: split them into named steps", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

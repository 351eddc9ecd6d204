#!/usr/bin/env python3
"""A slow GUI's view of an engine: runs the engine command given as arguments and passes
each line it writes on 50 ms after the engine wrote it (DELAY_MS in the environment changes
that), as a GUI that polls its pipe late would see it. Input goes to the engine at once.

Used as an engine command in a `panoply match` engine file, so the referee's clock charges
the engine for the delay (docs/gui.md, "Move Overhead")."""

import os
import queue
import subprocess
import sys
import threading
import time

DELAY = float(os.environ.get("DELAY_MS", "50")) / 1000.0


def main():
    engine = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
    lines = queue.Queue()

    def read():
        for line in iter(engine.stdout.readline, b""):
            lines.put((time.monotonic(), line))
        lines.put((time.monotonic(), None))

    threading.Thread(target=read, daemon=True).start()
    out = sys.stdout.buffer
    while True:
        written, line = lines.get()
        if line is None:
            break
        late = written + DELAY - time.monotonic()
        if late > 0:
            time.sleep(late)
        out.write(line)
        out.flush()
    sys.exit(engine.wait())


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs `renju solve --json` on some positions at several thread counts and writes one JSON
line per run: the solve output plus `id`, `threads`, `repeat` and the `args` given to solve.
`scaling.ipynb` reads the file.

    python3 notebooks/collect_scaling.py --renju target/release/renju \
        --positions notebooks/scaling_positions.jsonl --threads 1,2 --repeat 3 \
        --out target/notebooks/scaling.jsonl

The positions file holds JSON lines `{"id": .., "args": [..]}`: `args` are the arguments of
`renju solve` (the position and any options such as `--size`), taken from the repository root.
Needs only the Python standard library.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renju", default=os.environ.get("RENJU") or shutil.which("renju"),
                        help="the renju binary (default: $RENJU, else renju on PATH)")
    parser.add_argument("--positions", default=ROOT / "notebooks/scaling_positions.jsonl")
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs per position and count")
    parser.add_argument("--out", required=True, help="the JSON-lines file to write")
    args = parser.parse_args()
    if not args.renju:
        sys.exit("error: no renju binary: give --renju or put renju on PATH")
    renju = str(Path(args.renju).resolve())
    counts = [int(t) for t in args.threads.split(",")]
    positions = [json.loads(line) for line in Path(args.positions).read_text().splitlines()
                 if line.strip() and not line.lstrip().startswith("#")]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    # Repeats outermost, so that a slow spell of a shared machine hits every count alike.
    for repeat in range(args.repeat):
        for position in positions:
            for threads in counts:
                command = [renju, "--quiet", "solve", *position["args"],
                           "--threads", str(threads), "--json"]
                done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.exit(f"error: {' '.join(command)} exited {done.returncode}: "
                             f"{done.stderr.strip()}")
                result = json.loads(done.stdout)
                run = {"id": position["id"], "threads": threads, "repeat": repeat,
                       "args": position["args"], **result}
                lines.append(json.dumps(run, separators=(",", ":")))
                print(f"{position['id']} threads={threads}: {result['result']} "
                      f"in {result['seconds']:.3f} s, {result['nodes']} nodes", file=sys.stderr)
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} runs to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Screens candidate rungs for the bench ladder (`ladder.jsonl`).

For each quintet VCT board named below, every position made by taking back one attacker stone
and one defender stone (the attacker still to move) is tried: first `renju vct` for a second
(positions that still have a VCT are not rungs), then `renju solve` within the time limit.
Prints one JSON line per position. Rungs proved here were added to `ladder.jsonl` by hand,
`heavy` where they take a second or more.

Usage: python3 tests/data/threats/screen_ladder.py [SECONDS] [WORKERS]
(after `cargo build --release`; run from the repository root).
"""
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

BIN = "target/release/renju"
HERE = os.path.dirname(os.path.abspath(__file__))
BOARDS = ["test_vct_black", "test_vct_white", "test_vct_counter", "test_vct_forbidden_breaker",
          "test_vct_dual_forbiddens", "test_vct_fukumi_move"]
COLUMNS = "abcdefghijklmnopqrst"


def positions():
    with open(os.path.join(HERE, "quintet.jsonl")) as f:
        cases = [json.loads(line) for line in f]
    for case in cases:
        if case["id"].split("/")[-1] not in BOARDS:
            continue
        rows = case["board"]
        n = len(rows)
        mine = "X" if case["attacker"] == "black" else "O"
        theirs = "O" if mine == "X" else "X"
        stones = lambda mark: [(x, y) for y in range(n) for x in range(n) if rows[y][x] == mark]
        name = lambda p: f"{COLUMNS[p[0]]}{n - p[1]}"
        for a in stones(mine):
            for d in stones(theirs):
                board = [list(r) for r in rows]
                board[a[1]][a[0]] = board[d[1]][d[0]] = "."
                diagram = "\n".join("".join(r) for r in board) + "\n"
                yield case["id"], case["attacker"], [name(a), name(d)], diagram


def json_of(command):
    out = subprocess.run(command, capture_output=True, text=True)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"result": "error: " + out.stderr.strip()[:100]}


def screen(job, seconds):
    source, attacker, taken_back, diagram = job
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(diagram)
    try:
        record = {"from": source, "taken_back": taken_back}
        record["vct"] = json_of([BIN, "vct", f.name, "--attacker", attacker, "--time", "1",
                                 "--json"])["result"]
        if record["vct"] != "win":
            s = json_of([BIN, "solve", f.name, "--to-move", attacker, "--time", str(seconds),
                         "--json", "--quiet"])
            record.update(solve=s["result"], nodes=s.get("nodes"), seconds=s.get("seconds"))
        return record
    finally:
        os.unlink(f.name)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 8
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    with ThreadPoolExecutor(workers) as pool:
        for record in pool.map(lambda job: screen(job, seconds), positions()):
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()

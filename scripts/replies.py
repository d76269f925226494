#!/usr/bin/env python3
"""Solve every reply to an opening position and report the results by distance ring.

The replies are the side to move's legal moves in the position (for an opening of three
moves, White's 4th moves). Each reply gives a position with the other side to move, which
`renju solve --batch` proves or leaves unknown within the per-position limits. A reply's ring
is its distance from the nearest stone (the larger of the file and rank distances): 1 touches
a stone, 5 means 5 or more.

    python3 scripts/replies.py "h8 h9 i9" --time 60 --threads 2 --out kagetsu.jsonl

prints one line per finished position, then a table per ring: replies, proved (win or loss),
the median and largest solve time of the proved ones, and the nodes. The JSON results of
`renju solve --batch` go to --out, one line per reply, with the ring added; --resume reads such
a file and solves only the replies it does not hold yet. --sample N solves a fixed random
sample of N replies (seeded, so a sample is the same from run to run); --rings limits the
replies to the given rings.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys

FILES = "abcdefghijklmnopqrst"


def parse_point(name):
    return FILES.index(name[0].lower()), int(name[1:]) - 1


def point_name(p):
    return f"{FILES[p[0]]}{p[1] + 1}"


def ring(p, stones):
    d = min(max(abs(p[0] - s[0]), abs(p[1] - s[1])) for s in stones)
    return min(d, 5)


def replies(moves, size):
    stones = [parse_point(m) for m in moves]
    empty = [(x, y) for y in range(size) for x in range(size) if (x, y) not in stones]
    return [(point_name(p), ring(p, stones)) for p in empty]


def summary(results):
    rows = []
    for r in range(1, 6):
        ring_results = [x for x in results if x["ring"] == r]
        proved = [x for x in ring_results if x.get("result") in ("win", "loss")]
        times = sorted(x["seconds"] for x in proved)
        rows.append(
            {
                "ring": "5+" if r == 5 else str(r),
                "replies": len(ring_results),
                "proved": len(proved),
                "median_s": statistics.median(times) if times else None,
                "max_s": times[-1] if times else None,
                "nodes": sum(x.get("nodes", 0) for x in ring_results),
                "proof_nodes": sum(x.get("proof_nodes", 0) for x in proved),
            }
        )
    return rows


def print_summary(results):
    print("| ring | replies | proved | median s (proved) | max s (proved) | nodes | proof nodes |")
    print("|---|---|---|---|---|---|---|")
    fmt = lambda v: "-" if v is None else f"{v:.2f}"
    total = {"replies": 0, "proved": 0, "nodes": 0, "proof_nodes": 0}
    for row in summary(results):
        if row["replies"] == 0:
            continue
        for k in total:
            total[k] += row[k]
        print(
            f"| {row['ring']} | {row['replies']} | {row['proved']} | {fmt(row['median_s'])} | "
            f"{fmt(row['max_s'])} | {row['nodes']:,} | {row['proof_nodes']:,} |"
        )
    all_proved = sorted(
        x["seconds"] for x in results if x.get("result") in ("win", "loss")
    )
    median = fmt(statistics.median(all_proved)) if all_proved else "-"
    print(
        f"| all | {total['replies']} | {total['proved']} | {median} | "
        f"{fmt(all_proved[-1]) if all_proved else '-'} | {total['nodes']:,} | "
        f"{total['proof_nodes']:,} |"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("position", help="the opening's moves, e.g. 'h8 h9 i9'")
    ap.add_argument("--renju", default="target/release/renju", help="the renju binary")
    ap.add_argument("--time", type=float, help="seconds per reply")
    ap.add_argument("--nodes", type=int, help="nodes per reply")
    ap.add_argument("--threads", type=int, default=1, help="replies solved at once")
    ap.add_argument("--memory", type=int, help="MiB for the whole batch")
    ap.add_argument(
        "--attacker",
        choices=["black", "white"],
        help="search for this side's win only (solve --attacker)",
    )
    ap.add_argument("--sample", type=int, help="a seeded random sample of this many replies")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed")
    ap.add_argument("--rings", help="only these rings, e.g. '1,2' (5 means 5 or more)")
    ap.add_argument("--only", help="only these replies, e.g. 'j11,g7'")
    ap.add_argument("--out", help="write the results here (JSON lines)")
    ap.add_argument("--resume", action="store_true", help="keep the results --out holds")
    ap.add_argument("--summary", action="store_true", help="only summarise --out")
    args = ap.parse_args()

    moves = args.position.split()
    todo = replies(moves, 15)
    if args.rings:
        rings = {int(r) for r in args.rings.split(",")}
        todo = [t for t in todo if t[1] in rings]
    if args.only:
        only = set(args.only.split(","))
        todo = [t for t in todo if t[0] in only]
    if args.sample is not None and args.sample < len(todo):
        todo = sorted(random.Random(args.seed).sample(todo, args.sample))

    done = []
    if args.out and (args.resume or args.summary) and os.path.exists(args.out):
        with open(args.out) as f:
            done = [json.loads(line) for line in f if line.strip()]
    if args.summary:
        print_summary(done)
        return
    have = {d["id"] for d in done}
    todo = [t for t in todo if t[0] not in have]
    ring_of = dict(todo)

    command = [args.renju, "solve", "--batch", "-", "--quiet", "--threads", str(args.threads)]
    if args.time is not None:
        command += ["--time", str(args.time)]
    if args.nodes is not None:
        command += ["--nodes", str(args.nodes)]
    if args.memory is not None:
        command += ["--memory", str(args.memory)]
    if args.attacker is not None:
        command += ["--attacker", args.attacker]
    batch = "".join(
        json.dumps({"id": r, "position": " ".join(moves + [r])}) + "\n" for r, _ in todo
    )
    out = open(args.out, "a" if args.resume else "w") if args.out else None
    if out and not args.resume:
        for d in done:
            out.write(json.dumps(d) + "\n")
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as proc:
        proc.stdin.write(batch)
        proc.stdin.close()
        for line in proc.stdout:
            result = json.loads(line)
            result["ring"] = ring_of.get(result.get("id"), 0)
            done.append(result)
            if out:
                out.write(json.dumps(result) + "\n")
                out.flush()
            print(
                f"{result['id']:>4} ring {result['ring']} {result.get('result', 'error'):>7} "
                f"{result.get('seconds', 0):7.2f} s {result.get('nodes', 0):>12,} nodes",
                flush=True,
            )
    if proc.returncode != 0:
        sys.exit(f"error: {' '.join(command)} exited with status {proc.returncode}")
    print_summary(done)


if __name__ == "__main__":
    main()

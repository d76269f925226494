#!/usr/bin/env bash
# CI: the book cycle on a real Slurm. Installs Debian's slurm-wlm and munge, starts munged,
# slurmctld and slurmd as a one-node cluster on this machine (scripts/slurm/local-cluster.sh),
# builds the release binary, runs work as a job array with `sbatch --wait --array`, merges the
# parts into a book and checks it. Needs root and apt-get: without them it fails, it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

[[ $(id -u) -eq 0 ]] || {
  echo "error: .ci/slurm-book.sh must run as root (it installs slurm-wlm and munge and starts their daemons)" >&2
  exit 1
}
command -v cargo >/dev/null || { echo "error: cargo is not installed" >&2; exit 1; }

echo "== slurm: a one-node cluster on this machine"
bash scripts/slurm/local-cluster.sh

echo "== slurm: cargo build --release --locked"
cargo build --release --locked
export PATH="$PWD/target/release:$PATH"
command -v renju

work=$PWD/target/slurm-ci
rm -rf "$work"
mkdir -p "$work"
book=$work/book.db

echo "== slurm: book cycle"
# A small book: one root (data/examples/vct.txt, Black to move wins), each position searched
# with a small node budget so that the root is not proved at once: the first round searches the
# root, the second its replies, a third settles it (every round's parts merged and checked).
renju book build --db "$book" --roots data/examples/vct.txt --budget 0 --quiet
RENJU_PLAN_ARGS="--position-nodes 2000 --per-shard 128" timeout 900 bash scripts/slurm/cycle.sh "$book" 2 4
renju book status "$book"
renju book status "$book" --json | tee "$work/status.json"
grep -q '"result":"proved"' "$work/status.json" || { echo "error: the cycle did not prove the book's root" >&2; exit 1; }

echo "== slurm: the merged book checks"
renju db info "$book"
renju check "$book" --json | tee "$work/check.json"
grep -q '"ok":true' "$work/check.json" || { echo "error: renju check did not report ok" >&2; exit 1; }
grep -Eq '"roots":[1-9]' "$work/check.json" || { echo "error: the book has no roots: nothing was proved" >&2; exit 1; }

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

# Stand-in for the book cycle until `renju book plan/work` exist: the same shape with commands
# that exist now. Two units (bundled positions, each proved in well under a second), one array
# task per unit writing its part with `solve --db`, then merge and check, as cycle.sh does.
standin_cycle() {
  local units=$work/units parts=$work/parts logs=$work/logs i
  mkdir -p "$units" "$parts" "$logs"
  cp data/examples/vct.txt "$units/unit-0.txt"
  cp data/examples/vcf.txt "$units/unit-1.txt"
  echo "\$ sbatch --wait --array=0-1 (renju solve UNIT --db PART per task)"
  # shellcheck disable=SC2016 # expanded by the task's shell, not here
  timeout 600 sbatch --wait --array=0-1 --job-name=renju-ci --cpus-per-task=1 --time=10 \
    --output="$logs/%x-%A_%a.log" --export="ALL,UNITS=$units,PARTS=$parts" \
    --wrap 'exec renju solve "$UNITS/unit-$SLURM_ARRAY_TASK_ID.txt" --threads 1 --time 30 --db "$PARTS/part-$SLURM_ARRAY_TASK_ID.db"' || {
    tail -n 30 "$logs"/*.log >&2 || true
    echo "error: the stand-in array job failed (exit status above; logs in $logs)" >&2
    return 1
  }
  tail -n 30 "$logs"/*.log
  for i in 0 1; do
    [[ -e $parts/part-$i.db ]] || { echo "error: task $i wrote no $parts/part-$i.db" >&2; return 1; }
  done
  renju db merge "$book" "$parts/part-0.db" "$parts/part-1.db"
  renju check "$book"
}

echo "== slurm: book cycle"
# TODO(book): once `renju book plan/work` exist, seed "$book" with a few roots, then replace the next line with: timeout 900 bash scripts/slurm/cycle.sh "$book" 2 2
standin_cycle

echo "== slurm: the merged book checks"
renju db info "$book"
renju check "$book" --json | tee "$work/check.json"
grep -q '"ok":true' "$work/check.json" || { echo "error: renju check did not report ok" >&2; exit 1; }
grep -Eq '"roots":[1-9]' "$work/check.json" || { echo "error: the book has no roots: nothing was proved" >&2; exit 1; }

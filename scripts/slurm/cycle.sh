#!/usr/bin/env bash
# The book cycle on Slurm, ROUNDS times (default 1):
#   renju book plan BOOK --shards SHARDS --out UNITS      the frontier as at most SHARDS units
#   sbatch --wait --array=0-(N-1) book.sbatch UNITS PARTS  one array task per unit, its searches
#                                                          guided by a copy of BOOK (--guide)
#   renju book release BOOK UNITS/unit-i.json --results PARTS/results-i.jsonl
#                                                          a task's positions not searched to
#                                                          their budgets back to the frontier
#   renju db merge BOOK PARTS/part-*.db                    the parts back into the book
#   renju check BOOK                                       the book verified from scratch
# It stops early when plan writes no unit (nothing left to prove), and exits non-zero as soon as
# a step fails. See scripts/slurm/README.md.
#
#   scripts/slurm/cycle.sh BOOK SHARDS [ROUNDS]
#
# Environment:
#   RENJU              the renju binary (default: `renju` on PATH); tasks get its absolute path
#   RENJU_CYCLE_DIR    where rounds keep units, parts and logs (default: BOOK.slurm beside the
#                      book); on a cluster it must be on a file system the compute nodes share
#   RENJU_SBATCH_ARGS  extra sbatch options, split on spaces, e.g.
#                      "--partition=long --cpus-per-task=16 --time=4:00:00"
#   RENJU_WORK_ARGS    extra `renju book work` options, split on spaces
#   RENJU_PLAN_ARGS    extra `renju book plan` options, split on spaces, e.g.
#                      "--per-shard 8 --position-time 60"
#
# Resuming: each round lives in RENJU_CYCLE_DIR/round-K and is marked done once its parts are
# merged and the book checked. A rerun first merges (and checks) the parts any unfinished round
# left behind, then plans again from the book, so proved work is not lost.
set -euo pipefail

die() {
  echo "cycle: error: $*" >&2
  exit 1
}
say() { echo "cycle: $*"; }

(($# >= 2 && $# <= 3)) || die "usage: $0 BOOK SHARDS [ROUNDS]"
book=$1
shards=$2
rounds=${3:-1}
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a positive integer, not '$shards'"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
command -v sbatch >/dev/null || die "sbatch not found: this needs a Slurm cluster (scripts/slurm/local-cluster.sh starts one on this machine)"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
script=$here/book.sbatch
[[ -r $script ]] || die "$script is missing"
renju=$(command -v "${RENJU:-renju}") || die "renju binary '${RENJU:-renju}' not found (set RENJU or put renju on PATH)"
[[ $renju == /* ]] || renju=$(pwd)/$renju
book=$(realpath -m -- "$book")
work=$(realpath -m -- "${RENJU_CYCLE_DIR:-$book.slurm}")
read -ra sbatch_args <<<"${RENJU_SBATCH_ARGS:-}"
read -ra work_args <<<"${RENJU_WORK_ARGS:-}"
read -ra plan_args <<<"${RENJU_PLAN_ARGS:-}"
mkdir -p "$work"

# Run a step, echoing it and its time; any failure ends the cycle (set -e).
step() {
  local t0=$SECONDS
  say "\$ $*"
  "$@"
  say "  ($((SECONDS - t0)) s)"
}

# Merge the parts of round DIR into the book, check the book, mark the round done. First the
# positions its tasks did not search to their budgets (cut short, or never run) go back to the
# frontier (`renju book release`, from each task's results), so that the next plan does not
# count them as searched.
merge_round() {
  local dir=$1 dbs=() unit task results
  shopt -s nullglob
  for unit in "$dir"/units/unit-*.json; do
    task=${unit##*/unit-}
    task=${task%.json}
    results=()
    [[ -e $dir/parts/results-$task.jsonl ]] && results=(--results "$dir/parts/results-$task.jsonl")
    "$renju" book release "$book" "$unit" "${results[@]}" ||
      say "warning: the positions of $unit not searched to their budgets were not given back (above); the next plan counts them as searched"
  done
  dbs=("$dir"/parts/part-*.db)
  shopt -u nullglob
  if ((${#dbs[@]})); then
    step "$renju" db merge "$book" "${dbs[@]}"
    step "$renju" check "$book"
  fi
  touch "$dir/done"
}

# Rounds a killed or failed run left unfinished: their parts hold proved work; take it in.
shopt -s nullglob
for dir in "$work"/round-*/; do
  dir=${dir%/}
  [[ -e $dir/done ]] && continue
  say "${dir##*/} did not finish: merging the parts it left (if a job of it still runs, its later parts are not taken in)"
  merge_round "$dir"
done
shopt -u nullglob

next_round() {
  local k=1
  while [[ -e $work/round-$k ]]; do k=$((k + 1)); done
  echo "$k"
}

for ((r = 1; r <= rounds; r++)); do
  k=$(next_round)
  dir=$work/round-$k
  units=$dir/units
  parts=$dir/parts
  logs=$dir/logs
  mkdir -p "$units" "$parts" "$logs"
  say "round $r of $rounds, in $dir"

  step "$renju" book plan "$book" --shards "$shards" --out "$units" "${plan_args[@]}"
  # The tasks' searches are guided by the book's proofs as planned (`book work --guide`): a
  # copy in the round's directory, which the compute nodes share and the merge leaves alone.
  guide=$dir/guide.db
  cp -- "$book" "$guide"
  n=0
  while [[ -e $units/unit-$n.json ]]; do n=$((n + 1)); done
  shopt -s nullglob
  all=("$units"/unit-*.json)
  shopt -u nullglob
  ((${#all[@]} == n)) || die "$units holds ${#all[@]} unit files, but not unit-0.json to unit-$((n - 1)).json"
  if ((n == 0)); then
    touch "$dir/done"
    say "plan wrote no work unit: nothing left to prove in $book"
    break
  fi
  ((n <= shards)) || die "plan wrote $n units for $shards shards"

  t0=$SECONDS
  say "\$ sbatch --wait --array=0-$((n - 1)) ... book.sbatch $units $parts"
  if ! sbatch --wait --array="0-$((n - 1))" --output="$logs/%x-%A_%a.log" \
    --export="ALL,RENJU=$renju" "${sbatch_args[@]}" \
    "$script" "$units" "$parts" --guide "$guide" "${work_args[@]}"; then
    for log in "$logs"/*.log; do
      [[ -e $log ]] || continue
      echo "----- $log" >&2
      tail -n 30 "$log" >&2
    done
    die "the array job failed (logs in $logs); rerunning the same command merges the parts that were written"
  fi
  say "  ($((SECONDS - t0)) s)"
  for ((i = 0; i < n; i++)); do
    [[ -e $parts/part-$i.db ]] || die "task $i finished without writing $parts/part-$i.db (log: $logs)"
  done
  merge_round "$dir"
done
say "done: $book"

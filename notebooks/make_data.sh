#!/usr/bin/env bash
# Writes the notebooks' inputs with the renju CLI: OUT_DIR/status.jsonl (`renju book status
# --json` of three small books built here and of every book shipped in data/books, one line
# each) and OUT_DIR/scaling.jsonl (`renju solve --json` on three positions at 1 and 2 threads,
# 3 runs each). About 20 s on 2 cores.
#
#   notebooks/make_data.sh OUT_DIR
#
# Environment: RENJU, the binary (default target/release/renju: run `cargo build --release`
# first); RENJU_BOOKS_DIR, where the books are built (default target/notebooks-books; their
# earlier vct/vcf/d4 files there are deleted first); PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: notebooks/make_data.sh OUT_DIR}
renju=${RENJU:-target/release/renju}
books=${RENJU_BOOKS_DIR:-target/notebooks-books}
python=${PYTHON:-python3}
[[ -x $renju ]] || { echo "error: no renju binary at $renju (cargo build --release)" >&2; exit 1; }
mkdir -p "$out" "$books"
rm -f "$books"/vct.db* "$books"/vcf.db* "$books"/d4.db* "$out/status.jsonl" "$out/scaling.jsonl"

# vct.txt (Black to move wins by VCT) with a small node budget per position, so that the tree
# grows over many rounds before the root is proved; one history sample per round.
"$renju" book build --db "$books/vct.db" --roots data/examples/vct.txt \
  --position-nodes 2000 --threads 1 --checkpoint 0 --quiet >/dev/null
# vcf.txt: White to move wins by VCF, proved by the first search.
"$renju" book build --db "$books/vcf.db" --roots data/examples/vcf.txt --attacker white \
  --position-nodes 20000 --threads 1 --checkpoint 0 --quiet >/dev/null
# The opening D4 (Kagetsu) for 3 seconds: far from proved, a root with a frontier.
"$renju" book build --db "$books/d4.db" --opening D4 --budget 3 \
  --position-nodes 5000 --threads 1 --checkpoint 0 --quiet >/dev/null
for book in vct vcf d4; do
  "$renju" book status "$books/$book.db" >&2
  "$renju" book status "$books/$book.db" --json >>"$out/status.jsonl"
done
# The books shipped in data/books (opening proofs in progress), as they stand.
for book in data/books/*.rdb; do
  [[ -e $book ]] || continue
  "$renju" book status "$book" --json >>"$out/status.jsonl"
done

"$python" notebooks/collect_scaling.py --renju "$renju" \
  --positions notebooks/scaling_positions.jsonl --threads 1,2 --repeat 3 \
  --out "$out/scaling.jsonl"

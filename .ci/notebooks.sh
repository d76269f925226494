#!/usr/bin/env bash
# CI: the notebooks in notebooks/ run headless on data made in this run, so they cannot rot.
# Builds the release binary; installs notebooks/requirements.txt into a virtual environment,
# target/notebooks-venv (kept while the requirements and the python are unchanged); builds three
# small books and times a few solves on 1 and 2 threads with the fresh binary
# (notebooks/make_data.sh); then executes every notebook with `jupyter nbconvert --execute`, and
# any failing cell fails CI. Needs python3 (3.11) with pip, and PyPI. Environment: PYTHON
# (default python3), NOTEBOOK_TIMEOUT (seconds per notebook, default 600).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
for tool in cargo "$python"; do
  command -v "$tool" >/dev/null || { echo "error: $tool is not installed" >&2; exit 1; }
done
started=$SECONDS

echo "== notebooks: cargo build --release --locked"
cargo build --release --locked
renju=$PWD/target/release/renju

echo "== notebooks: python environment (target/notebooks-venv)"
venv=$PWD/target/notebooks-venv
stamp=$venv/renju-stamp.txt
want=$(cat notebooks/requirements.txt && "$python" -c 'import sys; print(sys.executable, sys.version)')
"$python" --version
if [[ -x $venv/bin/python ]] && [[ -f $stamp ]] && [[ $(cat "$stamp") == "$want" ]] &&
  "$venv/bin/python" -c 'import nbconvert, nbclient, ipykernel, pandas, matplotlib' 2>/dev/null; then
  echo "reusing $venv (same requirements and python)"
else
  rm -rf "$venv"
  # Debian's python3 has no ensurepip without python3-venv: then the venv borrows the system pip.
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    echo "note: '$python -m venv' failed (no ensurepip?); using the system pip in the venv"
    rm -rf "$venv"
    "$python" -m venv --without-pip --system-site-packages "$venv"
  fi
  "$venv/bin/python" -m pip --version
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    -r notebooks/requirements.txt
  printf '%s\n' "$want" >"$stamp"
fi

work=$PWD/target/notebooks
data=$work/data
rm -rf "$work"

echo "== notebooks: three small books and solves on 1 and 2 threads (notebooks/make_data.sh)"
RENJU=$renju RENJU_BOOKS_DIR=$work/books PYTHON=$python bash notebooks/make_data.sh "$data"

echo "== notebooks: execute"
export RENJU_BOOK_STATUS=$data/status.jsonl
export RENJU_SCALING=$data/scaling.jsonl
export RENJU_NOTEBOOK_OUT=$work
export JUPYTER_PLATFORM_DIRS=1
for notebook in notebooks/*.ipynb; do
  echo "-- $notebook"
  timeout "${NOTEBOOK_TIMEOUT:-600}" "$venv/bin/python" -m nbconvert --to notebook \
    --execute --ExecutePreprocessor.timeout=300 --output-dir "$work/executed" "$notebook"
done
for figure in openings book_growth book_growth_wallclock scaling; do
  [[ -s $work/$figure.png ]] || { echo "error: no figure $work/$figure.png" >&2; exit 1; }
done
ls -l "$work"/*.png "$work/executed"
echo "== notebooks: done in $((SECONDS - started)) s"

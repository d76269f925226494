"""Loading and checking the JSON that the `renju` CLI writes, for the notebooks here.

- `load_books(path)`: one or more `renju book status BOOK --json` (or `book build --json`)
  objects: a file holding one object, or JSON lines with one object per line (one per book).
- `load_scaling(path)`: JSON lines of `renju solve --json` results, each with the `id` of the
  position and the `threads` it ran on (as `collect_scaling.py` writes them).

Every problem with the input raises `DataError` with a message that names the file (and line),
so a notebook stops at its first cell instead of plotting nothing.
"""

import json
import math
import os
from pathlib import Path

import pandas as pd

RESULTS = {"proved", "disproved", "draw", "unknown"}
COLORS = {"black", "white"}
SOLVE_RESULTS = {"win", "loss", "draw", "unknown"}


class DataError(Exception):
    """The input file is missing, is not the JSON the CLI writes, or contradicts itself."""


def repo_root():
    """The repository: the directory holding `notebooks/renju_json.py`."""
    return Path(__file__).resolve().parent.parent


def input_path(var, default):
    """The input file named by environment variable `var`, else `default`. A relative path
    is taken from the repository root, so the same value works from any directory."""
    value = os.environ.get(var) or default
    path = Path(value)
    if not path.is_absolute():
        path = repo_root() / path
    if not path.is_file():
        raise DataError(f"{var}: no such file: {path} (set {var} to a file the renju CLI wrote)")
    print(f"{var} = {path}")
    return path


def output_dir():
    """Where figures go: `RENJU_NOTEBOOK_OUT`, default `target/notebooks` (from the root)."""
    path = Path(os.environ.get("RENJU_NOTEBOOK_OUT") or "target/notebooks")
    if not path.is_absolute():
        path = repo_root() / path
    path.mkdir(parents=True, exist_ok=True)
    return path


def save(fig, name):
    """Saves a figure as PNG under `output_dir()` and returns its path."""
    path = output_dir() / f"{name}.png"
    fig.savefig(path, dpi=100, bbox_inches="tight")
    print(f"wrote {path}")
    return path


def read_objects(path):
    """The JSON objects in a file: one object (any layout), or one object per line."""
    text = Path(path).read_text(encoding="utf-8")
    if not text.strip():
        raise DataError(f"{path}: the file is empty")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    objects = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(f"{path}:{number}: not JSON ({e.msg}): {line[:80]!r}") from None
        if not isinstance(value, dict):
            raise DataError(f"{path}:{number}: expected a JSON object, got {type(value).__name__}")
        objects.append((number, value))
    if not objects:
        raise DataError(f"{path}: no JSON object in the file")
    return objects


def _field(obj, key, kinds, where, nullable=False):
    if key not in obj:
        raise DataError(f"{where}: missing field `{key}`")
    value = obj[key]
    if value is None and nullable:
        return value
    if isinstance(value, bool) or not isinstance(value, kinds):
        names = "/".join(k.__name__ for k in kinds)
        raise DataError(f"{where}: field `{key}` should be {names}, not {value!r}")
    if isinstance(value, (int, float)) and (value < 0 or not math.isfinite(value)):
        raise DataError(f"{where}: field `{key}` should be a finite number >= 0, not {value!r}")
    return value


def _check_book(book, where):
    if "book" not in book or "roots" not in book:
        raise DataError(f"{where}: not the output of `renju book status BOOK --json`"
                        f" (no `book` or `roots` field; fields: {sorted(book)[:8]})")
    _field(book, "book", (str,), where)
    for key in ("rules", "size"):
        _field(book, key, (str,), where)
    _field(book, "seconds", (int, float), where)
    for key in ("searches", "nodes", "positions", "database_nodes"):
        _field(book, key, (int,), where)
    roots = _field(book, "roots", (list,), where)
    history = _field(book, "history", (list,), where)
    if not roots:
        raise DataError(f"{where}: the book has no roots")
    for i, root in enumerate(roots):
        at = f"{where}: roots[{i}]"
        if not isinstance(root, dict):
            raise DataError(f"{at}: expected an object")
        _field(root, "name", (str,), at)
        _field(root, "moves", (list,), at)
        for key in ("attacker", "to_move"):
            if _field(root, key, (str,), at) not in COLORS:
                raise DataError(f"{at}: `{key}` should be black or white, not {root[key]!r}")
        if _field(root, "result", (str,), at) not in RESULTS:
            raise DataError(f"{at}: unknown result {root['result']!r}")
        _field(root, "winner", (str,), at, nullable=True)
        for key in ("proof_nodes", "proof_depth", "proof_number", "disproof_number"):
            _field(root, key, (int,), at, nullable=True)
        for key in ("positions", "frontier"):
            _field(root, key, (int,), at)
        _field(root, "seconds", (int, float), at)
        _field(root, "deepest_unproved", (list,), at)
    for i, sample in enumerate(history):
        at = f"{where}: history[{i}]"
        if not isinstance(sample, dict):
            raise DataError(f"{at}: expected an object")
        _field(sample, "seconds", (int, float), at)
        for key in ("unix_time", "roots", "proved", "disproved", "frontier", "positions",
                    "searches", "nodes"):
            _field(sample, key, (int,), at)


def load_books(path):
    """The books in a file of `renju book status --json` objects, checked field by field."""
    books = []
    for item in read_objects(path):
        number, book = item if isinstance(item, tuple) else (None, item)
        where = f"{path}:{number}" if number else str(path)
        _check_book(book, where)
        books.append(book)
    names = [Path(b["book"]).stem for b in books]
    if len(set(names)) != len(names):
        raise DataError(f"{path}: two books share a name: {names}")
    return books


def book_label(book):
    """A short name for a book: its file name without the extension."""
    return Path(book["book"]).stem


def roots_table(books):
    """One row per root of every book. `seconds` is the time spent searching positions under
    the root (the CLI's per-root `seconds`), and `book_seconds` the whole book's build time."""
    rows = []
    for book in books:
        for root in book["roots"]:
            rows.append({
                "book": book_label(book),
                "root": root["name"],
                "moves": " ".join(root["moves"]),
                "attacker": root["attacker"],
                "result": root["result"],
                "winner": root["winner"],
                "proof_nodes": root["proof_nodes"],
                "proof_depth": root["proof_depth"],
                "positions": root["positions"],
                "frontier": root["frontier"],
                "seconds": root["seconds"],
                "book_seconds": book["seconds"],
                "book_roots": len(book["roots"]),
            })
    table = pd.DataFrame(rows)
    for key in ("proof_nodes", "proof_depth"):
        table[key] = table[key].astype("Int64")
    return table


def history_table(books):
    """One row per history sample of every book, with `time` as a UTC timestamp."""
    frames = []
    for book in books:
        frame = pd.DataFrame(book["history"])
        frame.insert(0, "book", book_label(book))
        frames.append(frame)
    table = pd.concat(frames, ignore_index=True)
    table["time"] = pd.to_datetime(table["unix_time"], unit="s", utc=True)
    return table


RESULT_COLORS = {"proved": "tab:green", "disproved": "tab:red", "draw": "tab:gray",
                 "unknown": "tab:orange"}


def _number(value):
    if pd.isna(value):
        return ""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:.3g}"


def bars(ax, table, column, title, missing="n/a"):
    """Horizontal bars of `column`, one per root, coloured by result; a missing value gets
    the word `missing` instead of a bar."""
    values = table[column].astype("Float64")
    shared = table["root"].duplicated(keep=False)
    labels = table["root"].where(~shared, table["book"] + ": " + table["root"])
    positions = range(len(table))
    drawn = ax.barh(positions, values.fillna(0).astype(float),
                    color=[RESULT_COLORS[r] for r in table["result"]])
    ax.bar_label(drawn, labels=[_number(v) for v in values], padding=2)
    ax.set_xlim(0, 1.15 * max(1, values.max(skipna=True) if values.notna().any() else 1))
    ax.set_yticks(list(positions), labels)
    ax.invert_yaxis()
    ax.set_title(title)
    for y, value in zip(positions, values):
        if pd.isna(value):
            ax.text(0, y, f" {missing}", va="center", color="dimgray")


def load_scaling(path):
    """Solve runs, one per line: `renju solve --json` fields plus `id` and `threads`."""
    rows = []
    for item in read_objects(path):
        number, run = item if isinstance(item, tuple) else (1, item)
        where = f"{path}:{number}"
        if "error" in run:
            raise DataError(f"{where}: the solve failed: {run['error']}")
        if "id" not in run or "threads" not in run:
            raise DataError(f"{where}: a solve result without `id` and `threads`"
                            " (collect_scaling.py writes them)")
        for key in ("id", "result"):
            _field(run, key, (str,), where)
        if run["result"] not in SOLVE_RESULTS:
            raise DataError(f"{where}: unknown result {run['result']!r}")
        if _field(run, "threads", (int,), where) < 1:
            raise DataError(f"{where}: `threads` should be at least 1")
        _field(run, "seconds", (int, float), where)
        _field(run, "nodes", (int,), where)
        rows.append({k: run[k] for k in ("id", "threads", "result", "seconds", "nodes")})
    return pd.DataFrame(rows)

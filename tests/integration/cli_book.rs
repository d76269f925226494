//! `renju book`: building a small book, killing the builder midway and resuming it, RenLib
//! roots, the search log, and the errors of each subcommand; the helpers the book tests share
//! (the plan / work / merge cycle's tests are in `cli_book_units`).

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{run, stderr};

pub(super) const VCT: &str = "data/examples/vct.txt";

pub(super) fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}", String::from_utf8_lossy(out));
    })
}

/// A path as a command-line argument.
pub(super) fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}

/// `renju ARGS`, which must succeed; the JSON it prints.
/// `book build` of the example VCT root with no search budget: the book is set up and nothing
/// is searched yet.
pub(super) fn set_up(book: &str) -> Vec<&str> {
    [vct_build(book), vec!["--budget", "0"]].concat()
}

/// `set_up` of `book`, with no notes; it must succeed.
pub(super) fn set_up_quietly(book: &Path) {
    let init = run(&[set_up(arg(book)), vec!["--quiet"]].concat());
    assert!(init.status.success(), "{}", stderr(&init));
}

/// `book build --db BOOK --roots` the example VCT root.
fn vct_build(book: &str) -> Vec<&str> {
    vec!["book", "build", "--db", book, "--roots", VCT]
}

/// `book build` of `book` from the RenLib library `lib`, with no search budget.
fn from_library<'a>(book: &'a str, lib: &'a str) -> Vec<&'a str> {
    vec![
        "book",
        "build",
        "--db",
        book,
        "--roots-lib",
        lib,
        "--budget",
        "0",
    ]
}

/// A RenLib 3.4 library: the header, then `records` (the root record included).
fn library_bytes(records: &[u8]) -> Vec<u8> {
    let mut bytes = b"\xFFRenLib\xFF\x03\x04".to_vec();
    bytes.extend_from_slice(&[0xFF; 10]);
    bytes.extend_from_slice(records);
    bytes
}

pub(super) fn ok(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    json(&out.stdout)
}

/// `renju ARGS`, which must fail as bad input: exit status 2 and one line on stderr, which
/// is returned.
pub(super) fn input_error(args: &[&str]) -> String {
    let out = run(args);
    let stderr = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    stderr
}

pub(super) fn status(book: &Path) -> Value {
    ok(&["book", "status", "--json", arg(book)])
}

pub(super) fn check_ok(book: &Path) -> Value {
    let out = run(&["check", "--json", arg(book)]);
    let report = json(&out.stdout);
    assert!(out.status.success(), "check failed: {report}");
    assert_eq!(report["ok"], true);
    report
}

/// `book build` of the example VCT root into `book`, 2000 nodes a search, with `extra`
/// options; the JSON it prints.
fn build_vct_book(book: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "book",
        "build",
        "--db",
        arg(book),
        "--roots",
        VCT,
        "--position-nodes",
        "2000",
        "--json",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

/// `book work UNIT --out PART` on one thread, with `extra` options, printing JSON.
pub(super) fn work_unit(unit: &Path, part: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "book",
        "work",
        arg(unit),
        "--out",
        arg(part),
        "--threads",
        "1",
        "--json",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn a_small_book_is_proved_from_the_top_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let built = build_vct_book(&book, &["--threads", "2"]);
    assert_eq!(built["stopped"], "every root settled");
    let root = &built["roots"][0];
    assert_eq!(root["result"], "proved");
    assert_eq!(root["winner"], "black");
    assert_eq!(root["frontier"], 0);
    assert!(root["proof_nodes"].as_u64().unwrap() > 1);
    assert!(built["searches"].as_u64().unwrap() > 10, "{built}");
    let report = check_ok(&book);
    assert!(report["roots"].as_u64().unwrap() >= 1);
    // Status reads the same book back; the database answers for the root.
    assert_eq!(status(&book)["roots"][0]["result"], "proved");
    let query = run(&["db", "query", "--json", arg(&book), VCT]);
    assert_eq!(json(&query.stdout)["result"], "win");
    // Built again, a settled book has nothing to do.
    let again = ok(&["book", "build", "--db", arg(&book), "--json", "--quiet"]);
    assert_eq!(again["searches"], built["searches"]);
}

#[test]
fn an_opening_root_is_the_opening_on_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("d4.db");
    let built = ok(&[
        "book",
        "build",
        "--db",
        arg(&book),
        "--opening",
        "kagetsu",
        "--budget",
        "0",
        "--json",
        "--quiet",
    ]);
    let root = &built["roots"][0];
    assert_eq!(root["name"], "D4 Kagetsu");
    assert_eq!(root["moves"], serde_json::json!(["h8", "h9", "i9"]));
    assert_eq!(root["to_move"], "white");
    assert_eq!(root["result"], "unknown");
}

/// Kills a builder with SIGKILL once it has written its first checkpoint, then runs the same
/// command again: nothing proved before the kill is lost, and the book is finished and checks.
/// The builder runs on one thread with a checkpoint every 0.1 s: the whole build takes about
/// 1.5 s on the 2-core CI machine, so the kill lands mid-build on machines many times faster.
#[test]
fn a_killed_build_resumes_without_losing_proved_work_or_leaving_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let journal = dir.path().join("book.db.journal");
    let grow = |book: &Path, checkpoint: bool| -> Vec<String> {
        let mut args = vec!["book", "build", "--db", arg(book), "--roots", VCT];
        args.extend([
            "--position-nodes",
            "300",
            "--threads",
            "1",
            "--json",
            "--quiet",
        ]);
        if checkpoint {
            args.extend(["--checkpoint", "0.1"]);
        }
        args.into_iter().map(String::from).collect()
    };
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("renju"))
        .args(grow(&book, true))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !journal.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no checkpoint written"
        );
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let finished_early = child.try_wait().unwrap().is_some();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !finished_early,
        "the build finished before it could be killed"
    );
    // What the killed run left is whole: the book reads, the database checks.
    let before = status(&book);
    let positions_before = before["positions"].as_u64().unwrap();
    let searches_before = before["searches"].as_u64().unwrap();
    assert!(positions_before > 1, "no work saved: {before}");
    let db_before = check_ok(&book)["roots"].as_u64().unwrap();
    // What a write killed between creating its temporary file and renaming it leaves (the
    // kill above may not have hit one).
    for leftover in [
        ".renju-book.db.AbC123.tmp",
        ".renju-book.db.journal.XyZ789.tmp",
    ] {
        std::fs::write(dir.path().join(leftover), b"half written").unwrap();
    }

    let resumed = ok(&grow(&book, true)
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(resumed["roots"][0]["result"], "proved", "{resumed}");
    assert!(resumed["positions"].as_u64().unwrap() >= positions_before);
    let after = check_ok(&book);
    assert!(after["roots"].as_u64().unwrap() >= db_before);
    let temporaries: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(temporaries.is_empty(), "left behind: {temporaries:?}");

    // The resumed run did less than a run from scratch: the killed run's work was kept.
    let fresh = dir.path().join("fresh.db");
    let out: Output = run(&grow(&fresh, false));
    let whole = json(&out.stdout)["searches"].as_u64().unwrap();
    let resumed_searches = resumed["searches"].as_u64().unwrap() - searches_before;
    assert!(
        resumed_searches < whole,
        "resumed {resumed_searches} searches, from scratch {whole}"
    );
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let b = arg(&book);
    let cases: [(&[&str], &str); 8] = [
        (&["book", "status", b], "no book at"),
        (
            &[
                "book",
                "build",
                "--db",
                b,
                "--opening",
                "D1",
                "--threads",
                "0",
            ],
            "0 is not in 1..=1024",
        ),
        (
            &[
                "book",
                "build",
                "--db",
                b,
                "--opening",
                "D1",
                "--position-nodes",
                "0",
            ],
            "invalid value '0' for '--position-nodes <N>'",
        ),
        (
            &["--size", "4", "book", "build", "--db", b, "--opening", "D1"],
            "no one can win on the 4x4 board",
        ),
        (&["book", "build", "--db", b], "the book has no roots"),
        (
            &["book", "build", "--db", b, "--opening", "D14"],
            "unknown opening `D14`",
        ),
        (
            &["book", "work", "no-such-unit.json", "--out", "x.db"],
            "cannot read unit",
        ),
        (
            &["book", "plan", b, "--shards", "0", "--out", "units"],
            "--shards and --per-shard must be at least 1",
        ),
    ];
    for (args, expected) in cases {
        let stderr = input_error(args);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }

    set_up_quietly(&book);

    // A plan under a line the book does not hold, or that is not a line.
    let units = dir.path().join("units");
    let plan_under = |line| {
        vec![
            "book",
            "plan",
            b,
            "--shards",
            "1",
            "--out",
            arg(&units),
            "--under",
            line,
        ]
    };
    assert!(
        input_error(&plan_under("z99"))
            .contains("--under `z99`: move `z99` is off the 15x15 board")
    );
    assert!(input_error(&plan_under("a1 a1")).contains("the book has no position at that line"));
    // The empty line is the root: the one leaf of a book not searched yet.
    let planned = run(&[plan_under(""), vec!["--json"]].concat());
    assert!(planned.status.success(), "{}", stderr(&planned));
    assert_eq!(json(&planned.stdout)["positions"], 1);

    // A damaged journal and a damaged unit.
    let journal = dir.path().join("book.db.journal");
    let mut bytes = std::fs::read(&journal).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&journal, &bytes).unwrap();
    assert!(input_error(&["book", "status", b]).contains("damaged"));
    let unit = dir.path().join("unit.json");
    std::fs::write(&unit, "{\"format\":\"renju-book-unit\"}").unwrap();
    assert!(
        input_error(&["book", "work", arg(&unit), "--out", "x.db"]).contains("is not a work unit")
    );

    // Units that would search without end or store a proof `check` refuses.
    let unit_with = |budget: &str, black: &str, white: &str| {
        format!(
            "{{\"format\":\"renju-book-unit\",\"version\":1,\"rule\":\"renju\",\"k\":5,\"size\":\"15\",{budget}\"memory_mb\":64,\"positions\":[{{\"book_node\":1,\"line\":[],\"black\":[{black}],\"white\":[{white}],\"to_move\":\"black\",\"attempts\":0}}]}}"
        )
    };
    let quiet = "\"h8\"";
    let two_fives = (
        "\"a1\",\"a2\",\"a3\",\"a4\",\"a5\"",
        "\"c1\",\"c2\",\"c3\",\"c4\",\"c5\"",
    );
    for (text, expected) in [
        (
            unit_with("\"position_time\":null,\"position_nodes\":null,", quiet, ""),
            "neither `position_time` nor `position_nodes`",
        ),
        (
            unit_with("\"position_time\":-1,\"position_nodes\":null,", quiet, ""),
            "`position_time` must be a positive number of seconds",
        ),
        (
            unit_with("\"position_time\":null,\"position_nodes\":0,", quiet, ""),
            "`position_nodes` must be at least 1",
        ),
        (
            unit_with(
                "\"position_time\":null,\"position_nodes\":100,",
                two_fives.0,
                two_fives.1,
            ),
            "already has a five on the board",
        ),
    ] {
        std::fs::write(&unit, &text).unwrap();
        let message = input_error(&["book", "work", arg(&unit), "--out", "x.db"]);
        assert!(message.contains(expected), "{text}: {message}");
    }
    std::fs::write(
        &unit,
        unit_with("\"position_time\":null,\"position_nodes\":100,", quiet, ""),
    )
    .unwrap();
    let part = dir.path().join("part.db");
    let worked = run(&["book", "work", arg(&unit), "--out", arg(&part)]);
    assert!(worked.status.success(), "{}", stderr(&worked));
    assert!(
        stderr(&worked)
            .contains("work: 1/1: the root: unknown (stopped by a limit before a proof), "),
        "{}",
        stderr(&worked)
    );
    let quiet = run(&["book", "work", arg(&unit), "--out", arg(&part), "--quiet"]);
    assert!(quiet.status.success(), "{}", stderr(&quiet));
    assert!(!stderr(&quiet).contains("work: "), "{}", stderr(&quiet));
}

/// A journal that counts roots as proved is refused beside a database without their proofs
/// (the database deleted or replaced), rather than trusted.
#[test]
fn a_journal_without_its_database_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let build = [
        "book",
        "build",
        "--db",
        arg(&book),
        "--roots",
        VCT,
        "--threads",
        "1",
        "--quiet",
    ];
    let built = run(&build);
    assert!(built.status.success(), "{}", stderr(&built));
    assert_eq!(status(&book)["roots"][0]["result"], "proved");
    std::fs::remove_file(&book).unwrap();
    for args in [vec!["book", "status", arg(&book)], build.to_vec()] {
        let message = input_error(&args);
        assert!(
            message.contains("does not hold the proofs its journal"),
            "{args:?}: {message}"
        );
    }
}

#[test]
fn a_book_being_built_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let _held = renju::atomic::try_lock_for_update(&book).unwrap().unwrap();
    let stderr = input_error(&set_up(arg(&book)));
    assert!(stderr.contains("another process"));
}

#[test]
fn a_renlib_library_gives_the_roots_and_a_damaged_one_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("lib.db");
    let lib = "tests/data/renlib/synthetic-gbk.lib";
    let library = renju::renlib::read_file(Path::new(lib), renju::renlib::Encoding::Auto).unwrap();
    let built = ok(&[from_library(arg(&book), lib), vec!["--json", "--quiet"]].concat());
    let roots = built["roots"].as_array().unwrap();
    assert!(!roots.is_empty());
    assert!(roots.len() <= library.lines().len());
    for r in roots {
        assert!(r["name"].as_str().unwrap().starts_with(lib), "{r}");
    }

    let damaged = dir.path().join("damaged.lib");
    let bytes = std::fs::read(lib).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() - 3]).unwrap();
    let other = dir.path().join("other.db");
    let message = input_error(&from_library(arg(&other), arg(&damaged)));
    assert!(message.contains("damaged.lib") && message.contains("damaged library at byte"));

    // A line that cannot be played (h8 twice) is left out with a note; the others are roots.
    let repeated = dir.path().join("repeated.lib");
    // root; h8; h9 (a sibling follows), h8 again (line ends); i9, i10 (line ends).
    let records = [
        0x00, 0x00, 0x78, 0x00, 0x68, 0x80, 0x78, 0x40, 0x69, 0x00, 0x59, 0x40,
    ];
    std::fs::write(&repeated, library_bytes(&records)).unwrap();
    let build = |db: &str, quiet: bool| {
        let db = dir.path().join(db);
        let mut args = from_library(arg(&db), arg(&repeated));
        args.push("--json");
        if quiet {
            args.push("--quiet");
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        out
    };
    let out = build("repeated.db", false);
    let roots = json(&out.stdout)["roots"].as_array().unwrap().clone();
    assert_eq!(roots.len(), 1, "{roots:?}");
    assert!(roots[0]["name"].as_str().unwrap().ends_with("h8 i9 i10"));
    let note = stderr(&out);
    assert!(
        note.contains("repeated.lib`: 1 line(s) cannot be played out")
            && note.contains("the first: h8 h9 h8: point h8 is already taken by black"),
        "{note}"
    );
    // --quiet: no notes.
    let out = build("repeated-quiet.db", true);
    assert_eq!(stderr(&out), "");
}

/// Regression: a RenLib library on a book of another size went onto that
/// board point by point (h8, RenLib's centre, near a 9x9 board's corner), and an exported
/// database, all of whose lines end in a five, gave "the book has no roots" without a word
/// about why.
#[test]
fn a_renlib_library_is_15x15_and_says_why_it_gives_no_roots() {
    let dir = tempfile::tempdir().unwrap();
    let lib = "tests/data/renlib/synthetic-gbk.lib";
    let book = dir.path().join("nine.db");
    let message = input_error(&[vec!["--size", "9"], from_library(arg(&book), lib)].concat());
    assert!(
        message.contains("15x15") && message.contains("9x9"),
        "{message}"
    );

    // Every line ends in a five (black h8 i8 j8 k8 l8, white between).
    let fives = dir.path().join("fives.lib");
    // The root record, then the moves.
    let mut bytes = library_bytes(&[0x00, 0x00]);
    for (i, pos) in [0x78, 0x68, 0x79, 0x69, 0x7A, 0x6A, 0x7B, 0x6B, 0x7C]
        .iter()
        .enumerate()
    {
        bytes.extend_from_slice(&[*pos, if i == 8 { 0x40 } else { 0x00 }]);
    }
    std::fs::write(&fives, &bytes).unwrap();
    let message = input_error(&from_library(
        arg(&dir.path().join("fives.db")),
        arg(&fives),
    ));
    assert!(
        message.contains("no roots") && message.contains("end in a five"),
        "{message}"
    );
    // With other roots given, the library's lack of roots is a note, not the end.
    let out = run(&[
        from_library(arg(&dir.path().join("fives-and-d1.db")), arg(&fives)),
        vec!["--opening", "D1", "--json"],
    ]
    .concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out.stdout)["roots"].as_array().unwrap().len(), 1);
    assert!(stderr(&out).contains("end in a five"), "{}", stderr(&out));
}

/// Regression: a "comb" library (a spine thousands of moves deep, each
/// node with a one-move sibling) took memory and notes quadratic in its size. Lines are cut
/// where they stop playing out, and the cut ones get one note.
#[test]
fn a_deep_renlib_library_is_read_in_linear_time_with_one_note() {
    let dir = tempfile::tempdir().unwrap();
    let n = 20_000;
    let pos = |i: usize| ((i % 225 / 15) << 4 | (i % 15 + 1)) as u8;
    // The root record, then the moves.
    let mut bytes = library_bytes(&[0x00, 0x00]);
    for i in 0..n {
        let flags = if i > 0 { 0x80 } else { 0 } | if i == n - 1 { 0x40 } else { 0 };
        bytes.extend_from_slice(&[pos(i), flags]);
    }
    for i in (1..n).rev() {
        bytes.extend_from_slice(&[pos(i + 1), 0x40]);
    }
    let comb = dir.path().join("comb.lib");
    std::fs::write(&comb, &bytes).unwrap();
    let out = run(&[
        from_library(arg(&dir.path().join("comb.db")), arg(&comb)),
        vec!["--json"],
    ]
    .concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let roots = json(&out.stdout)["roots"].as_array().unwrap().len();
    assert!((1..=226).contains(&roots), "{roots} roots");
    let note = stderr(&out);
    let cut = |l: &&str| l.contains("cannot be played out");
    assert_eq!(note.lines().filter(cut).count(), 1, "{note}");
    assert!(note.len() < 10_000, "{} bytes of notes", note.len());
}

/// `--attacker-wins-only`: the book's searches look for the attacker's win alone. The small
/// book is proved and checks, a root the attacker loses is never disproved, and `book plan`
/// writes the attacker into each unit position for `book work`, which proves what it can and
/// checks.
#[test]
fn a_book_searching_the_attackers_wins_only_is_proved_and_its_units_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let built = build_vct_book(&book, &["--attacker-wins-only", "--threads", "1"]);
    assert_eq!(built["roots"][0]["result"], "proved", "{built}");
    check_ok(&book);
    // With White as the attacker, the book disproves the root (Black wins) when it searches
    // both sides' wins, and never when it searches White's alone.
    let one_side = |extra: &[&str]| {
        let book = dir.path().join(format!("white-{}.db", extra.len()));
        let mut args = vec!["--attacker", "white", "--threads", "1"];
        args.extend_from_slice(extra);
        build_vct_book(&book, &args)["roots"][0]["result"].clone()
    };
    assert_eq!(one_side(&[]), "disproved");
    assert_eq!(
        one_side(&["--attacker-wins-only", "--budget", "2"]),
        "unknown"
    );

    let planned = dir.path().join("planned.db");
    set_up_quietly(&planned);
    let units = dir.path().join("units");
    let plan = ok(&[
        "book",
        "plan",
        arg(&planned),
        "--shards",
        "1",
        "--position-nodes",
        "100000",
        "--attacker-wins-only",
        "--out",
        arg(&units),
        "--json",
    ]);
    assert_eq!(plan["units"], 1);
    let unit = units.join("unit-0.json");
    let written: Value = json(&std::fs::read(&unit).unwrap());
    let positions = written["positions"].as_array().unwrap();
    assert!(!positions.is_empty());
    for p in positions {
        assert_eq!(p["attacker"], "black", "{p}");
    }
    let part = units.join("part-0.db");
    let worked = work_unit(&unit, &part, &[]);
    assert!(worked.status.success(), "{}", stderr(&worked));
    let result = json(&worked.stdout);
    assert_eq!(result["result"], "win", "{result}");
    assert_eq!(result["line"], positions[0]["line"], "{result}");
    // The search's end is reported on stderr as it comes: position, line, result.
    let line: Vec<&str> = positions[0]["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    // The unit's one position is the book's root, which the line names so.
    assert!(line.is_empty(), "{line:?}");
    let progress = "work: 1/1: the root: win, ";
    assert!(stderr(&worked).contains(progress), "{}", stderr(&worked));
    check_ok(&part);
}

/// `--log FILE` appends one JSON line for every search the build folds in: their nodes add
/// up to the run's, and the search that proved the root says so (`settled_to` empty). With
/// stderr not a terminal, the progress line goes to stderr at each checkpoint.
#[test]
fn the_search_log_has_a_line_for_every_search_and_names_the_one_that_proved_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("logged.db");
    let log = dir.path().join("searches.jsonl");
    std::fs::write(&log, "{\"earlier\":true}\n").unwrap();
    let out = run(&[
        vct_build(arg(&book)),
        vec![
            "--position-nodes",
            "2000",
            "--threads",
            "1",
            "--checkpoint",
            "0",
            "--json",
            "--log",
            arg(&log),
        ],
    ]
    .concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let built = json(&out.stdout);
    assert_eq!(built["roots"][0]["result"], "proved", "{built}");
    let progress = stderr(&out);
    assert!(
        progress
            .lines()
            .any(|l| l.starts_with("progress: ") && l.contains("roots proved 0/1")),
        "{progress}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("{\"earlier\":true}"),
        "appended, not replaced"
    );
    let searches: Vec<Value> = lines.map(|l| json(l.as_bytes())).collect();
    assert_eq!(searches.len() as u64, built["searches"].as_u64().unwrap());
    let nodes: u64 = searches.iter().map(|s| s["nodes"].as_u64().unwrap()).sum();
    assert_eq!(nodes, built["nodes"].as_u64().unwrap());
    assert_eq!(searches[0]["line"], serde_json::json!([]), "the root first");
    assert_eq!(searches[0]["outcome"], "unknown");
    assert_eq!(searches[0]["search"], 1);
    let proved_root: Vec<&Value> = searches
        .iter()
        .filter(|s| s["settled_to"] == serde_json::json!([]))
        .collect();
    assert_eq!(proved_root.len(), 1, "{proved_root:?}");
    let last = proved_root[0];
    assert_eq!(
        (&last["outcome"], &last["winner"]),
        (&"proved".into(), &"black".into())
    );
    assert!(!last["line"].as_array().unwrap().is_empty());
    assert!(searches.iter().all(|s| s["root"] == VCT));
    for s in &searches {
        let proved = s["outcome"] == "proved";
        assert_eq!(proved, s.get("winner").is_some(), "{s}");
        if proved {
            assert!(
                s.get("settled_to").is_some(),
                "a proved leaf is settled: {s}"
            );
        }
        // Where an unknown search was working, from its leaf (absent if the search stopped
        // before the table held the leaf's moves); nothing for the others.
        if let Some(line) = s.get("most_proving") {
            assert_eq!(s["outcome"], "unknown", "{s}");
            let moves = line.as_array().unwrap();
            assert!(
                !moves.is_empty() && moves.iter().all(Value::is_string),
                "{s}"
            );
        }
    }
    // A log that cannot be opened is an input error, before any search.
    let other = dir.path().join("other.db");
    let refused = input_error(&[vct_build(arg(&other)), vec!["--log", arg(dir.path())]].concat());
    assert!(refused.contains("--log"), "{refused}");
    // A log that cannot be written (a full disk) costs the log, not the build.
    if Path::new("/dev/full").exists() {
        let full = dir.path().join("full.db");
        let out = run(&[vct_build(arg(&full)), vec!["--json", "--log", "/dev/full"]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(json(&out.stdout)["roots"][0]["result"], "proved");
        let warned = stderr(&out);
        assert_eq!(
            warned
                .lines()
                .filter(|l| l.starts_with("warning:")
                    && l.contains("/dev/full")
                    && l.ends_with("the build goes on without its log"))
                .count(),
            1,
            "{warned}"
        );
    }
}

//! `renju vcf` and `renju vct` from the command line, on the external quintet positions
//! (`tests/data/threats/`): wins with checked lines, no-wins under tighter limits, an attacker
//! who is not to move, time limits, `--batch` files and standard input in input order with
//! per-line errors, thread counts that do not change answers, and one-line usage errors with
//! exit status 2.
//!
//! A `line` alternates attacker and defender moves and ends with the attacker's five (or, with
//! `"ending":"forbidden-block"`, with a white four whose block is forbidden); `attacker_moves`
//! counts the attacker's moves including that five. Quintet's "win within N" leaves the five
//! out, so it corresponds to `attacker_moves <= N + 1` when the ending is a five.

use std::collections::HashMap;
use std::process::Output;

use predicates::prelude::*;
use serde_json::{Value, json};

use crate::support::{renju, signal_after, spawn, stderr};

const QUINTET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/threats/quintet.jsonl"
);

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Runs with `--json`, expects success, and parses the one object printed.
pub(super) fn json(args: &[&str]) -> Value {
    let out = renju().args(args).arg("--json").output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Runs without `--json`, expects success, and returns the text printed.
pub(super) fn text(args: &[&str]) -> String {
    let out = renju().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The value after `key:` in the text output, if that line is there.
pub(super) fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
}

/// Expects a usage error: status 2, nothing on stdout, one `error:` line on stderr holding
/// `message`.
fn usage_error(args: &[&str], stdin: &str, message: &str) {
    let out = renju().args(args).write_stdin(stdin).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
}

/// The board of a quintet case, rows top rank first.
fn quintet_rows(id: &str) -> Vec<String> {
    let text = std::fs::read_to_string(QUINTET).unwrap();
    let case: Value = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|c| c["id"] == format!("quintet/{id}"))
        .unwrap_or_else(|| panic!("no quintet case {id}"));
    serde_json::from_value(case["board"].clone()).unwrap()
}

/// The board of a quintet case as a diagram argument.
pub(super) fn quintet(id: &str) -> String {
    quintet_rows(id).join("\n")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

/// Plays `line` on a 15x15 diagram, the attacker first and alternating; every move must land
/// on an empty point.
fn play(rows: &[String], attacker: &str, line: &[String]) -> Vec<String> {
    let mut grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let (mine, theirs) = if attacker == "black" {
        ('X', 'O')
    } else {
        ('O', 'X')
    };
    for (i, point) in line.iter().enumerate() {
        let file = usize::from(point.as_bytes()[0] - b'a');
        let rank: usize = point[1..].parse().unwrap();
        let cell = &mut grid[15 - rank][file];
        assert_eq!(*cell, '.', "move {} `{point}` of {line:?} is taken", i + 1);
        *cell = if i % 2 == 0 { mine } else { theirs };
    }
    grid.into_iter().map(String::from_iter).collect()
}

/// The fives `renju show` finds on a diagram, as (colour, points).
fn fives(rows: &[String]) -> Vec<(String, Vec<String>)> {
    let v = json(&["show", &rows.join("\n"), "--to-move", "black"]);
    v["fives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["color"].as_str().unwrap().to_owned(),
                strings(&f["points"]),
            )
        })
        .collect()
}

/// Checks a winning answer whose line ends in a five: odd length, attacker moves counted with
/// the five, and replaying it gives the attacker a five through the last move.
fn assert_five_line(answer: &Value, rows: &[String]) {
    assert_eq!(answer["result"], "win", "{answer}");
    assert_eq!(answer["ending"], "five", "{answer}");
    let attacker = answer["attacker"].as_str().unwrap();
    let line = strings(&answer["line"]);
    assert_eq!(line.len() % 2, 1, "{answer}");
    assert_eq!(
        answer["attacker_moves"].as_u64().unwrap() as usize,
        line.len().div_ceil(2),
        "{answer}"
    );
    assert!(fives(rows).is_empty(), "no five before the line");
    let before = play(rows, attacker, &line[..line.len() - 1]);
    assert!(fives(&before).is_empty(), "no five before the last move");
    let after = play(rows, attacker, &line);
    let last = line.last().unwrap();
    assert!(
        fives(&after)
            .iter()
            .any(|(c, points)| c == attacker && points.contains(last)),
        "{last} makes no {attacker} five: {answer}"
    );
}

/// The parts of an answer that do not depend on timing.
fn stable(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.remove("seconds");
    }
    v
}

/// The README's VCF: White wins in 7 fours and the five at the shortest, and no line of at
/// most 6 fours exists.
#[test]
fn vcf_shortest_on_readme_position() {
    let rows = quintet_rows("README_VCF");
    let board = rows.join("\n");
    let args = [
        "vcf",
        &board,
        "--attacker",
        "white",
        "--to-move",
        "white",
        "--shortest",
    ];
    let v = json(&args);
    assert_eq!(v["attacker"], "white");
    assert_eq!(v["attacker_moves"], 8, "{v}");
    assert_eq!(v["line"].as_array().unwrap().len(), 15, "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v.get("id").is_none(), "{v}");
    assert_five_line(&v, &rows);

    // The text form says the same.
    let out = text(&args);
    assert_eq!(field(&out, "result"), Some("win"), "{out}");
    assert_eq!(field(&out, "attacker"), Some("white"), "{out}");
    assert_eq!(
        field(&out, "line"),
        Some(strings(&v["line"]).join(" ").as_str()),
        "{out}"
    );
    assert_eq!(
        field(&out, "attacker moves"),
        Some("8 (the last is the five)"),
        "{out}"
    );
    assert!(field(&out, "nodes").is_some() && field(&out, "seconds").is_some());

    // Without --shortest any win will do, but never a shorter one; with 7 fours allowed the
    // shortest still fits.
    let any = json(&["vcf", &board, "--attacker", "white", "--to-move", "white"]);
    assert!(any["attacker_moves"].as_u64().unwrap() >= 8, "{any}");
    assert_five_line(&any, &rows);
    let seven = json(&[
        "vcf",
        &board,
        "--attacker",
        "white",
        "--to-move",
        "white",
        "--max-fours",
        "7",
    ]);
    assert_eq!(seven["result"], "win", "{seven}");
    assert!(seven["attacker_moves"].as_u64().unwrap() <= 8, "{seven}");
    assert_five_line(&seven, &rows);
}

fn assert_no_win(v: &Value) {
    assert_eq!(v["result"], "no-win", "{v}");
    assert_eq!(v["line"], json!([]), "{v}");
    assert_eq!(v["attacker_moves"], 0, "{v}");
    assert!(v.get("ending").is_none(), "{v}");
}

#[test]
fn vcf_no_win() {
    let board = quintet("README_VCF");
    for extra in [
        &["--max-fours", "6", "--shortest"][..],
        &["--max-fours", "6"],
    ] {
        let mut args = vec!["vcf", &board, "--attacker", "white", "--to-move", "white"];
        args.extend_from_slice(extra);
        let v = json(&args);
        assert_no_win(&v);
        assert_eq!(v["attacker"], "white");
        let out = text(&args);
        assert_eq!(field(&out, "result"), Some("no-win"), "{out}");
        assert_eq!(field(&out, "line"), None, "{out}");
    }
    // One stone: no fours at all, for either side.
    let v = json(&["vcf", "h8"]);
    assert_no_win(&v);
    assert_eq!(
        v["attacker"], "white",
        "the side to move attacks by default"
    );
    assert_no_win(&json(&["vcf", "h8", "--attacker", "black"]));
    let out = text(&["vcf", "h8"]);
    assert_eq!(field(&out, "result"), Some("no-win"), "{out}");
    assert_eq!(field(&out, "attacker"), Some("white"), "{out}");
    assert_eq!(field(&out, "line"), None, "{out}");
}

/// `--attacker` the side not to move asks "if the defender passed now".
#[test]
fn attacker_who_is_not_to_move() {
    // White to move by the stone counts, and White wins with a four whose block is forbidden.
    let board = quintet("test_vcf_white");
    let to_move = json(&["show", &board]);
    assert_eq!(to_move["to_move"], "white");
    let own = json(&["vcf", &board]);
    assert_eq!(own["attacker"], "white");
    assert_eq!(own["result"], "win", "{own}");
    assert_eq!(own["ending"], "forbidden-block", "{own}");
    assert!(own["attacker_moves"].as_u64().unwrap() <= 5, "{own}");
    assert_eq!(own["line"].as_array().unwrap().len() % 2, 1, "{own}");
    let out = text(&["vcf", &board]);
    assert!(
        field(&out, "attacker moves")
            .unwrap()
            .contains("can only be blocked on a point forbidden for Black"),
        "{out}"
    );

    // Black to move, but White attacks as if Black passed: the same win.
    let passed = json(&["vcf", &board, "--to-move", "black", "--attacker", "white"]);
    assert_eq!(passed["attacker"], "white");
    assert_eq!(stable(&passed), stable(&own));

    // --to-move alone changes the attacker too.
    let black = json(&["vcf", &board, "--to-move", "black"]);
    assert_eq!(black["attacker"], "black");

    // Quintet's own pass case: White is to move, Black wins within 3 (and the five).
    let rows = quintet_rows("test_vcf_not_opponent_double_four");
    let board = rows.join("\n");
    assert_eq!(json(&["show", &board])["to_move"], "white");
    let v = json(&["vcf", &board, "--attacker", "black"]);
    assert_eq!(v["attacker"], "black");
    assert!(v["attacker_moves"].as_u64().unwrap() <= 4, "{v}");
    assert_five_line(&v, &rows);
}

#[test]
fn vct_within_depth_and_not_below() {
    let rows = quintet_rows("test_vct_black");
    let board = rows.join("\n");
    let args = ["vct", &board, "--max-depth", "4", "--threat-fours", "1"];
    let v = json(&args);
    assert_eq!(v["attacker"], "black");
    assert!(v["attacker_moves"].as_u64().unwrap() <= 5, "{v}");
    assert_five_line(&v, &rows);
    let out = text(&args);
    assert_eq!(field(&out, "result"), Some("win"), "{out}");
    assert_eq!(
        field(&out, "line"),
        Some(strings(&v["line"]).join(" ").as_str())
    );

    // With narrower searches beside it (--threat-fours 1 and 2 beside 3), the same answer.
    for threads in ["1", "2", "3"] {
        let args = [
            "--max-depth",
            "4",
            "--threat-fours",
            "3",
            "--threads",
            threads,
        ];
        let v = json(&[&["vct", &board][..], &args].concat());
        assert_five_line(&v, &rows);
        let none = json(&[&["vct", &board, "--max-depth", "3"][..], &args[2..]].concat());
        assert_no_win(&none);
    }

    let none = json(&["vct", &board, "--max-depth", "3", "--threat-fours", "1"]);
    assert_no_win(&none);
    assert_no_win(&json(&["vct", &board, "--max-depth", "3"]));

    // White's case ends in a four whose block is forbidden.
    let board = quintet("test_vct_white");
    let v = json(&["vct", &board, "--max-depth", "4", "--threat-fours", "1"]);
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["attacker"], "white");
    let moves = v["attacker_moves"].as_u64().unwrap();
    match v["ending"].as_str() {
        Some("five") => assert!(moves <= 5, "{v}"),
        Some("forbidden-block") => assert!(moves <= 4, "{v}"),
        _ => panic!("{v}"),
    }
    assert_no_win(&json(&[
        "vct",
        &board,
        "--max-depth",
        "3",
        "--threat-fours",
        "1",
    ]));
}

#[test]
fn time_limit_gives_unknown() {
    let board = quintet("bench_vct_black");
    let args = ["vct", &board, "--time", "0.000000001"];
    let v = json(&args);
    assert_eq!(v["result"], "unknown", "{v}");
    assert_eq!(v["attacker"], "black");
    assert_eq!(v["line"], json!([]), "{v}");
    assert_eq!(v["attacker_moves"], 0, "{v}");
    assert!(v.get("ending").is_none(), "{v}");
    let out = text(&args);
    assert_eq!(field(&out, "result"), Some("unknown"), "{out}");
    assert_eq!(field(&out, "line"), None, "{out}");
    let v = json(&["vcf", &quintet("test_vcf_long"), "--time", "0.000000001"]);
    assert_eq!(v["result"], "unknown", "{v}");
}

#[test]
fn bad_time_is_a_usage_error() {
    for value in ["0", "-1", "abc", "", "inf", "NaN"] {
        usage_error(&["vcf", "h8", "--time", value], "", "");
    }
    for value in ["0", "-1", "abc", "inf", "NaN"] {
        let arg = format!("--time={value}");
        usage_error(
            &["vct", "h8", &arg],
            "",
            &format!("`{value}` is not a positive number of seconds"),
        );
    }
    usage_error(&["vcf", "h8", "--threads", "0"], "", "--threads");
    usage_error(&["vct", "h8", "--memory", "8"], "", "--memory");
    usage_error(&["vcf", "h8", "--memory", "lots"], "", "--memory");
    usage_error(&["vcf", "h8", "--max-fours", "x"], "", "--max-fours");
    usage_error(&["vct", "h8", "--max-depth", "x"], "", "--max-depth");
}

/// `--memory` bounds the tables: the smallest bound still proves the example VCT on one
/// thread, on two, and in a batch, and `vcf` takes it too.
#[test]
fn a_small_memory_bound_still_finds_the_win() {
    let example = "data/examples/vct.txt";
    for threads in ["1", "2"] {
        let v = json(&["vct", example, "--memory", "16", "--threads", threads]);
        assert_eq!(v["result"], "win", "{v}");
    }
    let v = json(&["vcf", &quintet("test_vcf_long"), "--memory", "16"]);
    assert_eq!(v["result"], "win", "{v}");
    let line = json!({"position": std::fs::read_to_string(example).unwrap(), "attacker": "black"});
    let out = renju()
        .args(["vct", "--batch", "-", "--memory", "16", "--threads", "2"])
        .write_stdin(format!("{line}\n{line}\n"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| r["result"] == "win"), "{records:?}");
}

/// `--time -1` (with a space) is refused with a message about the value, not read as an
/// unknown `-1` flag. `--threads` without `--batch` is refused rather than ignored.
#[test]
fn negative_time_names_the_option() {
    usage_error(&["vcf", "h8", "--threads", "2"], "", "--batch");
    usage_error(
        &["vcf", "h8", "--time", "-1"],
        "",
        "`-1` is not a positive number of seconds",
    );
}

/// A huge but finite time limit must not panic: it either means "no limit" in practice or is
/// refused as a usage error.
#[test]
fn huge_time_does_not_panic() {
    for value in ["1e19", "1e300"] {
        for command in ["vcf", "vct"] {
            let out = renju()
                .args([command, "h8", "--json", "--time", value])
                .output()
                .unwrap();
            let err = stderr(&out);
            assert!(!err.contains("panicked"), "{command} --time {value}: {err}");
            match out.status.code() {
                Some(0) => {
                    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
                    assert_eq!(v["result"], "no-win", "{v}");
                }
                Some(2) => {
                    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
                    assert!(
                        err.starts_with("error: ") && err.contains("--time"),
                        "{err}"
                    );
                }
                other => panic!("{command} --time {value}: status {other:?}: {err}"),
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("batch.txt");
        std::fs::write(&path, "h8\n").unwrap();
        let out = renju()
            .args(["vcf", "--time", value, "--batch"])
            .arg(&path)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "batch --time {value}: {err}");
        assert!(
            matches!(out.status.code(), Some(0 | 2)),
            "batch --time {value}: {err}"
        );
    }
}

/// A batch file: `(line text, expected id)` for every line that yields a record.
fn batch_file() -> (String, Vec<Value>) {
    let lines: Vec<(String, Option<Value>)> = vec![
        ("# quintet positions and some broken lines".into(), None),
        (
            json!({"id": "vcf-white", "position": quintet("test_vcf_white")}).to_string(),
            Some(json!("vcf-white")),
        ),
        (String::new(), None),
        (
            json!({"id": 42, "position": quintet("README_VCF"), "attacker": "white"}).to_string(),
            Some(json!(42)),
        ),
        (
            json!({"id": "bad", "position": "h8 h9 h8"}).to_string(),
            Some(json!("bad")),
        ),
        (r#"{"id": "broken", "position": "#.into(), Some(json!(6))),
        ("   ".into(), None),
        ("h8".into(), Some(json!(8))),
        ("  # indented comment".into(), None),
        (
            json!({"id": "red", "position": "h8", "attacker": "red"}).to_string(),
            Some(json!("red")),
        ),
        (
            json!({"id": "no-position"}).to_string(),
            Some(json!("no-position")),
        ),
        (
            json!({"position": quintet("test_vcf_counter")}).to_string(),
            Some(json!(12)),
        ),
        ("h8 p1".into(), Some(json!(13))),
    ];
    let text = lines
        .iter()
        .map(|(l, _)| l.as_str())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    let ids = lines.into_iter().filter_map(|(_, id)| id).collect();
    (text, ids)
}

fn batch_records(out: &Output) -> Vec<Value> {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    assert!(out.stderr.is_empty(), "{}", stderr(out));
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn error_of(record: &Value) -> &str {
    assert_eq!(record.as_object().unwrap().len(), 2, "{record}");
    record["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {record}"))
}

#[test]
fn batch_file_in_input_order_with_errors() {
    let (text, ids) = batch_file();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("positions.jsonl");
    std::fs::write(&path, &text).unwrap();
    let out = renju()
        .args(["vcf", "--batch"])
        .arg(&path)
        .output()
        .unwrap();
    let records = batch_records(&out);
    let got: Vec<Value> = records.iter().map(|r| r["id"].clone()).collect();
    assert_eq!(got, ids, "one record per line, in input order");
    let by_id: HashMap<String, &Value> = records.iter().map(|r| (r["id"].to_string(), r)).collect();
    let record = |id: Value| by_id[&id.to_string()];

    // Good positions: the same answers as one at a time.
    let single = json(&["vcf", &quintet("test_vcf_white")]);
    let mut expected = stable(&single);
    expected["id"] = json!("vcf-white");
    assert_eq!(stable(record(json!("vcf-white"))), expected);
    let readme = record(json!(42));
    assert_eq!(readme["attacker"], "white");
    assert_five_line(readme, &quintet_rows("README_VCF"));
    let counter = record(json!(12));
    assert_eq!(counter["attacker"], "black", "the side to move by default");
    assert_eq!(counter["result"], "win", "{counter}");
    let plain = record(json!(8));
    assert_no_win(plain);
    assert_eq!(plain["attacker"], "white");

    // Bad lines: an error naming the problem, tagged with the id or the line number.
    assert!(error_of(record(json!("bad"))).contains("repeats move 1"));
    let broken = error_of(record(json!(6)));
    assert!(broken.contains("line 6 is not valid JSON"), "{broken}");
    assert!(error_of(record(json!("red"))).contains("unknown colour `red`"));
    assert!(error_of(record(json!("no-position"))).contains("line 11 has no \"position\""));
    assert!(error_of(record(json!(13))).contains("`p1` is off the 15x15 board"));

    // Standard input gives the same records; so does --json, and any thread count.
    let strip = |records: Vec<Value>| records.iter().map(stable).collect::<Vec<_>>();
    let from_file = strip(records);
    let stdin = renju()
        .args(["vcf", "--batch", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert_eq!(strip(batch_records(&stdin)), from_file);
    for threads in ["1", "2"] {
        let out = renju()
            .args(["vcf", "--json", "--threads", threads, "--batch"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(strip(batch_records(&out)), from_file, "--threads {threads}");
    }
}

#[test]
fn batch_options_apply_to_each_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vct.txt");
    let lines = [
        json!({"id": "vct-black", "position": quintet("test_vct_black")}).to_string(),
        json!({"id": "h8-black", "position": "h8", "attacker": "black"}).to_string(),
        "h8".to_owned(),
    ];
    std::fs::write(&path, lines.join("\n")).unwrap();
    let run = |extra: &[&str]| {
        let out = renju()
            .args(["vct", "--batch"])
            .arg(&path)
            .args(extra)
            .output()
            .unwrap();
        batch_records(&out)
    };
    let deep = run(&["--max-depth", "4", "--threat-fours", "1", "--threads", "2"]);
    assert_eq!(deep.len(), 3);
    assert_eq!(deep[0]["id"], "vct-black");
    assert_five_line(&deep[0], &quintet_rows("test_vct_black"));
    assert_eq!(deep[1]["attacker"], "black");
    assert_eq!(deep[2]["id"], 3);
    assert_eq!(deep[2]["attacker"], "white");
    let shallow = run(&["--max-depth", "3", "--threat-fours", "1"]);
    assert_no_win(&shallow[0]);

    // --attacker is the default for lines without one; a line's own attacker wins.
    let black = run(&["--max-depth", "3", "--attacker", "black"]);
    assert_eq!(black[1]["attacker"], "black");
    assert_eq!(black[2]["attacker"], "black");
    let white = run(&["--max-depth", "3", "--attacker", "white"]);
    assert_eq!(white[1]["attacker"], "black");
    assert_eq!(white[2]["attacker"], "white");

    // The time limit is per position.
    // (A one-stone position may be settled before the clock is first read.)
    let hurried = run(&["--time", "0.000000001"]);
    assert_eq!(hurried[0]["result"], "unknown", "{hurried:?}");
    assert!(
        hurried[1..]
            .iter()
            .all(|r| r["result"] == "unknown" || r["result"] == "no-win"),
        "{hurried:?}"
    );
}

#[test]
fn batch_without_positions_prints_nothing() {
    let out = renju()
        .args(["vcf", "--batch", "-"])
        .write_stdin("# nothing here\n\n")
        .output()
        .unwrap();
    assert!(batch_records(&out).is_empty());
}

#[test]
fn unreadable_batch_is_a_usage_error() {
    usage_error(
        &["vcf", "--batch", "/no/such/batch.jsonl"],
        "",
        "cannot read batch file `/no/such/batch.jsonl`",
    );
    usage_error(&["vct", "--batch", "/"], "", "cannot read batch file `/`");
}

/// Regression: one line that was not UTF-8 failed the whole batch, and a
/// byte-order mark made the first JSON line a malformed move and lost its id.
#[test]
fn a_line_that_is_not_utf8_is_one_bad_line_and_a_byte_order_mark_is_skipped() {
    let mut input = "\u{feff}{\"id\":\"first\",\"position\":\"h8\"}\r\n"
        .as_bytes()
        .to_vec();
    input.extend_from_slice(&[0xff, b' ', b'h', b'9', b'\n']);
    input.extend_from_slice(b"h8 i9\n");
    let out = renju()
        .args(["--json", "vcf", "--batch", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let records: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3, "{records:?}");
    assert_eq!(records[0]["id"], "first");
    assert_eq!(records[0]["result"], "no-win");
    assert_eq!(records[1]["id"], 2);
    assert_eq!(records[1]["error"], "line 2 is not UTF-8 text");
    assert_eq!(records[2]["id"], 3);
    assert!(records[2]["result"].is_string());
    renju()
        .args(["show", "-"])
        .write_stdin("\u{feff}h8 h9\n")
        .assert()
        .success();
}

#[test]
fn position_xor_batch() {
    for command in ["vcf", "vct"] {
        usage_error(&[command], "", "<POSITION>");
        usage_error(&[command, "--json"], "", "<POSITION>");
        usage_error(&[command, "h8", "--batch", "-"], "h8\n", "--batch");
    }
    renju()
        .args(["vcf", "h8", "--batch", "-"])
        .write_stdin("h8\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

/// Caro: a five needs its two end points not both held by the opponent, so one stone just past
/// a four can stop it. h12 here makes two five points (h8, h13), but Black h13 stops both: h8
/// would then make a five with Black at both ends. Regression: this was called a win.
#[test]
fn caro_four_stopped_at_its_end_is_no_win() {
    for command in ["vcf", "vct"] {
        let out = renju()
            .args([
                "--rule",
                "caro",
                command,
                "h7 h9 a1 h10 a15 h11",
                "--attacker",
                "white",
                "--json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        // Not a win. Caro fours that can be stopped in two ways are not searched through, so
        // the honest answer is `unknown` rather than a proved `no-win`.
        assert_eq!(v["result"], "unknown", "{command}: {v}");
    }
}

/// SIGTERM (as Ctrl-C) stops a long search cleanly: `unknown`, its statistics, exit status 0.
#[cfg(unix)]
#[test]
fn termination_signal_gives_unknown() {
    let unstable = quintet("bench_vct_unstable");
    let child = spawn(&[
        "vct",
        &unstable,
        "--attacker",
        "black",
        "--to-move",
        "black",
        "--json",
    ]);
    signal_after(&child, std::time::Duration::from_millis(700), "-TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "unknown", "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

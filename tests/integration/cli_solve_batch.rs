//! `renju solve --batch` from the command line: one JSON line per entry in input order, the
//! same answers as one position at a time on any thread count, error records for bad lines,
//! per-position limits, every proof added to a database in one write, `--threads` for one
//! position, and one-line usage errors with exit status 2.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::support::{renju, solve_empty_k3_args, stderr};

/// The global arguments of freestyle with k = 3 on a `size` board (the part of
/// `solve_empty_k3_args` before the command).
fn k3(size: &str) -> Vec<&str> {
    solve_empty_k3_args(size)[..6].to_vec()
}

/// `renju GLOBAL solve --batch FILE EXTRA`.
fn batch(global: &[&str], file: &Path, extra: &[&str]) -> Output {
    renju()
        .args(global)
        .args(["solve", "--batch"])
        .arg(file)
        .args(extra)
        .output()
        .unwrap()
}

/// The records of a batch that must succeed, saying nothing on stderr (not a terminal).
fn records(out: &Output) -> Vec<Value> {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    assert!(out.stderr.is_empty(), "{}", stderr(out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// A record without its timing, which differs from run to run.
fn stable(record: &Value) -> Value {
    let mut record = record.clone();
    record.as_object_mut().unwrap().remove("seconds");
    record
}

/// The single-position answer of `renju GLOBAL solve POSITION --json --threads 1 EXTRA`, with
/// `id` added and its timing removed: what the batch must print for that line.
fn single(global: &[&str], position: &str, extra: &[&str], id: Value) -> Value {
    let out = renju()
        .args(global)
        .args(["solve", position, "--json", "--threads", "1"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{position}: {}", stderr(&out));
    let mut answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    answer["id"] = id;
    stable(&answer)
}

/// The message of an error record, which has an id and nothing else.
fn error_of(record: &Value) -> &str {
    assert_eq!(record.as_object().unwrap().len(), 2, "{record}");
    record["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {record}"))
}

/// Writes `lines` to `name` in `dir`.
fn write(dir: &Path, name: &str, lines: &[String]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// A freestyle k = 3 batch on 4x4 with full width: plain and JSON lines, comments, blank lines,
/// `to_move` overrides and broken lines. Every record comes back in input order, each good one
/// equal to the single-position answer (`to_move` given as `--to-move`), whatever the thread
/// count, and from standard input too.
#[test]
fn batch_answers_match_single_solves_in_input_order() {
    let lines: Vec<String> = vec![
        "# freestyle k=3 on 4x4".into(),
        json!({"id": "empty", "position": ""}).to_string(),
        "a1".into(),
        String::new(),
        "b2 c3".into(),
        json!({"id": "pass", "position": "a1", "to_move": "black"}).to_string(),
        "a1 a1".into(),
        "  # an indented comment".into(),
        json!({"id": "red", "position": "b2", "to_move": "red"}).to_string(),
        json!({"id": "number", "position": "b2", "to_move": 1}).to_string(),
        json!({"id": "no-position"}).to_string(),
        r#"{"id": "broken", "position": "#.into(),
        "e5".into(),
        json!({"position": "b2"}).to_string(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "k3.jsonl", &lines);
    let global = k3("4");
    let out = batch(&global, &path, &["--full-width"]);
    let got = records(&out);
    let ids: Vec<Value> = got.iter().map(|r| r["id"].clone()).collect();
    assert_eq!(
        ids,
        vec![
            json!("empty"),
            json!(3),
            json!(5),
            json!("pass"),
            json!(7),
            json!("red"),
            json!("number"),
            json!("no-position"),
            json!(12),
            json!(13),
            json!(14),
        ],
        "one record per entry, in input order"
    );

    let full = ["--full-width"];
    let expected = [
        (0, single(&global, "", &full, json!("empty"))),
        (1, single(&global, "a1", &full, json!(3))),
        (2, single(&global, "b2 c3", &full, json!(5))),
        (
            3,
            single(
                &global,
                "a1",
                &["--full-width", "--to-move", "black"],
                json!("pass"),
            ),
        ),
        (10, single(&global, "b2", &full, json!(14))),
    ];
    for (i, answer) in &expected {
        assert_eq!(&stable(&got[*i]), answer, "record {i}");
    }
    assert_eq!(got[0]["result"], "win");
    assert_eq!(got[1]["result"], "loss");
    assert_eq!(got[3]["to_move"], "black", "the line's to_move overrides");
    assert_eq!(got[3]["result"], "win");
    for field in [
        "result",
        "to_move",
        "best_move",
        "pv",
        "nodes",
        "seconds",
        "tt_entries",
        "proof_nodes",
    ] {
        assert!(got[0].get(field).is_some(), "{field} missing: {}", got[0]);
    }
    assert!(got[0].get("db").is_none(), "no db field without --db");

    let errors = [
        (4, "repeats move 1"),
        (5, "unknown colour `red`"),
        (6, "\"to_move\" must be \"black\" or \"white\""),
        (7, "line 11 has no \"position\""),
        (8, "line 12 is not valid JSON"),
        (9, "off the 4x4 board"),
    ];
    for (i, error) in errors {
        assert!(error_of(&got[i]).contains(error), "{}", got[i]);
    }

    let strip = |records: Vec<Value>| records.iter().map(stable).collect::<Vec<_>>();
    let reference = strip(got);
    for threads in ["1", "2"] {
        let out = batch(
            &global,
            &path,
            &["--full-width", "--threads", threads, "--json"],
        );
        assert_eq!(strip(records(&out)), reference, "--threads {threads}");
    }
    let stdin = renju()
        .args(&global)
        .args(["solve", "--full-width", "--batch", "-"])
        .write_stdin(lines.join("\n"))
        .output()
        .unwrap();
    assert_eq!(strip(records(&stdin)), reference, "standard input");
}

/// Renju positions: the bundled VCT example (a win in about 0.05 s) twice and an opening. The
/// node limit applies to each position: it is enough for the example, so both copies are
/// won, and too little for the opening, which is `unknown` with a note.
#[test]
fn renju_batch_with_a_node_limit_per_position() {
    let example = format!("{}/data/examples/vct.txt", env!("CARGO_MANIFEST_DIR"));
    let diagram = std::fs::read_to_string(&example).unwrap();
    let lines = vec![
        json!({"id": "vct", "position": diagram}).to_string(),
        json!({"id": "vct-again", "position": diagram, "to_move": "black"}).to_string(),
        "h8 h9 i8".into(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "renju.jsonl", &lines);
    let limit = ["--nodes", "100000"];
    let got = records(&batch(&[], &path, &["--nodes", "100000", "--threads", "2"]));
    assert_eq!(got.len(), 3);
    assert_eq!(
        stable(&got[0]),
        single(&[], &example, &limit, json!("vct")),
        "the same answer as one position at a time"
    );
    assert_eq!(got[0]["result"], "win");
    assert_eq!(got[0]["best_move"], "f10");
    let mut again = stable(&got[1]);
    again["id"] = json!("vct");
    assert_eq!(again, stable(&got[0]));
    assert_eq!(got[2]["id"], 3);
    assert_eq!(got[2]["result"], "unknown");
    assert!(got[2]["note"].is_string(), "{}", got[2]);
}

/// With `--db`, every proof goes into the database (a position met twice is kept once), each
/// answer says what was done with it, and `check` passes with one root per proved position.
/// Draws carry no proof; bad lines get their error record and nothing else.
#[test]
fn batch_adds_every_proof_to_the_database() {
    let lines: Vec<String> = vec![
        json!({"id": "draw", "position": ""}).to_string(),
        json!({"id": "b2", "position": "b2", "to_move": "black"}).to_string(),
        json!({"id": "a1", "position": "a1", "to_move": "black"}).to_string(),
        "b2 b2".into(),
        json!({"id": "b2-again", "position": "b2", "to_move": "black"}).to_string(),
        "b2 a1".into(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "k3.jsonl", &lines);
    let db = dir.path().join("k3.db");
    let global = k3("3");
    let db_arg = db.to_str().unwrap();
    let got = records(&batch(&global, &path, &["--full-width", "--db", db_arg]));
    let summary: Vec<(String, String, Option<String>)> = got
        .iter()
        .map(|r| {
            (
                r["id"].to_string(),
                r["result"].as_str().unwrap_or("error").to_string(),
                r["db"].as_str().map(str::to_string),
            )
        })
        .collect();
    let no_proof = Some("nothing added: no proof".to_string());
    assert_eq!(
        summary,
        vec![
            ("\"draw\"".into(), "draw".into(), no_proof.clone()),
            ("\"b2\"".into(), "win".into(), Some("added".into())),
            ("\"a1\"".into(), "win".into(), Some("added".into())),
            ("4".into(), "error".into(), None),
            (
                "\"b2-again\"".into(),
                "win".into(),
                Some("kept the stored proof (no larger, or shared by other proofs)".into())
            ),
            ("6".into(), "draw".into(), no_proof),
        ]
    );
    assert!(error_of(&got[3]).contains("repeats move 1"), "{}", got[3]);

    let check = renju().args(["check", db_arg, "--json"]).output().unwrap();
    assert!(check.status.success(), "{}", stderr(&check));
    let report: Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(report["roots"], 2, "{report}");

    // A second run adds nothing new and leaves the database as it was.
    let before = std::fs::read(&db).unwrap();
    let again = records(&batch(&global, &path, &["--full-width", "--db", db_arg]));
    assert_eq!(
        again[1]["db"],
        "kept the stored proof (no larger, or shared by other proofs)"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// A database for other rules is refused before the search (a one-line error, exit status 2,
/// no answers), and left as it was.
#[test]
fn batch_into_a_database_of_other_rules_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "k3.jsonl", &["a1".into()]);
    let db = dir.path().join("k3.db");
    let db_arg = db.to_str().unwrap();
    let global = k3("4");
    records(&batch(&global, &path, &["--full-width", "--db", db_arg]));
    let before = std::fs::read(&db).unwrap();
    let out = batch(&k3("5"), &path, &["--full-width", "--db", db_arg]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("not freestyle"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "searched before the refusal");
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// Usage errors exit with status 2 and one line: `--proof` with `--batch`, a position with
/// `--batch`, neither, a batch file that cannot be read, and `--threads 0`.
#[test]
fn batch_usage_errors_are_one_line_and_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "one.txt", &["h8".into()]);
    let file = path.to_str().unwrap();
    let proof = dir.path().join("proof.json");
    for (args, message) in [
        (
            vec!["solve", "--batch", file, "--proof", proof.to_str().unwrap()],
            "--proof",
        ),
        (vec!["solve", "h8", "--batch", file], "--batch"),
        (vec!["solve", "--json"], "<POSITION>"),
        (
            vec!["solve", "--batch", "/no/such/batch.jsonl"],
            "cannot read batch file `/no/such/batch.jsonl`",
        ),
        (vec!["solve", "--batch", "/"], "cannot read batch file `/`"),
        (vec!["solve", "h8", "--threads", "0"], "--threads"),
        (
            vec!["solve", "--batch", file, "--threads", "0"],
            "--threads",
        ),
    ] {
        let out = renju().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!proof.exists());
}

/// A batch with nothing but comments and blank lines prints nothing and succeeds.
#[test]
fn batch_without_positions_prints_nothing() {
    let out = renju()
        .args(["solve", "--batch", "-"])
        .write_stdin("# nothing\n\n   \n")
        .output()
        .unwrap();
    assert!(records(&out).is_empty());
}

/// `--threads N` on one position is accepted and does not change the answer.
#[test]
fn threads_on_one_position_give_the_same_value() {
    let run = |threads: &str| {
        let out = renju()
            .args(solve_empty_k3_args("4"))
            .args(["--full-width", "--json", "--threads", threads])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["result"].clone()
    };
    assert_eq!(run("1"), "win");
    assert_eq!(run("2"), "win");
}

/// `--to-move` is the side to move of the lines that do not give one; a line's own `to_move`
/// wins over it.
#[test]
fn to_move_flag_is_the_default_of_each_line() {
    let lines = vec![
        "b2".to_string(),
        json!({"id": "own", "position": "b2", "to_move": "white"}).to_string(),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "k3.jsonl", &lines);
    let got = records(&batch(
        &k3("3"),
        &path,
        &["--full-width", "--to-move", "black"],
    ));
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["to_move"], "black");
    assert_eq!(got[0]["result"], "win", "Black moving twice wins on 3x3");
    assert_eq!(got[1]["id"], "own");
    assert_eq!(got[1]["to_move"], "white");
    assert_eq!(got[1]["result"], "draw");
}

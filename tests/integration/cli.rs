//! The `renju` binary: real output on real positions, and a one-line error with exit status 2
//! for every kind of bad input.

use predicates::prelude::*;
use serde_json::Value;

use crate::support::renju;

fn json(args: &[&str]) -> Value {
    let out = renju().args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The bundled example: the README's first command.
const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/examples/forbidden.txt");

#[test]
fn forbidden_json_on_the_bundled_example() {
    let v = json(&["forbidden", EXAMPLE]);
    assert_eq!(v["to_move"], "black");
    let kinds: Vec<(String, String)> = v["forbidden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["point"].as_str().unwrap().into(),
                f["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    let has = |kind: &str| kinds.iter().any(|(_, k)| k == kind);
    assert!(
        has("double-three") && has("double-four") && has("overline"),
        "{kinds:?}"
    );
}

#[test]
fn forbidden_text_lists_points() {
    renju()
        .args(["forbidden", "h9 a1 h10 a2 i8 a3 j8 a4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("h8 double-three"));
    renju()
        .args(["forbidden", "h8"])
        .assert()
        .success()
        .stdout("none\n");
}

#[test]
fn forbidden_is_the_same_whoever_is_to_move() {
    let black = json(&["forbidden", "h9 a1 h10 a2 i8 a3 j8 a4"]);
    let white = json(&[
        "forbidden",
        "h9 a1 h10 a2 i8 a3 j8 a4",
        "--to-move",
        "white",
    ]);
    assert_eq!(white["to_move"], "white");
    assert_eq!(black["forbidden"], white["forbidden"]);
}

#[test]
fn show_prints_diagram_hash_fives_and_marks() {
    renju()
        .args(["show", "h9 a1 h10 a2 i8 a3 j8 a4"])
        .assert()
        .success()
        .stdout(predicate::str::contains(" 8 . . . . . . . 3 X X"))
        .stdout(predicate::str::contains("to move:   black"))
        .stdout(predicate::str::contains("canonical: "))
        .stdout(predicate::str::contains("forbidden: h8 double-three"));
    let v = json(&["show", "a1 b1 a2 b2 a3 b3 a4 b4 a5"]);
    assert_eq!(v["fives"][0]["color"], "black");
    assert_eq!(
        v["fives"][0]["points"],
        serde_json::json!(["a1", "a2", "a3", "a4", "a5"])
    );
    assert_eq!(v["to_move"], "white");
}

#[test]
fn show_hash_is_shared_by_symmetric_positions() {
    let a = json(&["show", "h8 h9 i9"]);
    let b = json(&["show", "h8 h9 g9"]);
    let c = json(&["show", "h8 i8 i7"]);
    assert_ne!(a["hash"], b["hash"]);
    assert_eq!(a["canonical"]["hash"], b["canonical"]["hash"]);
    assert_eq!(a["canonical"]["hash"], c["canonical"]["hash"]);
}

#[test]
fn positions_from_file_and_stdin() {
    let from_file = json(&["forbidden", EXAMPLE]);
    let text = std::fs::read_to_string(EXAMPLE).unwrap();
    let out = renju()
        .args(["forbidden", "-", "--json"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        from_file
    );
}

#[test]
fn rectangular_boards_and_other_rules() {
    let v = json(&[
        "show",
        "a1 d3 b1",
        "--size",
        "4x3",
        "--rule",
        "freestyle",
        "--k",
        "3",
    ]);
    assert_eq!(v["size"], "4x3");
    assert_eq!(v["board"].as_array().unwrap().len(), 3);
    assert_eq!(v["k"], 3);
    renju()
        .args(["forbidden", "h9 a1 h10 a2 i8 a3 j8 a4", "--rule", "gomoku"])
        .assert()
        .success()
        .stdout("none\n")
        .stderr(predicate::str::contains("gomoku has no forbidden moves"));
}

#[test]
fn svg_is_written_atomically_with_numbers_and_marks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.svg");
    renju()
        .args(["show", "h9 a1 h10 a2 i8 a3 j8 a4", "--svg"])
        .arg(&path)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("forbidden double-three") && svg.contains(">8</text>"));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left behind"
    );
    // A directory that does not exist is bad input, found before anything is drawn.
    renju()
        .args(["show", "h8", "--svg", "/nonexistent-dir/x.svg"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "error: --svg `/nonexistent-dir/x.svg`: cannot create it",
        ));
}

/// Each bad input: exit status 2, one line on stderr naming the problem and the token.
#[test]
fn bad_input_is_one_line_with_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["show", "h8 p1"], "move `p1` is off the 15x15 board"),
        (&["show", "h8 h9 h8"], "move 3 `h8` repeats move 1"),
        (&["show", "h8 zz"], "malformed move `zz`"),
        (&["show", "h8 h9 h"], "malformed move `h`"),
        (
            &["show", "...\n..\n...", "--size", "3"],
            "diagram row 2 (rank 2) has 2 points, expected 3",
        ),
        (
            &["show", "...\n...", "--size", "3"],
            "diagram has 2 rows, expected 3",
        ),
        (
            &["show", "XX.\n...\n...", "--size", "3"],
            "stone counts black=2 white=0 cannot arise",
        ),
        (
            &["show", "a1 b1 a2 b2 a3 b3 a4 b4 a5 b5"],
            "move 10 `b5` comes after black won with move 9",
        ),
        (
            // k8 joins g8-j8 and l8: six in a row, forbidden for Black, which loses.
            &["show", "h8 a1 i8 a2 j8 a3 l8 a4 g8 a6 k8 b1"],
            "move 12 `b1` comes after Black's forbidden move 11 `k8` (overline), which loses",
        ),
        (
            // The same game stopped at the forbidden move: it is over, nothing to search.
            &["solve", "h8 a1 i8 a2 j8 a3 l8 a4 g8 a6 k8"],
            "move 11 `k8` is Black's forbidden move (overline), which loses",
        ),
        (
            // Six black stones in a row on a renju diagram: no game reaches it.
            &[
                "vct",
                ".......\n.......\n.......\nXXXXXX.\nOOO....\n.......\nOO.....",
                "--size",
                "7",
                "--to-move",
                "white",
            ],
            "Black has an overline on the board (6 in a row from a4)",
        ),
        (
            &["show", "h8", "--size", "21"],
            "board size 21x21 is out of range",
        ),
        (
            &["show", "h8", "--size", "big"],
            "malformed board size `big`",
        ),
        (&["show", "h8", "--rule", "chess"], "unknown rule `chess`"),
        (
            &["show", "h8", "--k", "4"],
            "win length k=4 does not apply to renju",
        ),
        (&["show", "h8", "--to-move", "red"], "unknown colour `red`"),
        (
            &["show", "no/such/file.txt"],
            "no such position file `no/such/file.txt`",
        ),
        (&["frobnicate"], "unrecognized subcommand"),
        (&[], "no command given"),
        (
            &["show"],
            "required arguments were not provided: <POSITION>",
        ),
        (&["forbidden", "/"], "`/` is a directory"),
        (
            &["solve", "", "--size", "4", "--rule", "freestyle"],
            "no one can win on the 4x4 board: freestyle needs 5 in a row",
        ),
        (
            &[
                "solve",
                "data/examples/vct.txt",
                "--proof",
                "x.db",
                "--db",
                "./x.db",
            ],
            "--proof `x.db` is the database given to --db",
        ),
        (
            &["db", "export", "x.db", "--out", "x.db"],
            "--out `x.db` is the database exported",
        ),
    ];
    for (args, message) in cases {
        let out = renju().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
}

/// Files that do not end (`/dev/zero`) are refused after a bounded read, with status 2, not
/// read until memory runs out. The output paths are never written: the input fails first.
#[cfg(target_os = "linux")]
#[test]
fn endless_input_files_are_refused() {
    let cases: &[&[&str]] = &[
        &["db", "export", "/dev/zero", "--out", "never-written.txt"],
        &["db", "info", "/dev/zero"],
        &["vct", "--batch", "/dev/zero"],
        &["book", "status", "/dev/zero"],
        &["book", "work", "/dev/zero", "--out", "never-written.db"],
    ];
    for args in cases {
        let out = renju().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("a pipe or device that gives over 256 MiB"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
    // `check` reports an unreadable database as a failed check (status 1).
    let out = renju().args(["check", "/dev/zero"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("over 256 MiB")
            || String::from_utf8_lossy(&out.stderr).contains("over 256 MiB")
    );
}

#[test]
fn show_output_reads_back_in() {
    let shown = renju()
        .args(["show", "h9 a1 h10 a2 i8 a3 j8 a4"])
        .output()
        .unwrap();
    assert!(shown.status.success());
    let again = renju()
        .args(["show", "-", "--json"])
        .write_stdin(shown.stdout)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let direct = json(&["show", "h9 a1 h10 a2 i8 a3 j8 a4"]);
    let read: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(read["board"], direct["board"]);
    assert_eq!(read["hash"], direct["hash"]);
    assert_eq!(read["forbidden"], direct["forbidden"]);
}

/// A reader that goes away early is not an error, and a full disk is an ordinary failure.
#[test]
fn closed_or_full_output_is_handled() {
    use std::process::{Command as Std, Stdio};
    let bin = assert_cmd::cargo::cargo_bin("renju");
    let mut child = Std::new(&bin)
        .args(["show", EXAMPLE])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // close the pipe before it writes
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Std::new(&bin)
            .args(["forbidden", EXAMPLE])
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.starts_with("error: cannot write the output"),
            "{stderr}"
        );
    }
}

#[test]
fn garbage_never_panics() {
    let inputs = [
        "\u{0}",
        "ééé",
        "h8h8h8h8",
        "X\nO\n",
        "99999999999999999999",
        "+++",
        ",,,",
        "h-8",
        "\n\n\n",
        "\u{feff}h8",
    ];
    for input in inputs {
        // Through standard input, which also carries bytes no argument can.
        let out = renju()
            .args(["show", "-"])
            .write_stdin(input)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 2)),
            "{input:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{input:?}: {stderr}");
    }
    let out = renju()
        .args(["show", "-"])
        .write_stdin(vec![0xff, 0xfe, b'h', b'8'])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input"));
}

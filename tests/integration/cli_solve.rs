//! `renju solve` from the command line: the JSON answer, the proof file, limits that give
//! `unknown` with exit status 0, and one-line input errors with exit status 2.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::{renju, signal_after, spawn};

use crate::proof_replay::check_proof;

/// `renju solve` on the empty `size` board, freestyle with k = 3 (full-width arguments follow).
fn solve_empty_k3(size: &str) -> Command {
    let mut cmd = renju();
    cmd.args(crate::support::solve_empty_k3_args(size));
    cmd
}

fn json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn full_width_win_with_a_proof_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.json");
    let out = solve_empty_k3("4")
        .args(["--full-width", "--json", "--proof"])
        .arg(&path)
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["result"], "win");
    assert_eq!(v["to_move"], "black");
    assert!(v["best_move"].is_string());
    assert!(v["pv"].as_array().unwrap().len() >= 5);
    for field in ["nodes", "seconds", "tt_entries", "proof_nodes"] {
        assert!(v[field].is_number(), "{field}");
    }
    let proof: renju::solve::Proof =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(proof.nodes.len() as u64, v["proof_nodes"].as_u64().unwrap());
    check_proof(&proof).unwrap();
}

#[test]
fn full_width_draw() {
    let out = solve_empty_k3("3")
        .args(["--full-width", "--json"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["result"], "draw");
}

#[test]
fn a_node_limit_gives_unknown_and_exit_zero() {
    let out = renju()
        .args(["solve", "h8 h9 i8", "--nodes", "10", "--json"])
        .output()
        .unwrap();
    let v = json(&out);
    assert_eq!(v["result"], "unknown");
    assert!(v["note"].is_string());
}

/// An unknown answer says where the search was working when it stopped: its most-proving
/// line, as `most_proving` in JSON and `working on:` in text; a proof's answer has none.
#[test]
fn an_unknown_answer_says_where_the_search_was_working() {
    let args = [
        "solve",
        "h8 h9 i9 j7",
        "--attacker",
        "black",
        "--threads",
        "1",
        "--nodes",
        "200000",
    ];
    let out = renju().args(args).arg("--json").output().unwrap();
    let v = json(&out);
    assert_eq!(v["result"], "unknown");
    let line = v["most_proving"].as_array().expect("a most-proving line");
    assert!(!line.is_empty());
    let moves: Vec<&str> = line.iter().map(|m| m.as_str().unwrap()).collect();
    let text = renju().args(args).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(&format!("working on:  {}\n", moves.join(" "))),
        "{text}"
    );
    let won = renju()
        .args(["solve", "data/examples/vct.txt", "--json", "--threads", "1"])
        .output()
        .unwrap();
    let won = json(&won);
    assert_eq!(won["result"], "win");
    assert!(won.get("most_proving").is_none(), "{won}");
}

#[test]
fn bad_input_is_one_line_and_exit_two() {
    for args in [
        vec!["solve", "h8 h8"],
        vec!["solve", "h8", "--memory", "0"],
        vec!["solve", "h8", "--nodes", "0"],
        vec!["solve", "h8", "--time", "-1"],
    ] {
        let out = renju().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

/// The output of `renju ARGS` run on a terminal (`script` from util-linux gives it one).
fn on_a_terminal(args: &str) -> String {
    let bin = assert_cmd::cargo::cargo_bin("renju");
    let out = std::process::Command::new("script")
        .args(["-qec", &format!("{} {args}", bin.display()), "/dev/null"])
        .output()
        .expect("`script` (util-linux) runs the command on a terminal");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// On a terminal, stderr gets a progress bar with nodes, nodes per second, the root's proof
/// and disproof numbers, table fill and elapsed time; `--quiet` turns it off, and so does a
/// stderr that is not a terminal.
#[test]
fn progress_bar_on_a_terminal_only() {
    let shown = on_a_terminal("solve h8 --time 1");
    for part in [
        " nodes, ",
        "/s, root pn ",
        " dn ",
        ", table ",
        "% (",
        " entries), ",
    ] {
        assert!(shown.contains(part), "{part:?} missing from {shown:?}");
    }
    let quiet = on_a_terminal("solve h8 --time 1 --quiet");
    assert!(!quiet.contains("root pn"), "{quiet:?}");
    assert!(quiet.contains("result:      unknown"), "{quiet:?}");
    let piped = renju()
        .args(["solve", "h8", "--time", "1"])
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert!(
        piped.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&piped.stderr)
    );
}

/// Regression: `solve --db` learned that its database could not take the
/// proof only after the search, and then printed nothing but the error; and it waited for
/// another process's lock silently, deaf to Ctrl-C.
#[test]
fn the_database_is_checked_before_the_search_and_a_lock_wait_is_announced() {
    let dir = tempfile::tempdir().unwrap();
    let not_db = dir.path().join("notes.txt");
    std::fs::write(&not_db, "hello\n").unwrap();
    let vct = "data/examples/vct.txt";
    let refused = |args: &[&str], expected: &str| {
        let out = renju().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: searched first");
    };
    refused(
        &["solve", vct, "--db", not_db.to_str().unwrap()],
        "not a renju database",
    );
    let missing = dir.path().join("no-such-dir").join("x.db");
    refused(
        &["solve", vct, "--db", missing.to_str().unwrap()],
        "is not a directory",
    );
    let db = dir.path().join("book.db");
    let db_arg = db.to_str().unwrap();
    let first = renju()
        .args(["solve", vct, "--db", db_arg, "--quiet"])
        .output()
        .unwrap();
    assert!(first.status.success());
    refused(
        &[
            "--rule", "gomoku", "--size", "7", "--k", "4", "solve", "d4", "--db", db_arg,
        ],
        "holds renju on 15x15, not gomoku",
    );
    let batch = dir.path().join("batch.txt");
    std::fs::write(&batch, "h8\n").unwrap();
    let batch_arg = batch.to_str().unwrap();
    refused(
        &["solve", "--batch", batch_arg, "--db", batch_arg],
        "is the batch file",
    );

    // Another process holds the lock: the wait is announced; the answer comes when it ends.
    let held = renju::atomic::try_lock_for_update(&db).unwrap().unwrap();
    let solve_vcf = || spawn(&["solve", "data/examples/vcf.txt", "--db", db_arg]);
    let mut waiting = solve_vcf();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        waiting.try_wait().unwrap().is_none(),
        "it did not wait for the lock"
    );
    drop(held);
    let out = waiting.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("waiting for"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("database:    added"));

    // Ctrl-C while waiting: the answer is printed, nothing is written, exit status 1.
    let held = renju::atomic::try_lock_for_update(&db).unwrap().unwrap();
    let before = std::fs::read(&db).unwrap();
    let waiting = solve_vcf();
    signal_after(&waiting, std::time::Duration::from_millis(1500), "-INT");
    let out = waiting.wait_with_output().unwrap();
    drop(held);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("interrupted while waiting"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("result:      win"));
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// Found by a review of the lock wait: a SIGTERM that had already stopped a batch's searches
/// made the wait for a busy database lock give up at once, and the proofs found before the
/// signal were lost. Only a signal during the wait ends it.
#[test]
fn a_stop_before_the_lock_wait_keeps_the_proofs_found() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("batch.db");
    let batch = dir.path().join("batch.txt");
    // A quick win, then a position no search here settles.
    std::fs::write(&batch, "h8 h9 i8 i9 j8 a1\nh8\n").unwrap();
    let held = renju::atomic::try_lock_for_update(&db).unwrap().unwrap();
    let child = spawn(&[
        "solve",
        "--batch",
        batch.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    signal_after(&child, std::time::Duration::from_millis(1500), "-TERM");
    std::thread::sleep(std::time::Duration::from_millis(1000));
    assert!(!db.exists(), "written while another process held the lock");
    drop(held);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("waiting for"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"db\":\"added\""), "{stdout}");
    assert!(
        db.exists(),
        "the proof found before the stop was not written"
    );
}

#[test]
fn a_guide_database_leaves_the_answer_and_its_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let guide = dir.path().join("guide.rdb");
    // Black to move makes an open four.
    let position = "h8 a1 i8 a2 j8 a3";
    let stored = renju()
        .args(["solve", position, "--json", "--db"])
        .arg(&guide)
        .output()
        .unwrap();
    assert_eq!(json(&stored)["result"], "win");
    let proof = dir.path().join("proof.json");
    for extra in [&[][..], &["--threads", "1"][..]] {
        let out = renju()
            .args(["solve", position, "--json", "--guide"])
            .arg(&guide)
            .args(["--proof"])
            .arg(&proof)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(json(&out)["result"], "win");
        let written: renju::proof::Proof =
            serde_json::from_slice(&std::fs::read(&proof).unwrap()).unwrap();
        check_proof(&written).unwrap();
    }
    // The same moves under gomoku rules: a guide for renju is refused, as is a missing file.
    let missing = dir.path().join("missing.rdb");
    for (args, needle) in [
        (vec!["--rule", "gomoku"], "give another --guide"),
        (vec![], "cannot read"),
    ] {
        let file = if args.is_empty() { &missing } else { &guide };
        let out = renju()
            .args(["solve", position, "--guide"])
            .arg(file)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    // A batch takes the guide too.
    let batch = dir.path().join("batch.txt");
    std::fs::write(&batch, format!("{position}\n")).unwrap();
    let out = renju()
        .args(["solve", "--batch"])
        .arg(&batch)
        .arg("--guide")
        .arg(&guide)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["result"], "win");
}

/// `solve --attacker`: the side whose win alone is searched for. Black's win is found (and
/// after Black's first move, White's loss); White's is not, so the answer is `unknown`, with
/// a note; a colour that is not one, or `--full-width` beside it, is a usage error.
#[test]
fn the_attacker_alone_is_searched_for() {
    let position = "h8 a1 i8 a2 j8 a3";
    let result = |extra: &[&str]| {
        let out = renju()
            .args(["solve", "--json", "--threads", "1", "--nodes", "100000"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{extra:?}");
        json(&out)
    };
    let won = result(&[position, "--attacker", "black"]);
    assert_eq!(won["result"], "win");
    let first = won["best_move"].as_str().unwrap();
    assert!(["g8", "k8"].contains(&first), "{won}");
    let after = format!("{position} {first}");
    let lost = result(&[&after, "--attacker", "black"]);
    assert_eq!(lost["result"], "loss");
    let other = result(&[position, "--attacker", "white"]);
    assert_eq!(other["result"], "unknown");
    for (args, needle) in [
        (vec![position, "--attacker", "blue"], "--attacker"),
        (
            vec![position, "--attacker", "black", "--full-width"],
            "--full-width",
        ),
    ] {
        let out = renju().arg("solve").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{err}");
    }
}

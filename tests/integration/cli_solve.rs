//! `renju solve` from the command line: the JSON answer, the proof file, limits that give
//! `unknown` with exit status 0, and one-line input errors with exit status 2.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::renju;

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

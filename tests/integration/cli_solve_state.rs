//! `renju solve --state`: a search stopped by a limit or a signal keeps its table in a file,
//! and the next run goes on from it; a state of another search, a damaged file, or a file
//! another run holds is a one-line input error with exit status 2.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::support::{run, signal_after, spawn, stderr};

/// Kagetsu with White's 4th at g13: Black wins, in about 3M nodes on one thread.
const G13: &str = "h8 h9 i9 g13";

fn solve(position: &str, state: &Path, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "--json",
        "solve",
        position,
        "--attacker",
        "black",
        "--threads",
        "1",
        "--state",
    ];
    let state = state.to_str().unwrap();
    args.push(state);
    args.extend_from_slice(more);
    run(&args)
}

fn json(out: &std::process::Output) -> Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The one-line error of a run that must fail on its input.
fn input_error(out: &std::process::Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    lines[0].to_string()
}

#[test]
fn a_stopped_search_is_kept_and_the_next_run_goes_on_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("g13.state");
    let first = solve(G13, &state, &["--nodes", "20000"]);
    let v = json(&first);
    assert_eq!(v["result"], "unknown");
    assert!(stderr(&first).contains("does not exist yet"));
    let written = v["state"]["written_entries"].as_u64().unwrap();
    assert!(written > 0);
    assert_eq!(v["state"]["resumed_entries"], 0);
    assert_eq!(v["state"]["nodes_before"], 0);

    let second = solve(G13, &state, &["--nodes", "20000"]);
    let w = json(&second);
    assert_eq!(w["result"], "unknown");
    assert_eq!(w["state"]["resumed_entries"].as_u64(), Some(written));
    assert_eq!(w["state"]["nodes_before"], v["nodes"]);
    assert!(w["state"]["written_entries"].as_u64().unwrap() >= written);
    let err = stderr(&second);
    assert!(err.contains("going on from"), "{err}");
    assert!(err.contains("in 2 runs"), "{err}");
    assert!(
        !dir.path().read_dir().unwrap().any(|e| e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".tmp")),
        "no temporary file is left"
    );
}

#[test]
fn a_state_of_another_search_or_a_damaged_one_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("g13.state");
    json(&solve(G13, &state, &["--nodes", "5000"]));
    let kept = std::fs::read(&state).unwrap();

    let other = input_error(&solve("h8 h9 i9 g12", &state, &[]));
    assert!(
        other.contains("another position: `h8 h9 i9 g13`"),
        "{other}"
    );
    let budget = input_error(&solve(G13, &state, &["--vct-nodes", "500"]));
    assert!(budget.contains("--vct-nodes 1000, not 500"), "{budget}");
    assert_eq!(
        std::fs::read(&state).unwrap(),
        kept,
        "a refused state is left as it was"
    );

    std::fs::write(&state, &kept[..kept.len() / 2]).unwrap();
    let short = input_error(&solve(G13, &state, &[]));
    assert!(short.contains("ends early"), "{short}");
    std::fs::write(&state, "h8 h9 i9 g13 j10 f6 k11 g7\n").unwrap();
    let text = input_error(&solve(G13, &state, &[]));
    assert!(text.contains("does not start with `RENJU-SS`"), "{text}");

    // A state needs --attacker: without it, clap's one-line usage error.
    let out = run(&["solve", G13, "--state", state.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--attacker"), "{}", stderr(&out));
}

/// SIGTERM stops the search, which writes its state before it exits; while it runs, the
/// state is locked, and a second run on it is refused rather than racing it.
#[test]
fn a_signal_stops_the_search_and_its_state_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("g13.state");
    let path = state.to_str().unwrap();
    let child = spawn(&[
        "--json",
        "solve",
        G13,
        "--attacker",
        "black",
        "--threads",
        "1",
        "--state",
        path,
        "--time",
        "60",
    ]);
    // The run creates the lock file and locks it at once: wait for the file.
    let lock = dir.path().join("g13.state.lock");
    for _ in 0..600 {
        if lock.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let busy = input_error(&solve(G13, &state, &["--nodes", "1000"]));
    assert!(busy.contains("in use by another renju process"), "{busy}");
    signal_after(&child, Duration::from_millis(100), "-TERM");
    let out = child.wait_with_output().unwrap();
    let v = json(&out);
    assert_eq!(v["result"], "unknown");
    assert!(v["state"]["written_entries"].as_u64().unwrap() > 0);
    assert!(state.exists());
    // The state is free again, and the next run goes on from it.
    let next = json(&solve(G13, &state, &["--nodes", "1000"]));
    assert_eq!(next["state"]["nodes_before"], v["nodes"]);
}

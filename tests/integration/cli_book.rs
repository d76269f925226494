//! `renju book`: building a small book, killing the builder midway and resuming it, the
//! plan / work / merge cycle without a scheduler, and the errors of each subcommand.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::renju;

const VCT: &str = "data/examples/vct.txt";

fn json(out: &[u8]) -> Value {
    serde_json::from_slice(out).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}", String::from_utf8_lossy(out));
    })
}

fn status(book: &Path) -> Value {
    let out = renju()
        .args(["book", "status", "--json"])
        .arg(book)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out.stdout)
}

fn check_ok(book: &Path) -> Value {
    let out = renju()
        .args(["check", "--json"])
        .arg(book)
        .output()
        .unwrap();
    let report = json(&out.stdout);
    assert!(out.status.success(), "check failed: {report}");
    assert_eq!(report["ok"], true);
    report
}

#[test]
fn a_small_book_is_proved_from_the_top_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let out = renju()
        .args(["book", "build", "--db"])
        .arg(&book)
        .args(["--roots", VCT, "--position-nodes", "2000", "--threads", "2"])
        .args(["--json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let built = json(&out.stdout);
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
    let query = renju()
        .args(["db", "query", "--json"])
        .arg(&book)
        .arg(VCT)
        .output()
        .unwrap();
    assert_eq!(json(&query.stdout)["result"], "win");
    // Built again, a settled book has nothing to do.
    let again = renju()
        .args(["book", "build", "--db"])
        .arg(&book)
        .args(["--json", "--quiet"])
        .output()
        .unwrap();
    assert!(again.status.success());
    assert_eq!(json(&again.stdout)["searches"], built["searches"]);
}

#[test]
fn an_opening_root_is_the_opening_on_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("d4.db");
    let out = renju()
        .args(["book", "build", "--db"])
        .arg(&book)
        .args(["--opening", "kagetsu", "--budget", "0", "--json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let built = json(&out.stdout);
    let root = &built["roots"][0];
    assert_eq!(root["name"], "D4 Kagetsu");
    assert_eq!(root["moves"], serde_json::json!(["h8", "h9", "i9"]));
    assert_eq!(root["to_move"], "white");
    assert_eq!(root["result"], "unknown");
}

/// Kills a builder with SIGKILL once it has written a checkpoint, then runs the same command
/// again: nothing proved before the kill is lost, and the book is finished and checks.
#[test]
fn a_killed_build_resumes_without_losing_proved_work() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let journal = dir.path().join("book.db.journal");
    let args = |c: &mut std::process::Command| {
        c.args(["book", "build", "--db"])
            .arg(&book)
            .args(["--roots", VCT, "--position-nodes", "300", "--threads", "2"])
            .args(["--checkpoint", "0.3", "--json", "--quiet"]);
    };
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("renju"));
    args(&mut cmd);
    let mut child = cmd.stdout(Stdio::null()).spawn().unwrap();
    let started = Instant::now();
    while !journal.exists() || started.elapsed() < Duration::from_millis(1500) {
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

    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("renju"));
    args(&mut cmd);
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = json(&out.stdout);
    assert_eq!(resumed["roots"][0]["result"], "proved", "{resumed}");
    assert!(resumed["positions"].as_u64().unwrap() >= positions_before);
    let after = check_ok(&book);
    assert!(after["roots"].as_u64().unwrap() >= db_before);

    // The resumed run did less than a run from scratch: the killed run's work was kept.
    let fresh = dir.path().join("fresh.db");
    let out = renju()
        .args(["book", "build", "--db"])
        .arg(&fresh)
        .args(["--roots", VCT, "--position-nodes", "300", "--threads", "2"])
        .args(["--json", "--quiet"])
        .output()
        .unwrap();
    let whole = json(&out.stdout)["searches"].as_u64().unwrap();
    let resumed_searches = resumed["searches"].as_u64().unwrap() - searches_before;
    assert!(
        resumed_searches < whole,
        "resumed {resumed_searches} searches, from scratch {whole}"
    );
}

/// The cluster cycle by hand, as `scripts/slurm/cycle.sh` runs it under Slurm.
#[test]
fn plan_work_and_merge_prove_a_book_in_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let init = renju()
        .args(["book", "build", "--db"])
        .arg(&book)
        .args(["--roots", VCT, "--budget", "0", "--quiet"])
        .output()
        .unwrap();
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    let mut rounds = 0;
    loop {
        rounds += 1;
        assert!(rounds <= 6, "not proved in 5 rounds");
        let units = dir.path().join(format!("round-{rounds}"));
        let out = renju()
            .args(["book", "plan"])
            .arg(&book)
            .args([
                "--shards",
                "2",
                "--per-shard",
                "128",
                "--position-nodes",
                "2000",
            ])
            .arg("--out")
            .arg(&units)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let planned = json(&out.stdout);
        let n = planned["units"].as_u64().unwrap();
        if n == 0 {
            assert_eq!(planned["finished"], true);
            break;
        }
        let mut parts = Vec::new();
        for i in 0..n {
            let part = units.join(format!("part-{i}.db"));
            let out = renju()
                .args(["book", "work"])
                .arg(units.join(format!("unit-{i}.json")))
                .arg("--out")
                .arg(&part)
                .args(["--threads", "1", "--json"])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                part.exists(),
                "work writes its part even when it proves nothing"
            );
            parts.push(part);
        }
        let merged = renju()
            .args(["db", "merge"])
            .arg(&book)
            .args(&parts)
            .output()
            .unwrap();
        assert!(
            merged.status.success(),
            "{}",
            String::from_utf8_lossy(&merged.stderr)
        );
        check_ok(&book);
    }
    assert!(
        rounds >= 3,
        "proved in {rounds} rounds: the root was not expanded"
    );
    let s = status(&book);
    assert_eq!(s["roots"][0]["result"], "proved");
    assert!(s["history"].as_array().unwrap().len() >= rounds);
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["book".into(), "status".into(), book.display().to_string()],
            "no book at",
        ),
        (
            vec![
                "book".into(),
                "build".into(),
                "--db".into(),
                book.display().to_string(),
            ],
            "the book has no roots",
        ),
        (
            vec![
                "book".into(),
                "build".into(),
                "--db".into(),
                book.display().to_string(),
                "--opening".into(),
                "D14".into(),
            ],
            "unknown opening `D14`",
        ),
        (
            vec![
                "book".into(),
                "work".into(),
                "no-such-unit.json".into(),
                "--out".into(),
                "x.db".into(),
            ],
            "cannot read unit",
        ),
        (
            vec![
                "book".into(),
                "plan".into(),
                book.display().to_string(),
                "--shards".into(),
                "0".into(),
                "--out".into(),
                "units".into(),
            ],
            "--shards and --per-shard must be at least 1",
        ),
    ];
    for (args, expected) in cases {
        let out = renju().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    }

    // A damaged journal and a damaged unit.
    renju()
        .args(["book", "build", "--db"])
        .arg(&book)
        .args(["--roots", VCT, "--budget", "0", "--quiet"])
        .assert()
        .success();
    let journal = dir.path().join("book.db.journal");
    let mut bytes = std::fs::read(&journal).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&journal, &bytes).unwrap();
    let out = renju()
        .args(["book", "status"])
        .arg(&book)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("damaged"));
    let unit = dir.path().join("unit.json");
    std::fs::write(&unit, "{\"format\":\"renju-book-unit\"}").unwrap();
    let out = renju()
        .args(["book", "work"])
        .arg(&unit)
        .args(["--out", "x.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a work unit"));
}

#[test]
fn a_book_being_built_is_locked() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let _held = renju::atomic::try_lock_for_update(&book).unwrap().unwrap();
    let out = renju()
        .args(["book", "build", "--db"])
        .arg(&book)
        .args(["--roots", VCT, "--budget", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another process"));
}

#[test]
fn a_renlib_library_gives_the_roots_and_a_damaged_one_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("lib.db");
    let lib = "tests/data/renlib/synthetic-gbk.lib";
    let library = renju::renlib::read_file(Path::new(lib), renju::renlib::Encoding::Auto).unwrap();
    let out = renju()
        .args(["book", "build", "--db"])
        .arg(&book)
        .args(["--roots-lib", lib, "--budget", "0", "--json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let roots = json(&out.stdout)["roots"].as_array().unwrap().clone();
    assert!(!roots.is_empty());
    assert!(roots.len() <= library.lines().len());
    for r in &roots {
        assert!(r["name"].as_str().unwrap().starts_with(lib), "{r}");
    }

    let damaged = dir.path().join("damaged.lib");
    let bytes = std::fs::read(lib).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() - 3]).unwrap();
    let out = renju()
        .args(["book", "build", "--db"])
        .arg(dir.path().join("other.db"))
        .arg("--roots-lib")
        .arg(&damaged)
        .args(["--budget", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

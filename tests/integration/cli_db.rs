//! Solution databases from the command line, end to end: `solve --db` creating and extending a
//! database, `db info|query|merge|export`, `check` on good and damaged files (exit status 1 and
//! a JSON report; `db info` exits 2 with a one-line error), and a `solve --db` killed at random
//! moments, which must leave the old database or the new one, never a partial file.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{run, solve_empty_k3_args, stderr};

/// A bundled example position.
fn example(name: &str) -> String {
    format!("{}/data/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Black to move wins by VCT (about 0.05 s).
pub(super) fn vct() -> String {
    example("vct.txt")
}

/// White to move wins by VCF (a one-node proof).
fn vcf() -> String {
    example("vcf.txt")
}

/// The JSON object printed by a command that must succeed.
pub(super) fn ok_json(out: &Output) -> Value {
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(out));
    serde_json::from_slice(&out.stdout).unwrap()
}

pub(super) fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `renju solve POSITION --db DB --json` plus `extra` arguments; the JSON answer.
fn solve_into(db: &Path, position: &str, extra: &[&str]) -> Value {
    // One thread: the proof, and so the file, is the same on every run.
    let mut args = vec![
        "solve",
        position,
        "--threads",
        "1",
        "--db",
        s(db),
        "--json",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    ok_json(&run(&args))
}

fn info(db: &Path) -> Value {
    ok_json(&run(&["db", "info", s(db), "--json"]))
}

fn query(db: &Path, position: &str, extra: &[&str]) -> Value {
    let mut args = vec!["db", "query", s(db), position, "--json"];
    args.extend_from_slice(extra);
    ok_json(&run(&args))
}

/// `renju check DB --json --threads 2`: the exit code and the report.
pub(super) fn check(db: &Path) -> (Option<i32>, Value) {
    let out = run(&["check", s(db), "--json", "--threads", "2"]);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code(), report)
}

pub(super) fn assert_checks(db: &Path) -> Value {
    let (code, report) = check(db);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report["ok"], true, "{report}");
    assert!(
        report["rules"].as_str().is_some_and(|r| r.contains(" on ")),
        "{report}"
    );
    assert_eq!(report["errors"], serde_json::json!([]), "{report}");
    assert!(report["seconds"].is_number(), "{report}");
    report
}

/// The rows of a diagram file, top rank first, comments left out.
fn diagram(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// The diagram mirrored left to right (symmetry flip-files).
fn mirrored(rows: &[String]) -> Vec<String> {
    rows.iter().map(|r| r.chars().rev().collect()).collect()
}

/// `(x, y)` of a point such as `f10`: file `a` = 0, rank 1 = 0.
fn xy(point: &str) -> (usize, usize) {
    let file = point.as_bytes()[0];
    assert!(file.is_ascii_lowercase(), "{point}");
    let rank: usize = point[1..].parse().unwrap();
    ((file - b'a') as usize, rank - 1)
}

/// The name of `(x, y)`.
fn name((x, y): (usize, usize)) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// The diagram with `stone` (`X` or `O`) placed at `point`, which must be empty.
fn place(rows: &[String], point: &str, stone: char) -> Vec<String> {
    let (x, y) = xy(point);
    let mut rows = rows.to_vec();
    let row = rows.len() - 1 - y;
    let mut cells: Vec<char> = rows[row].chars().collect();
    assert_eq!(cells[x], '.', "{point} is taken");
    cells[x] = stone;
    rows[row] = cells.into_iter().collect();
    rows
}

/// Writes a diagram to `dir/file` and returns the path.
fn write_diagram(dir: &Path, file: &str, rows: &[String]) -> String {
    let path = dir.join(file);
    std::fs::write(&path, rows.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

/// A database holding one proof, of `position`, at `dir/file`.
fn single(dir: &Path, file: &str, position: &str) -> PathBuf {
    let db = dir.join(file);
    let answer = solve_into(&db, position, &[]);
    assert_eq!(answer["db"], "added", "{answer}");
    db
}

/// `solve --db` creates the database: `db info` describes it, `check` passes, and adding the
/// same position again keeps the stored proof and leaves the file byte for byte as it was.
#[test]
fn solve_creates_a_database_that_checks_and_is_kept_on_a_second_add() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("vct.db");
    let answer = solve_into(&db, &vct(), &[]);
    assert_eq!(answer["result"], "win");
    assert_eq!(answer["db"], "added");
    let proof_nodes = answer["proof_nodes"].as_u64().unwrap();
    assert!(proof_nodes > 0);

    let v = info(&db);
    let size = std::fs::metadata(&db).unwrap().len();
    assert_eq!(v["format"], "renju-db");
    assert_eq!(v["version"], 3);
    assert_eq!(v["rule"], "renju");
    assert_eq!(v["k"], 5);
    assert_eq!(v["size"], "15x15");
    assert_eq!(v["roots"], 1);
    let nodes = v["nodes"].as_u64().unwrap();
    assert!(nodes > 0 && nodes <= proof_nodes, "{v}");
    assert!(v["positions"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["bytes"].as_u64().unwrap(), size);
    let per_node = v["bytes_per_node"].as_f64().unwrap();
    assert!((per_node - size as f64 / nodes as f64).abs() < 1e-9, "{v}");

    let report = assert_checks(&db);
    assert_eq!(report["roots"], 1);
    // A node reached in two positions is checked twice.
    assert!(
        report["nodes_checked"].as_u64().unwrap() >= nodes,
        "{report}"
    );

    let before = std::fs::read(&db).unwrap();
    let again = solve_into(&db, &vct(), &[]);
    assert_eq!(again["result"], "win");
    assert!(
        again["db"]
            .as_str()
            .unwrap()
            .contains("kept the stored proof"),
        "{again}"
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
    // No temporary left behind by a completed run: only the database and its update lock.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["vct.db", "vct.db.lock"]);

    // The text answer names the database.
    let out = run(&["solve", &vct(), "--threads", "1", "--db", s(&db), "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("database:    kept the stored proof"),
        "{text}"
    );
}

/// `db query` finds the root, its mirror image (with the move mirrored), and positions inside
/// the proof; anything else is `unknown`.
#[test]
fn query_finds_roots_their_images_and_positions_inside_the_proof() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("vct.db");
    let answer = solve_into(&db, &vct(), &[]);
    let best = answer["best_move"].as_str().unwrap().to_string();
    let pv: Vec<String> = answer["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(pv[0], best);

    let root = query(&db, &vct(), &[]);
    assert_eq!(root["result"], "win", "{root}");
    assert_eq!(root["to_move"], "black", "{root}");
    assert_eq!(root["best_move"], best.as_str(), "{root}");
    let depth = root["depth"].as_u64().unwrap();
    assert!(depth >= 1, "{root}");

    // The text form says the same.
    let out = run(&["db", "query", s(&db), &vct()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("result:    win"), "{text}");
    assert!(text.contains(&format!("best move: {best}")), "{text}");

    // Mirrored left to right: the same node, the move mirrored.
    let rows = diagram(&vct());
    let width = rows[0].len();
    let mirror = write_diagram(dir.path(), "mirror.txt", &mirrored(&rows));
    let m = query(&db, &mirror, &[]);
    let (x, y) = xy(&best);
    assert_eq!(m["result"], "win", "{m}");
    assert_eq!(m["to_move"], "black", "{m}");
    assert_eq!(m["best_move"], name((width - 1 - x, y)).as_str(), "{m}");
    assert_eq!(m["depth"], depth, "{m}");

    // After the winning move White is to move and loses, by the stone counts or when told.
    let after_rows = place(&rows, &best, 'X');
    let after = write_diagram(dir.path(), "after.txt", &after_rows);
    for extra in [&[][..], &["--to-move", "white"][..]] {
        let v = query(&db, &after, extra);
        assert_eq!(v["result"], "loss", "{extra:?}: {v}");
        assert_eq!(v["to_move"], "white", "{extra:?}: {v}");
        assert_eq!(v["best_move"], Value::Null, "{extra:?}: {v}");
        assert!(v["depth"].as_u64().unwrap() < depth, "{extra:?}: {v}");
    }
    let after_mirror = write_diagram(dir.path(), "after-mirror.txt", &mirrored(&after_rows));
    assert_eq!(query(&db, &after_mirror, &[])["result"], "loss");

    // After White's first reply on the principal variation Black wins again, by the PV's move.
    let deeper = write_diagram(dir.path(), "deeper.txt", &place(&after_rows, &pv[1], 'O'));
    let v = query(&db, &deeper, &[]);
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["to_move"], "black", "{v}");
    assert_eq!(v["best_move"], pv[2].as_str(), "{v}");
    assert!(v["depth"].as_u64().unwrap() < depth, "{v}");

    // Not stored: another position, and the root with the other side to move.
    for (position, extra) in [
        ("h8", &[][..]),
        (vcf().as_str(), &[][..]),
        (vct().as_str(), &["--to-move", "white"][..]),
    ] {
        let v = query(&db, position, extra);
        assert_eq!(v["result"], "unknown", "{position} {extra:?}: {v}");
        assert_eq!(v["best_move"], Value::Null, "{v}");
        assert_eq!(v["depth"], Value::Null, "{v}");
    }
}

/// `db merge` of two one-root databases has both roots and checks; a database merged with
/// itself keeps one root; databases of other rules or sizes do not merge (exit 2, naming both,
/// no file written); `db export` shows the roots and the moves.
#[test]
fn merge_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = single(d, "a.db", &vct());
    let b = single(d, "b.db", &vcf());
    let best_b = query(&b, &vcf(), &[])["best_move"]
        .as_str()
        .unwrap()
        .to_string();
    let best_a = query(&a, &vct(), &[])["best_move"]
        .as_str()
        .unwrap()
        .to_string();

    let ab = d.join("ab.db");
    let merged = ok_json(&run(&["db", "merge", s(&ab), s(&a), s(&b), "--json"]));
    assert_eq!(merged["roots"], 2, "{merged}");
    assert_eq!(merged["new"], 2, "{merged}");
    assert_eq!(merged["kept"], 0, "{merged}");
    assert_eq!(
        merged["bytes"].as_u64().unwrap(),
        std::fs::metadata(&ab).unwrap().len()
    );
    let v = info(&ab);
    assert_eq!(v["roots"], 2, "{v}");
    assert_eq!(v["nodes"], merged["nodes"], "{v}");
    assert_eq!(assert_checks(&ab)["roots"], 2);
    // Both positions answer from the merged file.
    assert_eq!(query(&ab, &vct(), &[])["best_move"], best_a.as_str());
    assert_eq!(query(&ab, &vcf(), &[])["best_move"], best_b.as_str());

    // Merging into an existing OUT reads it first: nothing new, both kept, file unchanged.
    let before = std::fs::read(&ab).unwrap();
    let again = ok_json(&run(&["db", "merge", s(&ab), s(&a), s(&b), "--json"]));
    assert_eq!(again["roots"], 2, "{again}");
    assert_eq!(again["new"], 0, "{again}");
    assert_eq!(again["kept"], 2, "{again}");
    assert_eq!(std::fs::read(&ab).unwrap(), before);

    // With itself: one root.
    let aa = d.join("aa.db");
    let merged = ok_json(&run(&["db", "merge", s(&aa), s(&a), s(&a), "--json"]));
    assert_eq!(merged["roots"], 1, "{merged}");
    assert_eq!(info(&aa)["roots"], 1);
    assert_checks(&aa);

    // Other rules and size: an input error naming both, and nothing written.
    let small = d.join("small.db");
    let small_args = |db: &Path| -> Vec<String> {
        let mut args: Vec<String> = solve_empty_k3_args("4").map(String::from).to_vec();
        args.extend(["--full-width", "--threads", "1", "--db", s(db)].map(String::from));
        args
    };
    let mut args = small_args(&small);
    args.push("--json".to_string());
    let answer = ok_json(&run(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    assert_eq!(answer["result"], "win", "{answer}");
    assert_eq!(answer["db"], "added", "{answer}");
    let v = info(&small);
    assert_eq!(
        (v["rule"].as_str(), v["k"].as_u64()),
        (Some("freestyle"), Some(3))
    );
    assert_eq!(v["size"], "4x4");
    assert_checks(&small);
    for (name, inputs) in [("bad1.db", [&a, &small]), ("bad2.db", [&small, &a])] {
        let bad = d.join(name);
        let out = run(&["db", "merge", s(&bad), s(inputs[0]), s(inputs[1])]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
        for part in ["renju", "15x15", "freestyle", "4x4"] {
            assert!(err.contains(part), "{part:?} missing from {err}");
        }
        assert!(!bad.exists(), "{name} written after a failed merge");
    }
    // Adding a proof of other rules to an existing database is the same input error.
    let out = run(&small_args(&a)
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(info(&a)["roots"], 1);

    // Export: the roots and the moves, in the orientation each root was submitted in.
    let out = run(&["db", "export", s(&ab)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("root 1"), "{text}");
    assert!(text.contains("root 2"), "{text}");
    assert!(text.contains(&format!("black plays {best_a}")), "{text}");
    // The second root is a VCF leaf: `white wins by VCF e6 ...`.
    assert!(
        text.contains(&format!("white wins by VCF {best_b}")),
        "{text}"
    );
    let out = run(&["db", "export", s(&a)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("root 1"), "{text}");
    assert!(!text.contains("root 2"), "{text}");
    assert!(text.contains(&best_a), "{text}");
}

/// The CRC-32 field of a database file set to match its body.
fn fix_crc(bytes: &mut [u8]) {
    let crc = crc32fast::hash(&bytes[28..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
}

/// `check` rejects damaged files and files that are not databases with exit status 1 and a
/// report naming the problem; `db info` exits 2 with one line naming it; nothing panics.
#[test]
fn damaged_files_are_rejected_by_check_and_info() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = std::fs::read(single(d, "good.db", &vct())).unwrap();
    assert!(good.len() > 40);
    let flip = |at: usize| {
        let mut b = good.clone();
        b[at] ^= 0x5a;
        b
    };
    let mut cases: Vec<(String, Vec<u8>, &str)> = vec![
        ("checksum byte 24".into(), flip(24), "checksum"),
        ("checksum byte 27".into(), flip(27), "checksum"),
        (
            "truncated body".into(),
            good[..good.len() - 10].to_vec(),
            "truncated",
        ),
        (
            "truncated by one byte".into(),
            good[..good.len() - 1].to_vec(),
            "truncated",
        ),
        ("truncated header".into(), good[..20].to_vec(), "truncated"),
        ("empty".into(), Vec::new(), "truncated"),
        (
            "text".into(),
            b"this is not a renju database at all\n".to_vec(),
            "not a renju database",
        ),
        (
            "a position file".into(),
            std::fs::read(vct()).unwrap(),
            "not a renju database",
        ),
        (
            "version 4".into(),
            {
                let mut b = good.clone();
                b[8] = 4;
                b
            },
            "unsupported database format version 4",
        ),
        (
            "a byte after the body".into(),
            [&good[..], b"x"].concat(),
            "after the",
        ),
    ];
    // Every byte of the body, one at a time: the checksum catches each.
    for at in 28..good.len() {
        cases.push((format!("body byte {at}"), flip(at), "checksum"));
    }
    for (what, bytes, problem) in &cases {
        let path = d.join("damaged.db");
        std::fs::write(&path, bytes).unwrap();
        let (code, report) = check(&path);
        assert_eq!(code, Some(1), "{what}: {report}");
        assert_eq!(report["ok"], false, "{what}: {report}");
        let errors = report["errors"].as_array().unwrap();
        assert!(!errors.is_empty(), "{what}: {report}");
        let text = errors[0]["problem"].as_str().unwrap();
        assert!(
            text.contains(problem),
            "{what}: {problem:?} missing: {text}"
        );

        let out = run(&["db", "info", s(&path)]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(out.stdout.is_empty(), "{what}");
        assert_eq!(err.trim_end().lines().count(), 1, "{what}: {err}");
        assert!(err.starts_with("error: "), "{what}: {err}");
        assert!(err.contains(problem), "{what}: {problem:?} missing: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
    // The text report of `check` lists the problem too.
    let path = d.join("damaged.db");
    std::fs::write(&path, flip(24)).unwrap();
    let out = run(&["check", s(&path)]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("ok:            false"), "{text}");
    assert!(text.contains("checksum"), "{text}");
}

/// Damage the checksum does not catch (the CRC-32 recomputed after changing a body byte):
/// every command answers with an exit status of its own, never a panic or a hang. `check`
/// passes only a file `db info` can read; when `db info` can read it, `db query` and
/// `db export` (text and RenLib library; they replay and walk the damaged trees) must not fail
/// either.
///
/// A few changes leave a database that is still right: moving a root's stone that the proof
/// never touches gives a correct proof of another position, and `check` rightly passes it.
#[test]
fn body_damage_behind_a_valid_checksum_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let good = std::fs::read(single(d, "good.db", &vct())).unwrap();
    let position = vct();
    let cases: Vec<(usize, u8)> = (28..good.len())
        .flat_map(|at| [(at, 0x01u8), (at, 0xff)])
        .collect();
    // `[undecodable, decoded but failed check, still correct]`, in four threads.
    let counts = std::thread::scope(|scope| {
        let workers: Vec<_> = cases
            .chunks(cases.len().div_ceil(4))
            .enumerate()
            .map(|(worker, chunk)| {
                let path = d.join(format!("damaged-{worker}.db"));
                let (good, position) = (&good, &position);
                scope.spawn(move || {
                    let mut counts = [0; 3];
                    for &(at, mask) in chunk {
                        let mut bytes = good.clone();
                        bytes[at] ^= mask;
                        fix_crc(&mut bytes);
                        std::fs::write(&path, &bytes).unwrap();
                        counts[damaged_body(&path, position, &format!("byte {at} ^ {mask:#x}"))] +=
                            1;
                    }
                    counts
                })
            })
            .collect();
        workers.into_iter().fold([0; 3], |total, w| {
            let c = w.join().unwrap();
            [total[0] + c[0], total[1] + c[1], total[2] + c[2]]
        })
    });
    assert_eq!(counts.iter().sum::<usize>(), cases.len());
    assert!(counts[0] > 0 && counts[1] > 0, "{counts:?}");
    eprintln!(
        "body damage behind a valid checksum: {} undecodable, {} decoded but failed check, {} \
         still correct",
        counts[0], counts[1], counts[2]
    );
}

/// Runs the commands on one damaged database: 0 if it does not decode, 1 if it decodes but
/// fails `check`, 2 if it passes.
fn damaged_body(path: &Path, position: &str, what: &str) -> usize {
    let (code, report) = check(path);
    assert!(matches!(code, Some(0 | 1)), "{what}: {report}");
    assert_eq!(report["ok"], code == Some(0), "{what}: {report}");
    if code == Some(1) {
        assert!(
            !report["errors"].as_array().unwrap().is_empty(),
            "{what}: {report}"
        );
    }
    let out = run(&["db", "info", s(path)]);
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{what} info: {err}");
    match out.status.code() {
        Some(2) => {
            assert_eq!(
                code,
                Some(1),
                "{what}: `check` passed what `db info` rejects"
            );
            assert_eq!(err.trim_end().lines().count(), 1, "{what} info: {err}");
            return 0;
        }
        Some(0) => {}
        other => panic!("{what} info: exit {other:?}: {err}"),
    }
    let lib = path.with_extension("lib");
    for args in [
        vec!["db", "query", s(path), position],
        vec!["db", "query", s(path), "h8"],
        vec!["db", "export", s(path)],
        vec!["db", "export", s(path), "--format", "lib", "--out", s(&lib)],
    ] {
        let out = run(&args);
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{what} {args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{what} {args:?}: {err}");
    }
    if code == Some(0) { 2 } else { 1 }
}

/// A tiny deterministic pseudo-random sequence (Knuth's MMIX LCG), high bits used.
struct Lcg(u64);

impl Lcg {
    /// A number in `[0, 1)`.
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `solve B --db FILE` killed (SIGKILL) at pseudo-random moments leaves FILE byte for byte as
/// it was before or as a completed run writes it, and it always checks.
///
/// The database is written to a temporary file in the same directory and renamed over the
/// old one (same file system, so the rename is atomic); a kill before the rename can leave that
/// `.renju-*.tmp` temporary behind, which is allowed, but never a partial database.
#[test]
fn a_killed_solve_leaves_the_old_database_or_the_new_one() {
    const ITERATIONS: usize = 25;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = single(d, "kill.db", &vcf());
    let old = std::fs::read(&file).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("renju");
    let position = vct();
    let spawn = || {
        std::process::Command::new(&bin)
            .args([
                "solve",
                &position,
                "--threads",
                "1",
                "--db",
                s(&file),
                "--quiet",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };

    // The file a completed run writes, and how long a run takes (the slowest of three: the
    // other tests may be running beside this one).
    let mut normal = Duration::ZERO;
    let mut new = Vec::new();
    for _ in 0..3 {
        std::fs::write(&file, &old).unwrap();
        let start = Instant::now();
        let status = spawn().wait().unwrap();
        normal = normal.max(start.elapsed());
        assert!(status.success());
        let written = std::fs::read(&file).unwrap();
        assert!(
            new.is_empty() || new == written,
            "solve --db is not deterministic"
        );
        new = written;
    }
    assert_ne!(new, old);
    assert_eq!(info(&file)["roots"], 2);

    let mut rng = Lcg(0x5eed_d474_ba5e_0f0f);
    let (mut kept_old, mut got_new) = (0, 0);
    for i in 0..ITERATIONS {
        std::fs::write(&file, &old).unwrap();
        // Anywhere in the run, the write at its end included; the range reaches a little past
        // the normal run time so that some kills land on a run that has finished, or is just
        // finishing, even when the machine is busy.
        let delay = normal.mul_f64(1.25 * rng.next());
        let mut child = spawn();
        std::thread::sleep(delay);
        // Fails only if the child was already reaped, which `wait` below has not done yet;
        // a child that already exited is fine either way.
        let _ = child.kill();
        let status = child.wait().unwrap();
        let now = std::fs::read(&file).unwrap();
        if now == old {
            kept_old += 1;
        } else if now == new {
            got_new += 1;
        } else {
            panic!(
                "iteration {i} (killed after {delay:?}, {status}): a partial database of {} bytes",
                now.len()
            );
        }
        let (code, report) = check(&file);
        assert_eq!(code, Some(0), "iteration {i}: {report}");
    }
    let strays = std::fs::read_dir(d)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.starts_with(".renju-") && name.ends_with(".tmp")
        })
        .count();
    eprintln!(
        "killed solve --db ({ITERATIONS} runs of {normal:?}): {kept_old} left the old file, \
         {got_new} the new one, {strays} stray temporaries"
    );
    assert_eq!(kept_old + got_new, ITERATIONS);
}

/// Several `solve --db` processes adding different positions to one database at once: the
/// update lock makes each wait for the others' writes, so no addition is lost.
#[test]
fn concurrent_solves_into_one_database_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("shared.db");
    let quick = [
        "quintet/test_vct_black",
        "quintet/test_vct_white",
        "quintet/test_vct_counter",
        "quintet/test_vct_fukumi_move",
        "quintet/test_vct_dual_forbiddens",
        "quintet/test_vct_forbidden_breaker",
    ];
    let bin = assert_cmd::cargo::cargo_bin("renju");
    let children: Vec<_> = crate::threats::cases()
        .into_iter()
        .filter(|c| quick.contains(&c.id.as_str()))
        .enumerate()
        .map(|(i, case)| {
            let position = d.join(format!("p{i}.txt"));
            std::fs::write(&position, case.board.join("\n")).unwrap();
            std::process::Command::new(&bin)
                .args(["solve", s(&position), "--to-move", &case.attacker])
                .args(["--threads", "1", "--db", s(&db), "--quiet"])
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    assert_eq!(children.len(), quick.len());
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(info(&db)["roots"], quick.len() as u64);
    let (code, report) = check(&db);
    assert_eq!(code, Some(0), "{report}");
}

/// Usage errors: a missing database file, a missing argument.
#[test]
fn usage_errors_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.db");
    let out_db = dir.path().join("out.db");
    for args in [
        vec!["db", "query", s(&missing), "h8"],
        vec!["db", "query", s(&missing), "h8", "--json"],
        vec!["db", "info", s(&missing)],
        vec!["db", "export", s(&missing)],
        vec!["db", "merge", s(&out_db), s(&missing)],
    ] {
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot read"), "{args:?}: {err}");
        assert!(err.contains("missing.db"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    assert!(!out_db.exists());
    for args in [
        vec!["check"],
        vec!["db"],
        vec!["db", "query", s(&missing)],
        vec!["db", "merge", s(&out_db)],
        vec!["check", s(&missing), "--threads", "0"],
    ] {
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    // A database that cannot be read is a failed check (exit 1), reported like any other.
    let (code, report) = check(&missing);
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report["errors"][0]["problem"]
            .as_str()
            .unwrap()
            .contains("cannot read"),
        "{report}"
    );
}

/// Regression: `db merge OUT IN` rewrote OUT when every root of IN was
/// kept; like `solve --db`, it now leaves the file alone when nothing changes.
#[cfg(unix)]
#[test]
fn a_merge_that_adds_nothing_leaves_the_file_alone() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    solve_into(&db, &vct(), &[]);
    let copy = dir.path().join("b.db");
    std::fs::copy(&db, &copy).unwrap();
    let inode = std::fs::metadata(&db).unwrap().ino();
    let out = run(&["--json", "db", "merge", s(&db), s(&copy)]);
    let merged = ok_json(&out);
    assert_eq!(merged["kept"], 1, "{merged}");
    assert_eq!(std::fs::metadata(&db).unwrap().ino(), inode, "rewritten");
    assert_eq!(merged["bytes"], std::fs::metadata(&db).unwrap().len());
}

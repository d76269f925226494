//! `renju book plan`, `work` and `release`: the plan / work / merge cycle without a scheduler,
//! plans and builds under chosen lines, a unit that keeps to its part and says when it was cut
//! short, and a unit's searches guided by a database.

use std::path::Path;

use serde_json::Value;

use crate::cli_book::{
    VCT, arg, check_ok, input_error, json, ok, set_up, set_up_quietly, status, work_unit,
};
use crate::support::{run, signal_after, spawn, stderr};

/// The cluster cycle by hand, as `scripts/slurm/cycle.sh` runs it under Slurm.
#[test]
fn plan_work_and_merge_prove_a_book_in_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    set_up_quietly(&book);
    let mut rounds = 0;
    loop {
        rounds += 1;
        assert!(rounds <= 6, "not proved in 5 rounds");
        let units = dir.path().join(format!("round-{rounds}"));
        let planned = ok(&[
            "book",
            "plan",
            arg(&book),
            "--shards",
            "2",
            "--per-shard",
            "128",
            "--position-nodes",
            "2000",
            "--out",
            arg(&units),
            "--json",
        ]);
        let n = planned["units"].as_u64().unwrap();
        if n == 0 {
            assert_eq!(planned["finished"], true);
            break;
        }
        let mut parts = Vec::new();
        for i in 0..n {
            let part = units.join(format!("part-{i}.db"));
            let unit = units.join(format!("unit-{i}.json"));
            // Guided by the book as planned, as `cycle.sh` runs it.
            let out = work_unit(&unit, &part, &["--guide", arg(&book)]);
            assert!(out.status.success(), "{}", stderr(&out));
            assert!(
                part.exists(),
                "work writes its part even when it proves nothing"
            );
            parts.push(part);
        }
        let mut merge = vec!["db", "merge", arg(&book)];
        merge.extend(parts.iter().map(|p| arg(p)));
        let merged = run(&merge);
        assert!(merged.status.success(), "{}", stderr(&merged));
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

/// `book plan --under` given several lines plans the leaves below each of them, in turn and
/// each once; a bad line among them is refused and plans nothing. `book status --under` shows
/// where the position a line reaches stands, and each of its moves.
#[test]
fn a_plan_under_several_lines_takes_the_leaves_below_each_and_status_shows_them() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let b = arg(&book);
    set_up_quietly(&book);
    let plan = |out: &str, per_shard: &str, under: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec![
            "book".to_string(),
            "plan".to_string(),
            b.to_string(),
            "--shards".to_string(),
            "1".to_string(),
            "--per-shard".to_string(),
            per_shard.to_string(),
            "--out".to_string(),
            arg(&out).to_string(),
        ];
        for line in under {
            args.extend(["--under".to_string(), (*line).to_string()]);
        }
        (args, out.join("unit-0.json"))
    };
    fn borrow(args: &[String]) -> Vec<&str> {
        args.iter().map(String::as_str).collect()
    }
    let lines = |unit: &Path| -> Vec<String> {
        let u: Value = serde_json::from_slice(&std::fs::read(unit).unwrap()).unwrap();
        u["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p["line"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    // The root, counted as tried by the next plan, which expands it; two of its children,
    // given back unsearched.
    let (root, _) = plan("root", "1", &[""]);
    ok(&[borrow(&root), vec!["--json"]].concat());
    let (two, two_unit) = plan("two", "2", &[""]);
    ok(&[borrow(&two), vec!["--json"]].concat());
    let children = lines(&two_unit);
    assert_eq!(children.len(), 2);
    ok(&["book", "release", b, arg(&two_unit), "--json"]);

    let (bad, _) = plan("bad", "8", &[&children[0], "z99"]);
    assert!(input_error(&borrow(&bad)).contains("--under `z99`"));
    let (both, both_unit) = plan("both", "8", &[&children[0], &children[1], &children[0]]);
    let planned = ok(&[borrow(&both), vec!["--json"]].concat());
    assert_eq!(planned["positions"], 2, "{planned}");
    assert_eq!(lines(&both_unit), children);

    // `book status --under` shows the root searched once and expanded, its moves open but
    // for the two planned, which come after the open ones of smaller proof numbers.
    let root = ok(&["book", "status", b, "--under", "", "--json"]);
    assert_eq!(root["state"], "expanded", "{root}");
    assert_eq!(root["searches"], 1);
    assert_eq!(root["line"], serde_json::json!([]));
    let moves = root["moves"].as_array().unwrap();
    assert!(moves.len() > 2);
    let state_of = |play: &str| {
        moves.iter().find(|m| m["play"] == play).unwrap()["state"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(state_of(&children[0]), "planned");
    assert_eq!(state_of(&children[1]), "planned");
    assert_eq!(
        moves.iter().filter(|m| m["state"] == "open").count(),
        moves.len() - 2
    );
    let child = ok(&["book", "status", b, "--under", &children[0], "--json"]);
    assert_eq!(child["line"], serde_json::json!([children[0]]));
    assert_eq!(child["state"], "planned");
    let text = run(&["book", "status", b, "--under", &children[0]]);
    assert!(text.status.success(), "{}", stderr(&text));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(&format!(", {} (", children[0])) && text.contains("): planned"),
        "{text}"
    );
    assert!(input_error(&["book", "status", b, "--under", "z99"]).contains("--under `z99`"));
}

/// `book build --under LINE` searches only the leaves below the position the line reaches,
/// and ends once that position is settled though other roots are open; a line the book does
/// not hold is an input error. Roots: the example VCT position as moves (Black wins with f10)
/// and Kagetsu's g7, which is not searched.
#[test]
fn build_under_a_line_searches_only_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let b = arg(&book);
    let roots = dir.path().join("roots.txt");
    std::fs::write(&roots, "h8 i9 h9 h7 h10 i11 j9 g8 i7 j8\nh8 h9 i9 g7\n").unwrap();
    ok(&[
        "book",
        "build",
        "--db",
        b,
        "--roots",
        arg(&roots),
        "--budget",
        "0",
        "--json",
    ]);
    // The first root planned, then counted as tried and expanded by the next plan (whose
    // unit is given back unsearched).
    for out in ["u1", "u2"] {
        let out = dir.path().join(out);
        let args = [
            "book",
            "plan",
            b,
            "--shards",
            "1",
            "--per-shard",
            "1",
            "--out",
            arg(&out),
        ];
        ok(&[&args[..], &["--json"]].concat());
    }
    ok(&[
        "book",
        "release",
        b,
        arg(&dir.path().join("u2").join("unit-0.json")),
        "--json",
    ]);
    assert!(
        input_error(&["book", "build", "--db", b, "--under", "a1 a2"]).contains("--under `a1 a2`")
    );
    let log = dir.path().join("log.jsonl");
    let built = ok(&[
        "book",
        "build",
        "--db",
        b,
        "--under",
        "f10",
        "--position-nodes",
        "2000",
        "--threads",
        "1",
        "--log",
        arg(&log),
        "--json",
    ]);
    assert_eq!(
        built["stopped"], "every position --under names settled",
        "{built}"
    );
    assert_eq!(built["roots"][0]["result"], "proved", "{built}");
    assert_eq!(built["roots"][1]["result"], "unknown", "{built}");
    let searches: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| json(l.as_bytes()))
        .collect();
    assert!(!searches.is_empty());
    for s in &searches {
        assert_eq!(s["root"], "h8 i9 h9 h7 h10 i11 j9 g8 i7 j8", "{s}");
        assert_eq!(s["line"][0], "f10", "{s}");
    }
    // The line's position is settled now: nothing below it is left to search.
    assert!(input_error(&["book", "build", "--db", b, "--under", "f10"]).contains("--under `f10`"));
}

/// Regression: `book work` wrote its part over its own unit or over the
/// book's database, a root given again with the other attacker was silently kept for the
/// first, and a unit cut short by SIGTERM (as Slurm sends at a time limit) exited 0.
#[test]
fn work_keeps_to_its_part_and_says_when_it_was_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    let b = arg(&book);
    set_up_quietly(&book);

    let units = dir.path().join("units");
    // `book plan` of one unit, an hour a position, into `out`.
    let plan = |book: &Path, out: &Path| {
        ok(&[
            "book",
            "plan",
            arg(book),
            "--shards",
            "1",
            "--position-time",
            "3600",
            "--out",
            arg(out),
            "--json",
        ])
    };
    plan(&book, &units);
    let unit = units.join("unit-0.json");
    let u = arg(&unit);
    let same = input_error(&["book", "work", u, "--out", u]);
    assert!(same.contains("is the work unit"), "{same}");
    let over_book = input_error(&["book", "work", u, "--out", b]);
    assert!(over_book.contains("is a book's database"), "{over_book}");
    #[cfg(unix)]
    {
        let link = dir.path().join("link.db");
        std::os::unix::fs::symlink(&book, &link).unwrap();
        let through = input_error(&["book", "work", u, "--out", arg(&link)]);
        assert!(through.contains("is a book's database"), "{through}");
    }
    assert!(unit.exists());

    let attacker = input_error(&[set_up(b), vec!["--attacker", "white"]].concat());
    assert!(
        attacker.contains("proves a win for black, not white"),
        "{attacker}"
    );
    let width = input_error(&[set_up(b), vec!["--width", "0"]].concat());
    assert!(width.contains("--width"), "{width}");

    // Cut short: the part is written, the results say `stopped`, the exit status is 1. An
    // opening, which no search here proves, keeps the search busy until the signal.
    let hard = dir.path().join("d4.db");
    let init = run(&[
        "book",
        "build",
        "--db",
        arg(&hard),
        "--opening",
        "D4",
        "--budget",
        "0",
    ]);
    assert!(init.status.success(), "{}", stderr(&init));
    let units = dir.path().join("d4-units");
    plan(&hard, &units);
    let unit = units.join("unit-0.json");
    let u = arg(&unit);
    let part = units.join("part-0.db");
    let child = spawn(&[
        "book",
        "work",
        u,
        "--out",
        arg(&part),
        "--threads",
        "1",
        "--json",
    ]);
    signal_after(&child, std::time::Duration::from_millis(1500), "-TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    let results = String::from_utf8(out.stdout).unwrap();
    assert!(!results.is_empty());
    for line in results.lines() {
        assert_eq!(json(line.as_bytes())["result"], "stopped", "{line}");
    }
    assert!(part.exists(), "the part is written even when cut short");

    // `book release` gives the stopped position back to the frontier, with no search
    // counted: the next plan takes nothing back and plans it again at its first budget.
    let results_file = units.join("results.jsonl");
    std::fs::write(&results_file, &results).unwrap();
    let r = arg(&results_file);
    let released = ok(&["book", "release", arg(&hard), u, "--results", r, "--json"]);
    assert_eq!(released["released"], serde_json::json!([[]]), "{released}");
    assert_eq!(released["planned"], 0);
    let again = input_error(&["book", "release", arg(&hard), u, "--results", r]);
    assert!(again.contains("is not planned"), "{again}");
    let replanned = plan(&hard, &units);
    assert_eq!(replanned["taken_back"], 0, "{replanned}");
    assert_eq!(replanned["positions"], 1, "{replanned}");
    let unit_json = json(&std::fs::read(&unit).unwrap());
    assert_eq!(unit_json["positions"][0]["attempts"], 0, "{unit_json}");
    // A position reported searched to its budget stays planned.
    let unknown = results.replace("\"stopped\"", "\"unknown\"");
    std::fs::write(&results_file, &unknown).unwrap();
    let kept = ok(&["book", "release", arg(&hard), u, "--results", r, "--json"]);
    assert_eq!(kept["released"], serde_json::json!([]), "{kept}");
    assert_eq!(kept["planned"], 1);
    // Results that are not `book work`'s, or name a position the unit does not hold, and a
    // unit of another book, change nothing.
    std::fs::write(&results_file, "{\"result\": \"win\"}\n").unwrap();
    let bad = input_error(&["book", "release", arg(&hard), u, "--results", r]);
    assert!(
        bad.contains("line 1: not a `book work --json` result"),
        "{bad}"
    );
    let stranger = unknown.replace("\"book_node\":0", "\"book_node\":7");
    assert_ne!(stranger, unknown);
    std::fs::write(&results_file, &stranger).unwrap();
    let bad = input_error(&["book", "release", arg(&hard), u, "--results", r]);
    assert!(bad.contains("is not one of the unit's"), "{bad}");
    let other = input_error(&["book", "release", b, u]);
    assert!(other.contains("holds other stones"), "{other}");
    let s = status(&hard);
    assert_eq!(s["roots"][0]["result"], "unknown");
    let later = run(&["book", "release", arg(&hard), u]);
    assert!(later.status.success(), "{}", stderr(&later));
    assert_eq!(
        String::from_utf8_lossy(&later.stdout).trim(),
        "1 of 1 positions given back to the frontier (the root); 0 searched to their budgets stay planned",
        "without results every position goes back"
    );
    // A position whose search ended before its budget, its narrowed moves holding no win, is
    // marked exhausted: counted, not given back, and never planned again.
    plan(&hard, &units);
    let narrowed = unknown.replace(
        "\"result\":\"unknown\"",
        "\"result\":\"unknown\",\"narrowed_out\":true",
    );
    assert_ne!(narrowed, unknown);
    std::fs::write(&results_file, &narrowed).unwrap();
    let marked = ok(&["book", "release", arg(&hard), u, "--results", r, "--json"]);
    assert_eq!(marked["exhausted"], serde_json::json!([[]]), "{marked}");
    assert_eq!(marked["released"], serde_json::json!([]), "{marked}");
    assert_eq!(marked["planned"], 0, "{marked}");
    let replanned = plan(&hard, &units);
    assert_eq!(replanned["positions"], 0, "{replanned}");
    let under = ok(&["book", "status", arg(&hard), "--under", "", "--json"]);
    assert_eq!(
        (&under["state"], &under["searches"]),
        (&serde_json::json!("exhausted"), &serde_json::json!(1)),
        "{under}"
    );
    let text = run(&["book", "status", arg(&hard), "--under", ""]);
    assert!(String::from_utf8_lossy(&text.stdout).contains(": exhausted, searched once"));
}

/// `book work --guide`: the searches take the settled positions of a database (here the
/// position after White's j6 in the example VCT's line), the proofs stand on their own (where
/// the guide stood in, with its stored proof replayed on the board, or a search again), and a
/// guide for other rules, or none at all, is a one-line input error.
#[test]
fn work_takes_a_guide_and_its_proofs_stand_without_it() {
    use renju::book::RoundOptions;
    use renju::book::unit::Unit;
    use renju::notation::{DiagramStyle, PositionOptions, format_diagram, parse_position};
    use renju::rules::{Color, Rules, Size};

    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(VCT).unwrap();
    let mut board = parse_position(&text, &PositionOptions::default()).unwrap();
    // Black's f10, the VCT's first move: White to move loses.
    board.play("f10".parse().unwrap()).unwrap();
    let options = RoundOptions {
        position_nodes: Some(100_000),
        ..RoundOptions::default()
    };
    let mut unit = Unit::new(Rules::renju(), Size::STANDARD, &options);
    unit.push(1, &board, &[], 0, None);
    let unit_path = dir.path().join("unit-0.json");
    std::fs::write(&unit_path, serde_json::to_string(&unit).unwrap()).unwrap();
    // The guide: White's j6, Black to move, proved won for Black.
    board.play("j6".parse().unwrap()).unwrap();
    assert_eq!(board.to_move(), Color::Black);
    let below = dir.path().join("below.txt");
    std::fs::write(&below, format_diagram(&board, &DiagramStyle::default())).unwrap();
    let guide = dir.path().join("guide.rdb");
    let stored = ok(&[
        "solve",
        arg(&below),
        "--to-move",
        "black",
        "--threads",
        "1",
        "--json",
        "--db",
        arg(&guide),
    ]);
    assert_eq!(stored["result"], "win");

    let work = |extra: &[&str], part: &Path| {
        let out = work_unit(&unit_path, part, extra);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        json(&out.stdout)
    };
    let plain_part = dir.path().join("plain.db");
    let guided_part = dir.path().join("guided.db");
    let plain = work(&[], &plain_part);
    let guided = work(&["--guide", arg(&guide)], &guided_part);
    assert_eq!(plain["result"], "loss");
    assert_eq!(guided["result"], "loss");
    // One thread: the node counts are deterministic, and the guide changed the search.
    assert_ne!(
        plain["nodes"], guided["nodes"],
        "the guide was not consulted"
    );
    // The guided part checks on its own: whatever it took from the guide is whole in it.
    check_ok(&guided_part);

    let gomoku = dir.path().join("gomoku.rdb");
    let stored = ok(&[
        "solve",
        "h8 a1 i8 a2 j8 a3",
        "--rule",
        "gomoku",
        "--json",
        "--db",
        arg(&gomoku),
    ]);
    assert_eq!(stored["result"], "win");
    let missing = dir.path().join("missing.rdb");
    for (file, needle) in [(&gomoku, "give another --guide"), (&missing, "cannot read")] {
        let part = dir.path().join("never.db");
        let message = input_error(&[
            "book",
            "work",
            arg(&unit_path),
            "--out",
            arg(&part),
            "--guide",
            arg(file),
        ]);
        assert!(message.contains(needle), "{message}");
        assert!(!part.exists());
    }
}

/// `book work --states DIR`: a search for one side's win that its budget stops keeps its state
/// in DIR, and the position's next search (its budget doubled) goes on from it, spending only
/// what the doubled budget leaves; once proved, the file is removed, and the part checks.
/// Kagetsu's g13 takes 1.7M nodes in one run.
#[test]
fn work_goes_on_from_a_kept_state() {
    use renju::book::RoundOptions;
    use renju::book::unit::Unit;
    use renju::notation::{PositionOptions, parse_position};
    use renju::rules::{Color, Rules, Size};

    let dir = tempfile::tempdir().unwrap();
    let states = dir.path().join("states");
    let board = parse_position("h8 h9 i9 g13", &PositionOptions::default()).unwrap();
    let options = RoundOptions {
        position_nodes: Some(1_000_000),
        ..RoundOptions::default()
    };
    let unit_at = |attempts: u32, attacker: Option<Color>| {
        let mut unit = Unit::new(Rules::renju(), Size::STANDARD, &options);
        unit.push(1, &board, &[], attempts, attacker);
        let path = dir.path().join(format!("unit-{attempts}.json"));
        std::fs::write(&path, serde_json::to_string(&unit).unwrap()).unwrap();
        path
    };
    let work = |unit: &Path, part: &Path| {
        let out = work_unit(unit, part, &["--states", arg(&states)]);
        assert!(out.status.success(), "{}", stderr(&out));
        (json(&out.stdout), stderr(&out))
    };
    let file = renju::book::state_path(&states, &board, Color::Black);

    let (first, _) = work(&unit_at(0, Some(Color::Black)), &dir.path().join("p0.db"));
    assert_eq!(first["result"], "unknown");
    let spent = first["nodes"].as_u64().unwrap();
    assert!((1_000_000..1_100_000).contains(&spent), "{first}");
    assert!(first["state"].as_str().unwrap().contains("kept"), "{first}");
    assert!(file.exists());

    let part = dir.path().join("p1.db");
    let (second, log) = work(&unit_at(1, Some(Color::Black)), &part);
    assert_eq!(second["result"], "win", "{second}");
    let state = second["state"].as_str().unwrap();
    assert!(
        state.contains("went on from") && state.contains("removed: proved"),
        "{state}"
    );
    assert!(log.contains("state: went on from"), "{log}");
    let went_on = second["nodes"].as_u64().unwrap();
    assert!(
        went_on < 1_000_000,
        "{went_on} nodes: the doubled budget less the first run's, not one run's 1.7M"
    );
    assert!(!file.exists(), "a proved position's state is removed");
    assert!(
        !renju::atomic::lock_path(&file).exists(),
        "and its lock file with it"
    );
    check_ok(&part);

    // A damaged file is left as it is, and the position searched without a state.
    std::fs::write(&file, b"RENJU-SS damaged").unwrap();
    let (damaged, _) = work(&unit_at(0, Some(Color::Black)), &dir.path().join("p3.db"));
    let state = damaged["state"].as_str().unwrap();
    assert!(
        state.starts_with("no state:") && state.contains("left as it is"),
        "{state}"
    );
    assert_eq!(
        damaged["nodes"], first["nodes"],
        "a fresh search, as the first"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"RENJU-SS damaged");

    // A search for both sides' wins keeps no state, and says so.
    let (both, log) = work(&unit_at(0, None), &dir.path().join("p2.db"));
    assert!(both.get("state").is_none(), "{both}");
    assert!(log.contains("keeps no state here"), "{log}");
}

/// `book build --states DIR`: a leaf at the ply limit goes on from its kept state at its next
/// search, as `book work --states` does, and the log says so; a leaf expanded instead has its
/// state removed; `--states` needs `--attacker-wins-only`. Kagetsu's g13 takes 1.7M nodes in
/// one run.
#[test]
fn build_goes_on_from_a_kept_state() {
    let dir = tempfile::tempdir().unwrap();
    let roots = dir.path().join("roots.txt");
    std::fs::write(&roots, "h8 h9 i9 g13\n").unwrap();
    let build = |name: &str, extra: &[&str]| {
        let book = dir.path().join(format!("{name}.db"));
        let states = dir.path().join(format!("{name}-states"));
        let log = dir.path().join(format!("{name}.jsonl"));
        let mut args = vec![
            "book",
            "build",
            "--db",
            arg(&book),
            "--roots",
            arg(&roots),
            "--attacker-wins-only",
            "--states",
            arg(&states),
            "--log",
            arg(&log),
            "--threads",
            "1",
            "--json",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let built = ok(&args);
        let searches: Vec<Value> = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .map(|l| json(l.as_bytes()))
            .collect();
        (book, states, built, searches)
    };
    // Every file in the directory: a state's lock file goes with it.
    let all = |states: &Path| -> Vec<String> {
        std::fs::read_dir(states)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect()
    };
    let files = |states: &Path| -> Vec<String> {
        let mut names = all(states);
        names.retain(|n| n.ends_with(".state"));
        names
    };

    // At the ply limit: the second search, its budget doubled, goes on from the first.
    let (book, states, built, searches) =
        build("limit", &["--max-ply", "0", "--position-nodes", "1000000"]);
    assert_eq!(built["roots"][0]["result"], "proved", "{built}");
    assert_eq!(searches.len(), 2, "{searches:?}");
    assert_eq!(searches[0]["outcome"], "unknown");
    let first = searches[0]["nodes"].as_u64().unwrap();
    assert!((1_000_000..1_100_000).contains(&first), "{first}");
    assert!(
        searches[0]["state"].as_str().unwrap().starts_with("kept "),
        "{}",
        searches[0]
    );
    assert_eq!(searches[1]["outcome"], "proved");
    let state = searches[1]["state"].as_str().unwrap();
    assert!(
        state.contains("went on from") && state.contains("removed: proved"),
        "{state}"
    );
    let went_on = searches[1]["nodes"].as_u64().unwrap();
    assert!(
        went_on < 1_000_000,
        "{went_on} nodes: the doubled budget less the first search's, not one search's 1.7M"
    );
    assert!(all(&states).is_empty(), "{:?}", all(&states));
    check_ok(&book);

    // Below the ply limit an unproved leaf is expanded, not searched again: it keeps no state.
    // The leaves at the limit keep theirs.
    let (book, states, _, searches) = build(
        "expanded",
        &[
            "--max-ply",
            "1",
            "--position-nodes",
            "20000",
            "--budget",
            "1",
        ],
    );
    assert_eq!(searches[0]["line"], serde_json::json!([]), "the root first");
    assert_eq!(searches[0]["outcome"], "unknown");
    assert!(searches[0].get("state").is_none(), "{}", searches[0]);
    let g13 = renju::notation::parse_position("h8 h9 i9 g13", &Default::default()).unwrap();
    let root = renju::book::state_path(&states, &g13, renju::rules::Color::Black);
    assert!(!root.exists());
    let kept = files(&states);
    // Searches cut short by the run's end keep theirs too: the leaf's next search goes on.
    let unproved = searches[1..]
        .iter()
        .filter(|s| s["outcome"] == "unknown" || s["outcome"] == "cut short")
        .count();
    assert!(!kept.is_empty() && kept.len() <= unproved, "{kept:?}");
    // A run with a higher ply limit expands those leaves instead of searching them again:
    // their files are swept.
    let out = run(&[
        "book",
        "build",
        "--db",
        arg(&book),
        "--max-ply",
        "2",
        "--attacker-wins-only",
        "--states",
        arg(&states),
        "--budget",
        "0",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let note = format!(
        "note: {} state file(s) of positions not searched again",
        kept.len()
    );
    assert!(stderr(&out).contains(&note), "{}", stderr(&out));
    assert!(all(&states).is_empty(), "{:?}", all(&states));

    let refused = input_error(&[
        "book",
        "build",
        "--db",
        arg(&dir.path().join("both.db")),
        "--roots",
        arg(&roots),
        "--states",
        arg(&dir.path().join("both-states")),
    ]);
    assert!(refused.contains("--attacker-wins-only"), "{refused}");
}

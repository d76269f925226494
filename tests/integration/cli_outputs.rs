//! Output files that would destroy an input are refused before any work: an output that is
//! the position file, a `--guide`, a book's files or a roots file, a plain output over a
//! solution database or a book journal, and an output in a directory that does not exist; and
//! an existing book keeps its own rules, refusing others named on the command line.

use crate::cli_book::{VCT, arg, input_error, ok, set_up_quietly};
use crate::support::renju;

/// A proof file (or a search state) that is the position file given is refused before the
/// search, with exit status 2 and the position file left as it was: `solve`, `vcf` and `vct`,
/// and `show --svg`.
#[test]
fn an_output_that_is_the_position_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let position = dir.path().join("position.txt");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/examples/vct.txt"
    ))
    .unwrap();
    std::fs::write(&position, &text).unwrap();
    let p = position.to_str().unwrap();
    for args in [
        vec!["solve", p, "--threads", "1", "--proof", p],
        vec![
            "solve",
            p,
            "--threads",
            "1",
            "--attacker",
            "black",
            "--state",
            p,
        ],
        vec!["vct", p, "--threads", "1", "--proof", p],
        vec!["vcf", p, "--proof", p],
        vec!["show", p, "--svg", p],
    ] {
        let out = renju().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("is the position file"), "{args:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(&position).unwrap(),
            text,
            "{args:?}"
        );
    }
}

/// Files a command would write over one it reads, or over a store it must not touch, are
/// refused before anything is written or searched (exit status 2, one line), and so is an
/// output in a directory that does not exist: `book build --log` (appended to in place) as
/// the book's database, its journal or the roots file; `book work --out` as its `--guide` or
/// a book's journal; `solve --proof` as its `--guide`; `db export --out` over a journal;
/// `book build --db`, `db merge`, `solve --state` and `vct --proof` in a missing directory.
/// A bad `book build --under` is one error line, with no note before it. Each file stays as
/// it was.
#[test]
fn outputs_that_would_destroy_an_input_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let book = d.join("b.rdb");
    set_up_quietly(&book);
    let journal = d.join("b.rdb.journal");
    let roots = d.join("roots.txt");
    std::fs::copy(VCT, &roots).unwrap();
    let guide = d.join("guide.rdb");
    ok(&[
        "solve",
        VCT,
        "--threads",
        "1",
        "--json",
        "--db",
        arg(&guide),
    ]);
    let plan = d.join("plan");
    ok(&[
        "book",
        "plan",
        arg(&book),
        "--out",
        arg(&plan),
        "--shards",
        "1",
        "--json",
    ]);
    let unit = std::fs::read_dir(&plan)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .expect("a unit file");
    let missing = d.join("no-such-dir").join("x");
    let files = [&book, &journal, &roots, &guide];
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let build = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["book", "build", "--db", arg(&book), "--threads", "1"]
            .iter()
            .map(ToString::to_string)
            .collect();
        v.extend(extra.iter().map(ToString::to_string));
        v
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            build(&["--budget", "1", "--log", arg(&book)]),
            "book's database",
        ),
        (
            build(&["--budget", "1", "--log", arg(&journal)]),
            "book's journal",
        ),
        (
            build(&[
                "--budget",
                "1",
                "--roots",
                arg(&roots),
                "--log",
                arg(&roots),
            ]),
            "roots file",
        ),
        (build(&["--budget", "1", "--under", "zz"]), "zz"),
        (
            [
                "book",
                "work",
                arg(&unit),
                "--out",
                arg(&guide),
                "--guide",
                arg(&guide),
            ]
            .map(String::from)
            .to_vec(),
            "--guide",
        ),
        (
            ["book", "work", arg(&unit), "--out", arg(&journal)]
                .map(String::from)
                .to_vec(),
            "a book's journal",
        ),
        (
            [
                "solve",
                VCT,
                "--threads",
                "1",
                "--guide",
                arg(&guide),
                "--proof",
                arg(&guide),
            ]
            .map(String::from)
            .to_vec(),
            "would destroy it",
        ),
        (
            ["db", "export", arg(&guide), "--out", arg(&journal)]
                .map(String::from)
                .to_vec(),
            "a book's journal",
        ),
        (
            [
                "book",
                "build",
                "--db",
                arg(&missing),
                "--opening",
                "D4",
                "--budget",
                "0",
            ]
            .map(String::from)
            .to_vec(),
            "not a directory",
        ),
        (
            ["db", "merge", arg(&missing), arg(&guide)]
                .map(String::from)
                .to_vec(),
            "not a directory",
        ),
        (
            [
                "solve",
                "h8 h9 i9",
                "--attacker",
                "black",
                "--nodes",
                "1000",
                "--state",
                arg(&missing),
            ]
            .map(String::from)
            .to_vec(),
            "not a directory",
        ),
        (
            ["vct", VCT, "--threads", "1", "--proof", arg(&missing)]
                .map(String::from)
                .to_vec(),
            "not a directory",
        ),
    ];
    for (args, needle) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = input_error(&args);
        assert!(err.contains(needle), "{args:?}: {err}");
        for (file, old) in files.iter().zip(&before) {
            assert_eq!(
                &std::fs::read(file).unwrap(),
                old,
                "{args:?} changed {file:?}"
            );
        }
    }
    assert!(!missing.parent().unwrap().exists());
}

/// An existing book keeps its rules and size: naming others (`--rule`, `--k`, `--size`) is an
/// input error before any work, not a book grown under rules other than those asked for; naming
/// its own is fine.
#[test]
fn an_existing_book_refuses_other_rules() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.db");
    set_up_quietly(&book);
    let b = arg(&book);
    let journal = dir.path().join("book.db.journal");
    let before = (
        std::fs::read(&book).unwrap(),
        std::fs::read(&journal).unwrap(),
    );
    let units = dir.path().join("units");
    let u = arg(&units);
    for (args, named) in [
        (
            vec![
                "--rule", "gomoku", "book", "build", "--db", b, "--roots", VCT,
            ],
            "gomoku (k=5) on 15x15",
        ),
        (
            vec![
                "book",
                "build",
                "--db",
                b,
                "--budget",
                "0",
                "--rule",
                "freestyle",
                "--k",
                "6",
            ],
            "freestyle (k=6) on 15x15",
        ),
        (vec!["book", "status", b, "--size", "13"], "renju on 13x13"),
        (
            vec![
                "book", "plan", b, "--shards", "1", "--out", u, "--rule", "caro",
            ],
            "caro",
        ),
    ] {
        let err = input_error(&args);
        assert!(
            err.contains("is for renju on 15x15, not") && err.contains(named),
            "{args:?}: {err}"
        );
        let after = (
            std::fs::read(&book).unwrap(),
            std::fs::read(&journal).unwrap(),
        );
        assert!(after == before, "{args:?} changed the book");
    }
    assert!(!units.exists(), "a refused plan wrote units");

    // A unit keeps its book's rules too.
    ok(&["book", "plan", b, "--shards", "1", "--out", u, "--json"]);
    let unit = units.join("unit-0.json");
    let part = dir.path().join("part.db");
    let err = input_error(&[
        "book",
        "work",
        arg(&unit),
        "--out",
        arg(&part),
        "--rule",
        "gomoku",
    ]);
    assert!(err.contains("is for renju on 15x15, not gomoku"), "{err}");
    assert!(!part.exists(), "a refused unit wrote its part");
    let own = ok(&[
        "book", "status", b, "--json", "--rule", "renju", "--size", "15",
    ]);
    assert_eq!(own["rules"], "renju", "{own}");

    // `--k` alone is a win length under the book's own rule.
    let gomoku = dir.path().join("gomoku.db");
    let g = arg(&gomoku);
    ok(&[
        "--rule", "gomoku", "book", "build", "--db", g, "--roots", VCT, "--budget", "0", "--json",
        "--quiet",
    ]);
    let err = input_error(&["book", "status", g, "--k", "6"]);
    assert!(
        err.contains("is for gomoku (k=5) on 15x15, not gomoku (k=6) on 15x15"),
        "{err}"
    );
    ok(&["book", "status", g, "--json", "--k", "5"]);
}

//! RenLib libraries: the synthetic libraries of `tests/data/renlib` (written by an independent
//! Python writer) read as expected; random libraries survive a write and a read; random,
//! truncated and mutated bytes never panic the reader; and `db export --format lib` writes a
//! library whose comments agree with the database, from the library and from the command line.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use renju::db::{Builder, Database, Index, export_lib, query};
use renju::notation::{PositionOptions, parse_position};
use renju::renlib::{
    self, Damage, Encoding, Library, RenlibError, VERSION, Version, line_board, read, read_file,
    write,
};
use renju::rules::{Point, Rules, Size};
use renju::solve::{SolveOptions, Verdict, solve};

use crate::support::{run, solve_empty_k3_args};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/renlib")
        .join(name)
}

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn line(moves: &str) -> Vec<Option<Point>> {
    moves
        .split_whitespace()
        .map(|m| (m != "pass").then(|| p(m)))
        .collect()
}

/// Every node in pre-order, with its depth and everything but its arena index, for comparing
/// libraries built in different orders.
fn dump(lib: &Library) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![(Library::ROOT, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let n = lib.node(id);
        out.push(format!(
            "{depth} {:?} move={} mark={} start={} {:?} {:?} {:?}",
            n.point.map(|p| p.to_string()),
            n.is_move,
            n.mark,
            n.start,
            n.comment(),
            n.multi_line_comment(),
            n.board_text()
        ));
        let children: Vec<usize> = lib.children(id).collect();
        stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
    out
}

/// The node reached by `moves` from the root.
fn node_at(lib: &Library, moves: &str) -> usize {
    line(moves).into_iter().fold(Library::ROOT, |at, m| {
        lib.child(at, m)
            .unwrap_or_else(|| panic!("no {m:?} after {:?}", lib.path(at)))
    })
}

#[test]
fn synthetic_gbk_library() {
    let lib = read_file(&data("synthetic-gbk.lib"), Encoding::Auto).unwrap();
    assert_eq!(lib.version, Some(VERSION));
    assert_eq!(lib.encoding, Encoding::Gbk);
    assert_eq!(lib.node(Library::ROOT).comment(), Some("测试库"));
    assert_eq!(
        lib.lines(),
        vec![
            line("h8 pass g7"),
            line("h8 h9 i9 j10"),
            line("h8 h9 i8"),
            line("h8 i9 j10"),
        ]
    );
    let h8 = lib.node(node_at(&lib, "h8"));
    assert!(h8.start && !h8.mark);
    let h9 = lib.node(node_at(&lib, "h8 h9"));
    assert_eq!(h9.comment(), Some("直指开局"));
    assert_eq!(h9.multi_line_comment(), Some("花月\r\n黑先胜"));
    assert!(lib.node(node_at(&lib, "h8 h9 i9")).mark);
    assert_eq!(
        lib.node(node_at(&lib, "h8 h9 i9 j10")).board_text(),
        Some("A")
    );
    assert_eq!(lib.node(node_at(&lib, "h8 pass")).comment(), Some("弃权"));
    // j8 after h8 i9 is a label, not a move: no line goes through it.
    let label = lib.node(node_at(&lib, "h8 i9 j8"));
    assert!(!label.is_move);
    assert_eq!(label.board_text(), Some("1"));
    // Our writer gives back the Python writer's bytes.
    let bytes = std::fs::read(data("synthetic-gbk.lib")).unwrap();
    assert_eq!(write(&lib, Encoding::Gbk).unwrap(), bytes);
    // Read as Shift-JIS, the same tree with other (replacement-free or not) texts: the
    // encoding only changes the texts.
    let sjis = read(&bytes, Encoding::ShiftJis).unwrap();
    assert_eq!(sjis.lines(), lib.lines());
}

#[test]
fn synthetic_shift_jis_version_3_0() {
    let lib = read_file(&data("synthetic-v30-shift-jis.lib"), Encoding::Auto).unwrap();
    assert_eq!(lib.version, Some(Version { major: 3, minor: 0 }));
    assert_eq!(lib.encoding, Encoding::ShiftJis);
    assert_eq!(lib.lines(), vec![line("h8 h9 i10"), line("h8 i9")]);
    assert_eq!(lib.node(node_at(&lib, "h8 h9")).comment(), Some("黒番必勝"));
    let i9 = lib.node(node_at(&lib, "h8 i9"));
    assert_eq!(i9.comment(), Some("ひらがな"));
    assert_eq!(i9.multi_line_comment(), Some("斜月"));
    // Named explicitly, the same.
    let named = read_file(
        &data("synthetic-v30-shift-jis.lib"),
        "sjis".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(dump(&named), dump(&lib));
}

#[test]
fn synthetic_headerless_library() {
    let lib = read_file(&data("synthetic-headerless.lib"), Encoding::Auto).unwrap();
    assert_eq!(lib.version, None);
    assert_eq!(lib.lines(), vec![line("h8 g9"), line("h8 i9")]);
    assert_eq!(lib.node(node_at(&lib, "h8")).comment(), Some("Snäll"));
    assert_eq!(lib.node(node_at(&lib, "h8 g9")).comment(), Some("Ok"));
    // Written again, it gets a 3.4 header and a root record, and reads the same; `ä` is in
    // neither GBK nor Shift-JIS, so the texts are written in CP1252.
    let bytes = write(&lib, Encoding::Auto).unwrap();
    assert!(bytes.windows(5).any(|w| w == b"Sn\xe4ll"));
    let again = read(&bytes, Encoding::Cp1252).unwrap();
    assert_eq!(again.version, Some(VERSION));
    assert_eq!(dump(&again), dump(&lib));
}

#[test]
fn missing_file_names_the_path() {
    let e = read_file(&data("no-such.lib"), Encoding::Auto).unwrap_err();
    assert!(matches!(e, RenlibError::Io { .. }));
    assert!(e.to_string().contains("no-such.lib"), "{e}");
}

#[test]
fn deep_libraries_need_no_deep_stack() {
    // 200,000 moves in one line (RenLib does not check the board; neither does the reader).
    let depth = 200_000;
    let mut bytes = renlib::MAGIC.to_vec();
    bytes.extend_from_slice(&[3, 4]);
    bytes.extend_from_slice(&[0xFF; 10]);
    bytes.extend_from_slice(&[0, 0]);
    for i in 0..depth {
        bytes.extend_from_slice(&[0x78, if i + 1 == depth { 0x40 } else { 0 }]);
    }
    let lib = read(&bytes, Encoding::Auto).unwrap();
    assert_eq!(lib.len(), depth + 1);
    let mut lengths = Vec::new();
    lib.for_each_line(&mut |l| lengths.push(l.len()));
    assert_eq!(lengths, vec![depth]);
    assert_eq!(write(&lib, Encoding::Auto).unwrap(), bytes);
}

/// One node of a random library: where it hangs, and what it holds.
#[derive(Clone, Debug)]
struct Spec {
    parent: usize,
    point: Option<(u8, u8)>,
    is_move: bool,
    mark: bool,
    start: bool,
    comment: Option<String>,
    multi_line: Option<String>,
    board_text: Option<String>,
}

/// Texts every `encoding` can hold: ASCII and some Chinese or Japanese, or anything for UTF-8.
fn texts(encoding: Encoding, one_line: bool) -> BoxedStrategy<Option<String>> {
    let pattern = match (encoding, one_line) {
        (Encoding::Gbk, _) => "[a-zA-Z0-9 ,.!?黑白先胜负直指斜指花月]{1,12}",
        (Encoding::ShiftJis, _) => "[a-zA-Z0-9 黒番必勝ひらがなカタカナ]{1,12}",
        // No zero character anywhere; no character 8, the separator, in a one-line comment.
        (_, true) => "[^\\x00\\x08]{1,12}",
        (_, false) => "[^\\x00]{1,12}",
    };
    proptest::option::of(pattern).boxed()
}

fn spec(encoding: Encoding) -> impl Strategy<Value = Spec> {
    (
        any::<usize>(),
        proptest::option::weighted(0.95, (0u8..15, 0u8..15)),
        proptest::bool::weighted(0.9),
        any::<bool>(),
        proptest::bool::weighted(0.1),
        texts(encoding, true),
        texts(encoding, false),
        texts(encoding, false),
    )
        .prop_map(
            |(parent, point, is_move, mark, start, comment, multi_line, board_text)| Spec {
                parent,
                point,
                is_move,
                mark,
                start,
                comment,
                multi_line,
                board_text,
            },
        )
}

fn library(specs: &[Spec]) -> Library {
    let mut lib = Library::new();
    for s in specs {
        let parent = s.parent % lib.len();
        let id = lib.add_child(parent, s.point.map(|(x, y)| Point::new(x, y)));
        let node = lib.node_mut(id);
        node.is_move = s.is_move;
        node.mark = s.mark;
        node.start = s.start;
        let texts = node.texts_mut();
        texts.comment.clone_from(&s.comment);
        texts.multi_line_comment.clone_from(&s.multi_line);
        texts.board_text.clone_from(&s.board_text);
    }
    lib
}

fn encoded_library() -> impl Strategy<Value = (Encoding, Vec<Spec>)> {
    prop_oneof![
        Just(Encoding::Utf8),
        Just(Encoding::Gbk),
        Just(Encoding::ShiftJis)
    ]
    .prop_flat_map(|e| (Just(e), prop::collection::vec(spec(e), 0..40)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A library written and read back is the same tree, texts and flags included, and
    /// writes the same bytes again.
    #[test]
    fn write_then_read_is_the_same_library((encoding, specs) in encoded_library()) {
        let lib = library(&specs);
        let bytes = write(&lib, encoding).unwrap();
        let back = read(&bytes, encoding).unwrap();
        prop_assert_eq!(back.version, Some(VERSION));
        prop_assert_eq!(back.encoding, encoding);
        prop_assert_eq!(dump(&back), dump(&lib));
        prop_assert_eq!(back.lines(), lib.lines());
        prop_assert_eq!(write(&back, encoding).unwrap(), bytes);
    }

    /// `Auto` reads a library back in the code page it was written in: GBK for Chinese
    /// comments, Shift-JIS for Japanese ones with kana. The guess is made for the whole file,
    /// and a file's comments are rarely a few characters only: a few GBK characters can be
    /// valid UTF-8 by chance (`斜` is `D0 B1`, UTF-8 for `б`), so each library here also has
    /// the comment `黑先胜` (or `黒番必勝`).
    #[test]
    fn auto_recognises_gbk_and_shift_jis(
        chinese in "[黑白先胜负直指斜指花月防守 0-9a-z]{0,3}[黑白先胜负直指斜指花月防守]{1,8}",
        kanji in "[黒番必勝定石 0-9a-z]{0,4}",
        kana in "[ひらがなカタカナ]{1,3}",
    ) {
        let japanese = format!("{kanji}{kana}");
        for (text, usual, encoding) in [
            (&chinese, "黑先胜", Encoding::Gbk),
            (&japanese, "黒番必勝", Encoding::ShiftJis),
        ] {
            let mut lib = Library::from_lines(&[vec![p("h8")], vec![p("h8"), p("i9")]]);
            lib.node_mut(Library::ROOT).texts_mut().comment = Some(usual.to_string());
            lib.node_mut(1).texts_mut().comment = Some(text.clone());
            lib.node_mut(2).texts_mut().multi_line_comment = Some(text.clone());
            let back = read(&write(&lib, encoding).unwrap(), Encoding::Auto).unwrap();
            prop_assert_eq!(back.encoding, encoding);
            prop_assert_eq!(dump(&back), dump(&lib));
        }
    }

    /// Any bytes, after a RenLib header, an old file's first move, or nothing: an answer,
    /// never a panic; a library read writes and reads again.
    #[test]
    fn random_bytes_never_panic(
        start in 0usize..3,
        body in prop::collection::vec(any::<u8>(), 0..300),
        encoding in prop::sample::select(Encoding::ALL.to_vec()),
    ) {
        let mut bytes = match start {
            0 => Vec::new(),
            1 => [renlib::MAGIC.as_slice(), &[3, 4], &[0xFF; 10]].concat(),
            _ => vec![renlib::CENTRE],
        };
        bytes.extend(body);
        if let Ok(lib) = read(&bytes, encoding) {
            let again = write(&lib, Encoding::Utf8).unwrap();
            prop_assert!(read(&again, Encoding::Utf8).is_ok());
            let _ = lib.lines();
        }
    }

    /// A good library cut short or with a byte changed: an answer, never a panic; a damaged
    /// body names an offset inside the file.
    #[test]
    fn truncated_and_mutated_libraries_never_panic(
        (encoding, specs) in encoded_library(),
        cut in any::<prop::sample::Index>(),
        flip in any::<(prop::sample::Index, u8)>(),
    ) {
        let bytes = write(&library(&specs), encoding).unwrap();
        let short = &bytes[..cut.index(bytes.len() + 1)];
        let mut changed = bytes.clone();
        let i = flip.0.index(changed.len());
        changed[i] ^= flip.1.max(1);
        for damaged in [short, &changed[..]] {
            if let Err(RenlibError::Damaged { offset, .. }) = read(damaged, Encoding::Auto) {
                prop_assert!(offset <= damaged.len());
            }
        }
    }
}

#[test]
fn truncation_inside_a_record_is_an_error() {
    let lib = Library::from_lines(&[vec![p("h8"), p("h9")], vec![p("h8"), p("i9")]]);
    let bytes = write(&lib, Encoding::Auto).unwrap();
    let e = read(&bytes[..bytes.len() - 1], Encoding::Auto).unwrap_err();
    assert!(
        matches!(
            e,
            RenlibError::Damaged {
                damage: Damage::TruncatedRecord,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "damaged library at byte {}: a record needs 2 bytes but the file has 1 left (truncated file?)",
            bytes.len() - 2
        )
    );
}

/// A database of the two bundled example positions (a VCT win for Black, a VCF win for White),
/// and of the first after Black's winning move (a loss for White, stored inside the first
/// proof, so a transposition in the library).
fn example_database() -> &'static Database {
    static DB: OnceLock<Database> = OnceLock::new();
    DB.get_or_init(|| {
        let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
        for name in ["vct.txt", "vcf.txt"] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("data/examples")
                .join(name);
            let text = std::fs::read_to_string(path).unwrap();
            let mut board = parse_position(&text, &PositionOptions::default()).unwrap();
            let solved = solve(&board, &SolveOptions::default(), &mut |_| {});
            assert_eq!(solved.verdict, Verdict::Win, "{name}");
            builder.add_proof(&solved.proof.unwrap()).unwrap();
            if name == "vct.txt" {
                board.play(solved.best_move.unwrap()).unwrap();
                let lost = solve(&board, &SolveOptions::default(), &mut |_| {});
                assert_eq!(lost.verdict, Verdict::Loss);
                builder.add_proof(&lost.proof.unwrap()).unwrap();
            }
        }
        builder.finish()
    })
}

/// The exported library's comments agree with the database: a position commented `X wins by
/// M` is a win for the side to move with M marked below it, one commented `X to move loses` a
/// loss; every root is there; every line replays and ends in a five, a lost position, or a
/// transposition.
#[test]
fn exported_library_agrees_with_the_database() {
    let db = example_database();
    let lib = export_lib(db).unwrap();
    let index = Index::build(db);
    let depths = db.depths();
    let board_of = |id: usize| line_board(&lib.path(id), db.size, db.rules).unwrap();
    let (mut wins, mut losses, mut certificates) = (0, 0, 0);
    for id in 1..lib.len() {
        let node = lib.node(id);
        let Some(comment) = node.comment() else {
            continue;
        };
        let board = board_of(id);
        let to_move = board.to_move();
        let answer = query(db, &index, &depths, &board);
        if let Some((_, m)) = comment.split_once(&format!("{to_move} wins by ")) {
            let m = m.split(';').next().unwrap();
            assert_eq!(answer.result, "win", "{comment} at {:?}", lib.path(id));
            if m != "VCF" {
                let played = lib
                    .child(id, Some(p(m)))
                    .unwrap_or_else(|| panic!("{m} not below {:?}", lib.path(id)));
                assert!(lib.node(played).mark);
            }
            wins += 1;
        }
        if comment.contains(&format!("{to_move} to move loses")) {
            assert_eq!(answer.result, "loss", "{comment} at {:?}", lib.path(id));
            losses += 1;
            // A VCF certificate in words: the attacker's moves, on empty points.
            if let Some(vcf) = node
                .multi_line_comment()
                .and_then(|d| d.strip_prefix("any other reply loses to VCF "))
            {
                assert!(!vcf.is_empty());
                for m in vcf.split(' ') {
                    assert!(board.is_empty(p(m)), "{m} in {vcf:?} is taken");
                }
                certificates += 1;
            }
        }
    }
    assert!(
        wins >= 2 && losses >= 1 && certificates >= 1,
        "{wins} wins, {losses} losses, {certificates} VCF certificates"
    );
    // The third root is the first after its winning move: already written out there.
    let transposition = (1..lib.len())
        .find(|&id| {
            lib.node(id)
                .comment()
                .is_some_and(|c| c.contains("transposition"))
        })
        .expect("a transposition");
    let detail = lib
        .node(transposition)
        .multi_line_comment()
        .unwrap()
        .to_string();
    let there = (1..lib.len())
        .find(|&id| {
            let path = lib.path(id);
            let text: Vec<String> = path.iter().map(|m| m.unwrap().to_string()).collect();
            detail.contains(&format!("`{}`", text.join(" ")))
        })
        .unwrap_or_else(|| panic!("no node at the line named in {detail:?}"));
    assert_ne!(there, transposition);
    assert_eq!(
        line_board(&lib.path(there), db.size, db.rules).unwrap(),
        line_board(&lib.path(transposition), db.size, db.rules).unwrap(),
    );
    assert!(lib.node(there).mark, "the winning move f10 leads there");
    for (i, root) in db.roots.iter().enumerate() {
        let tag = format!("root {}", i + 1);
        let at = (1..lib.len())
            .find(|&id| {
                lib.node(id)
                    .comment()
                    .is_some_and(|c| c.split("; ").any(|part| part == tag))
            })
            .unwrap_or_else(|| panic!("{tag} missing"));
        let board = board_of(at);
        assert_eq!(board.to_move(), root.to_move);
        let (black, white) = renju::db::submitted_stones(db, root);
        let stones = |c| {
            let mut v: Vec<Point> = board
                .stones()
                .filter(|&(_, s)| s == c)
                .map(|(q, _)| q)
                .collect();
            v.sort();
            v
        };
        assert_eq!(stones(renju::rules::Color::Black), black);
        assert_eq!(stones(renju::rules::Color::White), white);
    }
    let mut leaves = 0;
    lib.for_each_line(&mut |moves| {
        let board = line_board(moves, db.size, db.rules).unwrap();
        let mut at = Library::ROOT;
        for &m in moves {
            at = lib.child(at, m).unwrap();
        }
        let comment = lib.node(at).comment().unwrap_or_default();
        assert!(
            !board.fives().is_empty()
                || comment.contains("loses")
                || comment.contains("transposition")
                || comment.contains("cannot stop the four at"),
            "the line {moves:?} ends in neither a five nor a lost position: {comment:?}"
        );
        leaves += 1;
    });
    assert!(leaves > 2);
    // The export survives a write and a read.
    let bytes = write(&lib, Encoding::Auto).unwrap();
    assert_eq!(dump(&read(&bytes, Encoding::Auto).unwrap()), dump(&lib));
}

#[test]
fn cli_exports_a_library() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("book.db");
    let db = db.to_str().unwrap();
    let vct = format!("{}/data/examples/vct.txt", env!("CARGO_MANIFEST_DIR"));
    let out = run(&["solve", &vct, "--threads", "1", "--db", db, "--quiet"]);
    assert!(out.status.success(), "{out:?}");
    let lib_path = dir.path().join("book.lib");
    let out = run(&[
        "db",
        "export",
        db,
        "--format",
        "lib",
        "--out",
        lib_path.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bytes = std::fs::read(&lib_path).unwrap();
    assert_eq!(json["bytes"].as_u64(), Some(bytes.len() as u64));
    let lib = read(&bytes, Encoding::Auto).unwrap();
    assert!(lib.nodes().iter().any(|n| n.mark));
    assert!(lib.len() > 10);

    // Binary output needs --out: exit 2 and one line.
    let out = run(&["db", "export", db, "--format", "lib"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("--out"), "{err}");

    // A database of another board size cannot be a RenLib library: exit 2.
    let small = dir.path().join("small.db");
    let mut args: Vec<&str> = solve_empty_k3_args("4x3").to_vec();
    args.extend(["--full-width", "--db", small.to_str().unwrap(), "--quiet"]);
    let out = run(&args);
    assert!(out.status.success(), "{out:?}");
    let out = run(&[
        "db",
        "export",
        small.to_str().unwrap(),
        "--format",
        "lib",
        "--out",
        dir.path().join("small.lib").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("15x15"), "{err}");
    assert!(!dir.path().join("small.lib").exists());
}

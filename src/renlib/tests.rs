//! Tests of reading and writing libraries, on hand-made bytes.

use super::*;
use crate::rules::{Color, Point, Rules, Size};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn header(major: u8, minor: u8) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&[major, minor]);
    h.extend_from_slice(&[0xFF; 10]);
    h
}

/// A 3.4 library: root, h8 with the replies h9 (then i9) and i9, comments on h9.
fn small() -> Vec<u8> {
    let mut b = header(3, 4);
    b.extend_from_slice(&[0x00, 0x00]); // root
    b.extend_from_slice(&[0x78, 0x00]); // h8
    b.extend_from_slice(&[0x68, 0x80 | 0x08]); // h9, a sibling follows, comment
    b.extend_from_slice(b"hi\x08more\0");
    b.extend_from_slice(&[0x69, 0x40 | 0x10]); // i9 after h9, marked, line ends
    b.extend_from_slice(&[0x69, 0x40]); // i9 after h8, line ends
    b
}

/// [`small`] with a sibling after the second i9: j9, then j10 after it.
fn wider() -> Vec<u8> {
    let mut b = small();
    let last = b.len() - 1;
    b[last] = 0x80; // the second i9 now announces a sibling and has a child
    b.extend_from_slice(&[0x5A, 0x40]); // j10 after i9
    b.extend_from_slice(&[0x6A, 0x40]); // j9 after h8
    b
}

#[test]
fn coordinates() {
    assert_eq!(point_of(0x78), Ok(Some(p("h8"))));
    assert_eq!(point_of(0x68), Ok(Some(p("h9"))));
    assert_eq!(point_of(0x69), Ok(Some(p("i9"))));
    assert_eq!(point_of(0x01), Ok(Some(p("a15"))));
    assert_eq!(point_of(0xEF), Ok(Some(p("o1"))));
    assert_eq!(point_of(0), Ok(None));
    for bad in [0x10, 0xF1, 0xFF, 0x70] {
        assert_eq!(point_of(bad), Err(Damage::OffBoard { pos: bad }));
    }
    for pos in 1..=255u8 {
        if let Ok(Some(q)) = point_of(pos) {
            assert_eq!(pos_of(q), Some(pos));
        }
    }
    assert_eq!(pos_of(p("p1")), None);
}

/// The first child of node `id`.
fn first_child(lib: &Library, id: usize) -> usize {
    lib.children(id).next().expect("a child")
}

#[test]
fn reads_siblings_comments_and_marks() {
    let lib = read(&small(), Encoding::Auto).unwrap();
    assert_eq!(lib.version, Some(VERSION));
    assert_eq!(lib.encoding, Encoding::Utf8);
    assert_eq!(
        lib.stone_lines(),
        vec![vec![p("h8"), p("h9"), p("i9")], vec![p("h8"), p("i9")]]
    );
    let h9 = first_child(&lib, 1);
    assert_eq!(lib.node(h9).comment(), Some("hi"));
    assert_eq!(lib.node(h9).multi_line_comment(), Some("more"));
    let i9 = first_child(&lib, h9);
    assert!(lib.node(i9).mark);
    assert_eq!(
        lib.path(i9),
        vec![Some(p("h8")), Some(p("h9")), Some(p("i9"))]
    );
}

#[test]
fn writes_what_it_reads() {
    let lib = read(&small(), Encoding::Auto).unwrap();
    assert_eq!(write(&lib, Encoding::Auto).unwrap(), small());
}

#[test]
fn headerless_and_old_headers() {
    // An old file: no header, h8 first, then h9.
    let old = [0x78, 0x00, 0x68, 0x40];
    let lib = read(&old, Encoding::Auto).unwrap();
    assert_eq!(lib.version, None);
    assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("h9")]]);
    // Version 3.0 as RenLib writes it: no root record.
    let mut v30 = header(3, 0);
    v30.extend_from_slice(&old);
    let lib = read(&v30, Encoding::Auto).unwrap();
    assert_eq!(lib.version, Some(Version { major: 3, minor: 0 }));
    assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("h9")]]);
    // A header and nothing else is an empty library.
    assert!(read(&header(3, 4), Encoding::Auto).unwrap().is_empty());
}

#[test]
fn board_text_and_labels() {
    let mut b = header(3, 4);
    b.extend_from_slice(&[0x00, 0x00]);
    b.extend_from_slice(&[0x78, 0x00]); // h8
    // j10, no move: a label "a" (extension, board text), a sibling follows.
    b.extend_from_slice(&[0x5A, 0x80 | 0x40 | 0x02 | 0x01, 0x00, 0x01]);
    b.extend_from_slice(b"a\0");
    // h9 with a comment and a board text.
    b.extend_from_slice(&[0x68, 0x40 | 0x08 | 0x01, 0x00, 0x01]);
    b.extend_from_slice(b"c\0B\0");
    let lib = read(&b, Encoding::Auto).unwrap();
    let children: Vec<usize> = lib.children(1).collect();
    let label = lib.node(children[0]);
    assert!(!label.is_move);
    assert_eq!(label.point, Some(p("j10")));
    assert_eq!(label.board_text(), Some("a"));
    let h9 = lib.node(children[1]);
    assert_eq!(h9.comment(), Some("c"));
    assert_eq!(h9.board_text(), Some("B"));
    // The label is no move: the only line is h8 h9.
    assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("h9")]]);
    assert_eq!(write(&lib, Encoding::Auto).unwrap(), b);
}

#[test]
fn old_style_comments() {
    let mut b = header(3, 0);
    // h8 with an old comment "Br{k" then 'a'|0x80: "Bräka", read in pairs.
    b.extend_from_slice(&[0x78, 0x40 | 0x20]);
    b.extend_from_slice(&[b'B', b'r', b'{', b'k', b'a' | 0x80, 0x00]);
    let lib = read(&b, Encoding::Auto).unwrap();
    assert_eq!(lib.node(1).comment(), Some("Bräka"));
    // An old comment with a multi-line part.
    let mut b = header(3, 0);
    b.extend_from_slice(&[0x78, 0x40 | 0x20]);
    b.extend_from_slice(&[b'x', 8, b'y' | 0x80, 0x55]);
    let lib = read(&b, Encoding::Auto).unwrap();
    assert_eq!(lib.node(1).comment(), Some("x"));
    assert_eq!(lib.node(1).multi_line_comment(), Some("y"));
}

#[test]
fn passes_and_merged_duplicates() {
    let mut b = header(3, 4);
    b.extend_from_slice(&[0x00, 0x00]);
    b.extend_from_slice(&[0x78, 0x80]); // h8, sibling follows
    b.extend_from_slice(&[0x00, 0x40]); // a pass after h8
    b.extend_from_slice(&[0x78, 0x10]); // h8 again: merged, now marked
    b.extend_from_slice(&[0x68, 0x40]); // h9 after it
    let lib = read(&b, Encoding::Auto).unwrap();
    assert_eq!(lib.children(Library::ROOT).count(), 1);
    assert!(lib.node(1).mark);
    assert_eq!(
        lib.lines(),
        vec![
            vec![Some(p("h8")), None],
            vec![Some(p("h8")), Some(p("h9"))]
        ]
    );
    let board = line_board(&lib.lines()[0], Size::default(), Rules::renju()).unwrap();
    assert_eq!(board.to_move(), Color::Black);
    assert_eq!(board.stone(p("h8")), Some(Color::Black));
}

#[test]
fn encodings() {
    let chinese = "黑先胜";
    let japanese = "黒の勝ち、ひらがな";
    // Typical labels of Japanese libraries: kanji only, which GBK reads without error.
    let kanji = "黒必勝";
    let simplified = "必胜";
    for (text, encoding) in [
        (chinese, Encoding::Gbk),
        (japanese, Encoding::ShiftJis),
        (kanji, Encoding::ShiftJis),
        (simplified, Encoding::Gbk),
    ] {
        let mut lib = Library::from_lines(&[vec![p("h8")]]);
        lib.node_mut(1).texts_mut().comment = Some(text.to_string());
        let bytes = write(&lib, encoding).unwrap();
        let auto = read(&bytes, Encoding::Auto).unwrap();
        assert_eq!(auto.encoding, encoding, "{text}");
        assert_eq!(auto.node(1).comment(), Some(text));
    }
    assert_eq!("windows-1251".parse::<Encoding>(), Ok(Encoding::Cp1251));
    for e in Encoding::ALL {
        assert_eq!(e.name().parse::<Encoding>(), Ok(e));
    }
    assert!("ebcdic".parse::<Encoding>().is_err());
}

/// Asserts that reading `bytes` finds `damage` at byte `offset`.
fn assert_damaged(bytes: &[u8], offset: usize, damage: Damage) {
    match read(bytes, Encoding::Auto) {
        Err(RenlibError::Damaged {
            offset: o,
            damage: d,
        }) => assert_eq!((o, &d), (offset, &damage)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn damage_names_the_offset() {
    let good = small();
    // Cut inside the last record.
    assert_damaged(
        &good[..good.len() - 1],
        good.len() - 2,
        Damage::TruncatedRecord,
    );
    // Cut inside the comment (which starts at byte 26).
    assert_damaged(
        &good[..30],
        26,
        Damage::UnterminatedText { what: "comment" },
    );
    // Cut after the second i9, which announced a sibling after a line had ended.
    assert_damaged(
        &wider()[..wider().len() - 4],
        wider().len() - 4,
        Damage::MissingSiblings {
            missing: 1,
            first: wider().len() - 6,
        },
    );
}

#[test]
fn a_file_cut_at_a_record_boundary_is_damaged() {
    // A library whose root has the two replies h9 and i9 after h8, h9 announcing its sibling
    // before any line ended and the second reply j9's line announcing one after it.
    let mut cut = header(3, 4);
    cut.extend_from_slice(&[0x00, 0x00, 0x78, 0x80, 0x68, 0x40, 0x87, 0x00, 0x77, 0x80]);
    cut.extend_from_slice(&[0x67, 0x40]);
    let owed = cut.len() - 4;
    cut.extend_from_slice(&[0x66, 0x40]);
    assert!(read(&cut, Encoding::Auto).is_ok());
    // The sibling announced by the record at `owed` is missing.
    assert_damaged(
        &cut[..cut.len() - 2],
        cut.len() - 2,
        Damage::MissingSiblings {
            missing: 1,
            first: owed,
        },
    );
    // The last line has no end.
    let unfinished = cut.len() - 2;
    assert_damaged(
        &[&cut[..unfinished], &[0x66, 0x00][..]].concat(),
        cut.len(),
        Damage::UnfinishedLine { last: unfinished },
    );
}

#[test]
fn moves_off_the_board_and_records_after_the_tree_are_damage() {
    let mut off = header(3, 4);
    off.extend_from_slice(&[0x00, 0x00, 0xF8, 0x40]);
    assert!(matches!(
        read(&off, Encoding::Auto),
        Err(RenlibError::Damaged {
            offset: 22,
            damage: Damage::OffBoard { pos: 0xF8 }
        })
    ));
    let mut after = small();
    after.extend_from_slice(&[0x77, 0x40]);
    assert!(matches!(
        read(&after, Encoding::Auto),
        Err(RenlibError::Damaged {
            damage: Damage::AfterEnd { .. },
            ..
        })
    ));
}

#[test]
fn unreadable_headers_are_errors() {
    assert!(matches!(
        read(&header(3, 5), Encoding::Auto),
        Err(RenlibError::Version {
            found: Version { major: 3, minor: 5 }
        })
    ));
    assert!(matches!(
        read(&header(3, 4)[..12], Encoding::Auto),
        Err(RenlibError::TruncatedHeader { len: 12 })
    ));
    assert!(matches!(
        read(b"PK\x03\x04", Encoding::Auto),
        Err(RenlibError::NotALibrary)
    ));
    assert!(matches!(
        read(b"", Encoding::Auto),
        Err(RenlibError::NotALibrary)
    ));
}

/// RenLib reads in pairs and ignores an odd byte at the end; so does this reader, once
/// the tree has ended.
#[test]
fn an_odd_last_byte_is_ignored() {
    let mut b = small();
    b.push(0x0A);
    assert_eq!(
        read(&b, Encoding::Auto).unwrap(),
        read(&small(), Encoding::Auto).unwrap()
    );
    let mut headerless = vec![0x78, 0x08];
    headerless.extend_from_slice(b"h8\0\0");
    headerless.extend_from_slice(&[0x87, 0x48]);
    headerless.extend_from_slice(b"g7!\0\x0A");
    let lib = read(&headerless, Encoding::Auto).unwrap();
    assert_eq!(lib.lines(), vec![vec![Some(p("h8")), Some(p("g7"))]]);
    assert_eq!(lib.node(2).comment(), Some("g7!"));
}

#[test]
fn branch_files_keep_their_leading_siblings() {
    // RenLib's "save branch" of h8 i9: h8's sibling flag is written, its sibling is not.
    let mut b = header(3, 4);
    b.extend_from_slice(&[0x00, 0x00, 0x78, 0x80, 0x69, 0x00, 0x5A, 0x40]);
    let lib = read(&b, Encoding::Auto).unwrap();
    assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("i9"), p("j10")]]);
}

#[test]
fn write_rejects_points_off_the_board() {
    let lib = Library::from_lines(&[vec![Point::new(15, 0)]]);
    assert!(matches!(
        write(&lib, Encoding::Auto),
        Err(RenlibError::OffBoard { .. })
    ));
}

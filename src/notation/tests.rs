//! Unit tests of the notation: move lists and their errors, and diagrams read with and without
//! labels, `renju show` output read back, and diagram errors.

use super::*;

fn opts() -> PositionOptions {
    PositionOptions::default()
}

fn moves(b: &Board) -> String {
    format_moves(b)
}

/// Regression: `show --to-move white` printed `to move: white`, and
/// reading its output back gave Black to move.
#[test]
fn a_written_side_to_move_reads_back() {
    let board = parse_position("h8 h9", &opts()).unwrap();
    let shown = format!(
        "{}\nto move:   white\n",
        format_diagram(&board, &DiagramStyle::default())
    );
    assert_eq!(
        parse_diagram(&shown, &opts()).unwrap().to_move(),
        Color::White
    );
    let given = PositionOptions {
        to_move: Some(Color::Black),
        ..opts()
    };
    assert_eq!(
        parse_diagram(&shown, &given).unwrap().to_move(),
        Color::Black
    );
    let plain = format_diagram(&board, &DiagramStyle::default());
    assert_eq!(
        parse_diagram(&plain, &opts()).unwrap().to_move(),
        Color::Black
    );
}

#[test]
fn move_list_forms() {
    for text in ["h8 h9 i9", "h8h9i9", "H8,H9,I9", " h8, h9 ;i9\n"] {
        let b = parse_position(text, &opts()).unwrap();
        assert_eq!(moves(&b), "h8 h9 i9", "{text}");
        assert_eq!(b.to_move(), Color::White);
    }
    let b = parse_position("h8h10h11", &opts()).unwrap();
    assert_eq!(moves(&b), "h8 h10 h11");
    assert_eq!(parse_position("", &opts()).unwrap().to_move(), Color::Black);
}

#[test]
fn move_list_errors_name_the_token() {
    let err = |t: &str| parse_position(t, &opts()).unwrap_err();
    assert_eq!(
        err("h8 p1"),
        PositionError::OffBoard {
            token: "p1".into(),
            size: Size::STANDARD
        }
    );
    assert_eq!(
        err("h8 h16").to_string(),
        "move `h16` is off the 15x15 board"
    );
    assert_eq!(
        err("h8 h9 h8"),
        PositionError::Repeated {
            token: "h8".into(),
            number: 3,
            first: 1
        }
    );
    assert_eq!(
        err("h8 9h"),
        PositionError::Malformed { token: "9h".into() }
    );
    assert_eq!(err("h8 h"), PositionError::Malformed { token: "h".into() });
    assert_eq!(
        err("h8 é5"),
        PositionError::Malformed {
            token: "é5".into()
        }
    );
    assert_eq!(
        err("h8 h0"),
        PositionError::Malformed { token: "h0".into() }
    );
    assert!(matches!(
        err("h8 h99999999999999"),
        PositionError::OffBoard { .. }
    ));
    let after = err("a1 b1 a2 b2 a3 b3 a4 b4 a5 b5");
    assert_eq!(
        after.to_string(),
        "move 10 `b5` comes after black won with move 9: the game is over"
    );
    assert_eq!(
        after,
        PositionError::AfterFive {
            token: "b5".into(),
            number: 10,
            winner: Color::Black,
            five_at: 9
        }
    );
}

#[test]
fn diagrams_read_with_and_without_labels() {
    let size = Size::new(5, 4).unwrap();
    let o = PositionOptions { size, ..opts() };
    let plain = ".....\n..X..\n..O+.\nX....\n";
    let labelled = " 4 . . . . .\n 3 . . X . .\n 2 . . O + .\n 1 X . . . .\n   A B C D E\n";
    let a = parse_position(plain, &o).unwrap();
    let b = parse_position(labelled, &o).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.stone("c3".parse().unwrap()), Some(Color::Black));
    assert_eq!(a.stone("c2".parse().unwrap()), Some(Color::White));
    assert_eq!(a.to_move(), Color::White);
    let text = format_diagram(&a, &DiagramStyle::default());
    assert_eq!(parse_diagram(&text, &o).unwrap(), a);
}

#[test]
fn show_output_reads_back_with_marks_and_annotations() {
    let size = Size::new(5, 4).unwrap();
    let o = PositionOptions { size, ..opts() };
    // Marks at a row's ends look like rank labels; a label that does not match is a mark.
    let shown = "\u{feff} 4 3 . . . 6\r\n 3 . . X . .\r 2 0 . O + 4\n 1 X . . . 3\n   A B C D E\nrule:      renju on 5x4\nto move:   white\n";
    let b = parse_position(shown, &o).unwrap();
    assert_eq!(b.stone("a2".parse().unwrap()), Some(Color::White));
    assert_eq!(b.stone("e4".parse().unwrap()), None);
    assert_eq!(b.stone_count(Color::Black), 2);
    assert_eq!(b.stone_count(Color::White), 2);
    assert_eq!(b.to_move(), Color::White, "the `to move:` line");
    // Unspaced rows whose first point is a mark or a White 0.
    let unspaced = "3....\n..X..\n0.O..\nX....\n";
    let white = PositionOptions {
        to_move: Some(Color::White),
        ..o
    };
    assert_eq!(parse_position(unspaced, &white).unwrap(), b);
}

#[test]
fn diagram_errors() {
    let o = PositionOptions {
        size: Size::new(3, 3).unwrap(),
        ..opts()
    };
    let err = |t: &str| parse_position(t, &o).unwrap_err();
    assert!(matches!(
        err("...\n..\n...\n"),
        PositionError::RowLength {
            row: 2,
            found: 2,
            ..
        }
    ));
    assert!(matches!(
        err("...\n...\n"),
        PositionError::RowCount {
            found: 2,
            expected: 3,
            ..
        }
    ));
    assert!(matches!(
        err("...\n...\n...\n...\n"),
        PositionError::RowCount { found: 4, .. }
    ));
    assert!(matches!(
        err("...\n.Z.\n...\n"),
        PositionError::BadDiagramChar { row: 2, ch: 'Z' }
    ));
    assert!(matches!(
        err("XX.\n...\n...\n"),
        PositionError::UnreachableCounts { black: 2, white: 0 }
    ));
    assert!(matches!(
        err("3 ...\n1 ...\n1 ...\n"),
        PositionError::WrongRankLabel { row: 2, .. }
    ));
    let o2 = PositionOptions {
        to_move: Some(Color::Black),
        ..o
    };
    assert_eq!(
        parse_position("XX.\n...\n...\n", &o2).unwrap().to_move(),
        Color::Black
    );
}

//! Unit tests of the checker's own rules: hand-worked diagrams for every verdict, and the
//! record of what a test reads.

use super::*;
use Verdict::*;

/// (x, y) of a point written like `H8`.
fn pt(name: &str) -> (usize, usize) {
    let bytes = name.as_bytes();
    let x = (bytes[0].to_ascii_lowercase() - b'a') as usize;
    let rank: usize = name[1..].parse().unwrap();
    (x, rank - 1)
}

fn verdict_at(board: &Grid, name: &str) -> Verdict {
    let (x, y) = pt(name);
    black_verdict(board, x, y)
}

/// `board` with a black stone added at the empty point `name`.
fn placed(board: &Grid, name: &str) -> Grid {
    let (x, y) = pt(name);
    board.with_black((x as isize, y as isize))
}

/// `board` with the stone at `name` removed.
fn without(board: &Grid, name: &str) -> Grid {
    let (x, y) = pt(name);
    let mut b = board.clone();
    assert_ne!(b.cells[y * b.width + x], EMPTY, "{name} is already empty");
    b.cells[y * b.width + x] = EMPTY;
    b
}

#[test]
fn from_rows_puts_the_first_row_on_top() {
    let b = from_rows(&["X..", "..O"]);
    assert_eq!((b.width, b.height), (3, 2));
    assert_eq!(b.cells, vec![0, 0, 2, 1, 0, 0]);
    assert_eq!(pt("H8"), (7, 7));
    assert_eq!(pt("o15"), (14, 14));
}

#[test]
#[should_panic]
fn verdict_on_an_occupied_point_panics() {
    let b = from_rows(&["...", ".X.", "..."]);
    black_verdict(&b, 1, 1);
}

/// H8 joins the vertical H9 H10 and the horizontal I8 J8: two open threes. No other point of
/// this board lies on two lines holding two black stones each, so H8 is the only forbidden point.
#[test]
fn open_double_three_is_forbidden() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        ".......X.......", // 10
        ".......X.......", // 9
        "........XX.....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), DoubleThree);
    assert_eq!(all_forbidden(&b), vec![(pt("H8"), DoubleThree)]);
    // One three alone is legal.
    assert_eq!(verdict_at(&without(&without(&b, "I8"), "J8"), "H8"), Legal);
}

/// A split three `X.XX` (H8 _ J8 K8, completed at I8) counts like a solid one.
#[test]
fn split_three_counts_as_a_three() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        ".......X.......", // 10
        ".......X.......", // 9
        ".........XX....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), DoubleThree);
}

/// White at H11 caps the vertical H8 H9 H10: H7 gives H7-H10 whose upper five point is white,
/// and nothing else makes a straight four, so only the horizontal three is real.
#[test]
fn three_blocked_by_white_is_not_real() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        ".......O.......", // 11
        ".......X.......", // 10
        ".......X.......", // 9
        "........XX.....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), Legal);
}

/// White one point further, at H12: H7 still makes the straight four H7-H10 (five points H6
/// and H11, and H7-H11 is exactly five next to the white stone), so the three is real.
#[test]
fn three_with_white_two_points_away_is_real() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        ".......O.......", // 12
        "...............", // 11
        ".......X.......", // 10
        ".......X.......", // 9
        "........XX.....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), DoubleThree);
}

/// In the corner, A1 A2 A3 and A1 B1 C1 can never become straight fours (the edge takes the
/// place of one five point), so A1 is legal. N14 is one point in from two edges: N11 makes
/// the straight four N11-N14 (five points N10, N15) and K14 makes K14-N14 (J14, O14).
#[test]
fn board_edge_blocks_like_white() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...........XX..", // 14
        ".............X.", // 13
        ".............X.", // 12
        "...............", // 11
        "...............", // 10
        "...............", // 9
        "...............", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "X..............", // 3
        "X..............", // 2
        ".XX............", // 1
    ]);
    assert_eq!(verdict_at(&b, "A1"), Legal);
    assert_eq!(verdict_at(&b, "N14"), DoubleThree);
}

/// G8 fills D8-I8: six in a row.
#[test]
fn overline_is_forbidden() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        "...............", // 10
        "...............", // 9
        "...XXX.XX......", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "G8"), Overline);
    assert_eq!(all_forbidden(&b), vec![(pt("G8"), Overline)]);
}

/// H8 makes the exact five D8-H8 and, at the same time, seven in a row on the H file.
/// The five wins: it is never forbidden. Without G8 the same move is only an overline.
#[test]
fn exact_five_is_not_forbidden_even_with_an_overline_elsewhere() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        ".......X.......", // 11
        ".......X.......", // 10
        ".......X.......", // 9
        "...XXXX........", // 8
        ".......X.......", // 7
        ".......X.......", // 6
        ".......X.......", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), Five);
    assert_eq!(verdict_at(&without(&b, "G8"), "H8"), Overline);
}

/// Two fours in one line: `X.XXX.X` (five points F8, J8), `XX.XX.XX` (F8, I8) and
/// `XXX.X.XXX` (F8, H8), with the move in the middle.
#[test]
fn double_four_in_one_line_is_forbidden() {
    let x_xxx_x = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        "...............", // 10
        "...............", // 9
        "....X.X.X.X....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&x_xxx_x, "H8"), DoubleFour);

    let xx_xx_xx = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        "...............", // 10
        "...............", // 9
        "...XX.X..XX....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&xx_xx_xx, "H8"), DoubleFour);

    let xxx_x_xxx = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        "...............", // 10
        "...............", // 9
        "..XXX...XXX....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&xxx_x_xxx, "G8"), DoubleFour);
}

/// H8 makes the straight four E8-H8: two five points (D8, I8) but one four, so it is legal.
#[test]
fn straight_four_is_one_four() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        "...............", // 10
        "...............", // 9
        "....XXX........", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), Legal);
}

/// H8 makes the four E8-H8 (white D8, five point I8) and the open three H8 H9 H10: a
/// four-three, which is legal.
#[test]
fn four_three_is_legal() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        ".......X.......", // 10
        ".......X.......", // 9
        "...OXXX........", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), Legal);
}

/// H8 makes the four E8-H8 (five point I8) and the four E11 F10 G9 H8 on the anti-diagonal
/// (five point I7): a double-four across two lines.
#[test]
fn double_four_across_two_lines_is_forbidden() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...O...........", // 12
        "....X..........", // 11
        ".....X.........", // 10
        "......X........", // 9
        "...OXXX........", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), DoubleFour);
}

/// H8 makes one four (E8-H8, five point I8) and two open threes (H8 H9 H10 and H8 I9 J10):
/// two threes are forbidden even when the move also makes a four.
#[test]
fn four_three_three_is_forbidden() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        ".......X.X.....", // 10
        ".......XX......", // 9
        "...OXXX........", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&b, "H8"), DoubleThree);
}

/// Recursive case. With white at F8, the only point that turns H8 I8 J8 into a straight four
/// is K8 (G8 gives G8-J8, whose lower five point F8 is white). With H8 placed, K8 would make
/// the straight four H8-K8 plus the threes K6 K7 K8 and K8 L9 M10: a 4-3-3, forbidden. So
/// the horizontal line is not a real three and H8 (with the real three H8 H9 H10) is legal.
/// Without M10, K8 is only a four-three, legal, and H8 becomes a double-three.
#[test]
fn three_whose_only_completion_is_forbidden_is_not_real() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        ".......X....X..", // 10
        ".......X...X...", // 9
        ".....O..XX.....", // 8
        "..........X....", // 7
        "..........X....", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    let with_h8 = placed(&b, "H8");
    assert_eq!(verdict_at(&with_h8, "K8"), DoubleThree);
    assert_eq!(verdict_at(&b, "H8"), Legal);

    let without_m10 = without(&b, "M10");
    assert_eq!(verdict_at(&placed(&without_m10, "H8"), "K8"), Legal);
    assert_eq!(verdict_at(&without_m10, "H8"), DoubleThree);
}

/// The edge case of rules.md: as in the recursive case, K8 is the only point that makes
/// H8 I8 J8 a straight four, but here K8 also makes the five K8-K12. A move that makes a five
/// does not make the three real, so H8 is legal. Likewise when K8 would be an overline (add
/// K7). With K11 and K12 removed, K8 is a plain four-three and H8 is a double-three.
#[test]
fn completion_that_makes_a_five_elsewhere_does_not_make_a_three() {
    let b = from_rows(&[
        //  ABCDEFGHIJKLMNO
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "..........X....", // 12
        "..........X....", // 11
        ".......X..X....", // 10
        ".......X..X....", // 9
        ".....O..XX.....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    assert_eq!(verdict_at(&placed(&b, "H8"), "K8"), Five);
    assert_eq!(verdict_at(&b, "H8"), Legal);

    let with_k7 = placed(&b, "K7");
    assert_eq!(verdict_at(&placed(&with_k7, "H8"), "K8"), Overline);
    assert_eq!(verdict_at(&with_k7, "H8"), Legal);

    let short = without(&without(&b, "K12"), "K11");
    assert_eq!(verdict_at(&placed(&short, "H8"), "K8"), Legal);
    assert_eq!(verdict_at(&short, "H8"), DoubleThree);
}

/// `traced` records the empty points a forbidden-move test read: the point itself, the
/// points that complete its threes (read again at the next level of the test), nothing
/// further than five steps along its lines, and nothing when it is not running.
#[test]
fn traced_records_the_empty_points_a_test_reads() {
    let b = from_rows(&[
        "...............", // 15
        "...............", // 14
        "...............", // 13
        "...............", // 12
        "...............", // 11
        ".......X.......", // 10
        ".......X.......", // 9
        "........XX.....", // 8
        "...............", // 7
        "...............", // 6
        "...............", // 5
        "...............", // 4
        "...............", // 3
        "...............", // 2
        "...............", // 1
    ]);
    let index = |name: &str| {
        let (x, y) = pt(name);
        y * b.width + x
    };
    let (verdict, reads) = traced(|| verdict_at(&b, "H8"));
    assert_eq!(verdict, DoubleThree);
    for name in ["H8", "H11", "H7", "K8", "G8"] {
        assert!(reads.contains(&index(name)), "{name} not read");
    }
    // The test looks along the lines through h8 and through the points completing its
    // threes, a few steps each: nothing far from h8 is read.
    let (hx, hy) = pt("H8");
    for &i in &reads {
        let (x, y) = (i % b.width, i / b.width);
        assert!(x.abs_diff(hx).max(y.abs_diff(hy)) <= 8, "({x}, {y}) read");
    }
    for far in ["A1", "O15", "A15", "O1"] {
        assert!(!reads.contains(&index(far)), "{far} read");
    }
    // Outside `traced`, nothing is recorded.
    let _ = verdict_at(&b, "H8");
    let ((), none) = traced(|| ());
    assert!(none.is_empty());
}

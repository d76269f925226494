//! Unit tests of the VCF replay: five points kept up to date against a recount, and lines that
//! win or fail under each rule set, renju's forbidden blocks and caro's blocked ends included.

use super::super::rules::from_rows;
use super::*;
use proptest::prelude::*;

/// (x, y) of a point written like `H8`.
fn pt(name: &str) -> (usize, usize) {
    let bytes = name.as_bytes();
    let x = (bytes[0].to_ascii_lowercase() - b'a') as usize;
    let rank: usize = name[1..].parse().expect("a rank");
    (x, rank - 1)
}

fn pts(names: &str) -> Vec<(usize, usize)> {
    names.split_whitespace().map(pt).collect()
}

/// The five points of `stone` by the definition, on copies of the grid.
fn recount(grid: &Grid, rule: Rule, stone: u8) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for y in 0..grid.height {
        for x in 0..grid.width {
            let i = y * grid.width + x;
            if grid.cells[i] != EMPTY {
                continue;
            }
            let mut g = grid.clone();
            g.cells[i] = stone;
            if wins_at(&g, x, y, stone, rule.win(stone)) {
                found.push((x, y));
            }
        }
    }
    found
}

/// A 9x9 board (files a-i, ranks 1-9) from its rows, top rank first.
fn pos9(rows: [&str; 9], rule: Rule) -> Position {
    Position::new(from_rows(&rows), rule)
}

#[test]
fn win_follows_the_rules_table() {
    assert_eq!(Rule::Renju.win(BLACK), Win::Exactly(5));
    assert_eq!(Rule::Renju.win(WHITE), Win::AtLeast(5));
    assert_eq!(Rule::Gomoku { k: 4 }.win(WHITE), Win::Exactly(4));
    assert_eq!(Rule::Freestyle { k: 6 }.win(BLACK), Win::AtLeast(6));
    assert_eq!(Rule::Caro.win(BLACK), Win::Caro);
    assert_eq!(Rule::Caro.k(), 5);
}

/// Freestyle: Black's diagonal c3-f6 has the five points b2 and g7, White's a1-d1 has e1;
/// playing stones updates them.
#[test]
fn five_points_legal_moves_and_play() {
    let mut p = pos9(
        [
            ".........", // 9
            ".........", // 8
            ".........", // 7
            ".....X...", // 6
            "....X....", // 5
            "...X.....", // 4
            "..X......", // 3
            ".........", // 2
            "OOOO.....", // 1
        ],
        Rule::Freestyle { k: 5 },
    );
    assert_eq!(p.five_points(BLACK), pts("b2 g7"));
    assert_eq!(p.five_points(WHITE), pts("e1"));
    assert!(p.has_five_point(WHITE));
    assert!(p.makes_win(1, 1, BLACK) && !p.makes_win(1, 1, WHITE));
    assert!(!p.makes_win(0, 0, WHITE), "a taken point");
    assert!(!p.makes_win(9, 0, WHITE), "off the board");
    assert_eq!(p.legal_moves(BLACK).len(), 81 - 8);
    assert!(!p.legal(2, 2, WHITE) && !p.legal(9, 9, WHITE));
    p.play(4, 0, BLACK);
    assert!(!p.has_five_point(WHITE));
    p.play(1, 1, WHITE);
    assert_eq!(p.five_points(BLACK), pts("g7"));
    assert!(!p.has_won(BLACK) && !p.has_won(WHITE));
    p.play(6, 6, BLACK);
    assert!(p.has_won(BLACK));
}

#[test]
#[should_panic(expected = "taken")]
fn play_on_a_taken_point_panics() {
    let mut p = pos9(["........."; 9], Rule::Renju);
    p.play(3, 3, BLACK);
    p.play(3, 3, WHITE);
}

/// Freestyle: Black's f6 makes the four c3-f6 (five point b2; g7 is White's), White
/// blocks on b2, and e7 makes the open four b7-e7. Broken versions of the line fail.
#[test]
fn freestyle_simple_vcf_passes_and_broken_lines_fail() {
    let p = pos9(
        [
            ".........", // 9
            ".........", // 8
            ".XXX..O..", // 7
            ".........", // 6
            "....X....", // 5
            "...X.....", // 4
            "..X......", // 3
            ".........", // 2
            ".........", // 1
        ],
        Rule::Freestyle { k: 5 },
    );
    assert_eq!(vcf_wins(&p, BLACK, &pts("f6 e7")), Ok(2));
    assert_eq!(
        vcf_wins(&p, BLACK, &pts("e7")),
        Ok(1),
        "b7-e7 is open at once"
    );
    assert_eq!(
        vcf_wins(&p, BLACK, &pts("f6 e7 f7")),
        Ok(2),
        "moves after the win are not read"
    );
    let e = vcf_wins(&p, BLACK, &pts("f6")).unwrap_err();
    assert!(e.contains("run out after move 1"), "{e}");
    let e = vcf_wins(&p, BLACK, &pts("i1 e7")).unwrap_err();
    assert!(e.contains("move 1 (8, 0) is not a four"), "{e}");
    let e = vcf_wins(&p, BLACK, &pts("f6 b2")).unwrap_err();
    assert!(e.contains("move 2 (1, 1)") && e.contains("taken"), "{e}");
    assert!(vcf_wins(&p, BLACK, &[]).is_err());
    assert!(vcf_wins(&p, EMPTY, &pts("f6")).is_err());
    assert!(
        vcf_wins(&p, BLACK, &[(9, 2)]).is_err(),
        "off the board: an error"
    );
    // With b2 White's, f6 leaves c3-f6 with no five point.
    let mut q = p.clone();
    q.play(1, 1, WHITE);
    let e = vcf_wins(&q, BLACK, &pts("f6")).unwrap_err();
    assert!(e.contains("not a four"), "{e}");
    // A finished game has no line.
    let mut done = p.clone();
    done.play(1, 1, BLACK);
    done.play(5, 5, BLACK);
    assert!(done.has_won(BLACK));
    let e = vcf_wins(&done, WHITE, &pts("a1")).unwrap_err();
    assert!(e.contains("already over"), "{e}");
}

/// Gomoku (exactly five): Black's e5 makes b5-e5 (a5 is White's: one five point, f5).
/// White's forced f5 makes the four f2-f5 (five point f6; f1 is Black's), so Black must
/// answer on f6, which here is an open four e5-h8. With f1 empty White's block makes two
/// five points and the line is lost.
#[test]
fn gomoku_counter_four_must_be_blocked() {
    let rows = [
        ".........", // 9
        ".......X.", // 8
        "......X..", // 7
        ".........", // 6
        "OXXX.....", // 5
        ".....O...", // 4
        ".....O...", // 3
        ".....O...", // 2
        ".....X...", // 1
    ];
    let p = pos9(rows, Rule::Gomoku { k: 5 });
    assert_eq!(vcf_wins(&p, BLACK, &pts("e5 f6")), Ok(2));
    let e = vcf_wins(&p, BLACK, &pts("e5 d4")).unwrap_err();
    assert!(
        e.contains("move 2 (3, 3) leaves the defender the five point(s) [(5, 5)]"),
        "{e}"
    );

    let mut open = p.grid().clone();
    open.cells[5] = EMPTY; // f1
    let q = Position::new(open, Rule::Gomoku { k: 5 });
    let e = vcf_wins(&q, BLACK, &pts("e5 f6")).unwrap_err();
    assert!(
        e.contains("leaves the defender the five point(s) [(5, 0)]"),
        "{e}"
    );
}

/// Renju: e5 is a double-three for Black, and it is the only point that stops White's
/// b2-d4 with f6 (or a1): White's four wins at once. With e7 gone, e5 is an ordinary
/// point, Black blocks there, and the one-move line runs out.
#[test]
fn renju_white_four_blocked_only_by_a_forbidden_point_wins() {
    let p = pos9(
        [
            ".........", // 9
            ".........", // 8
            "....X....", // 7
            "....X....", // 6
            "...X.X...", // 5
            "...O.....", // 4
            "..O......", // 3
            ".O.......", // 2
            ".........", // 1
        ],
        Rule::Renju,
    );
    assert!(p.is_forbidden_for_black(4, 4), "e5 is a double-three");
    assert!(!p.legal(4, 4, BLACK) && p.legal(4, 4, WHITE));
    assert!(!p.legal_moves(BLACK).contains(&(4, 4)));
    assert!(p.legal_moves(WHITE).contains(&(4, 4)));
    assert_eq!(vcf_wins(&p, WHITE, &pts("f6")), Ok(1));
    assert_eq!(vcf_wins(&p, WHITE, &pts("a1")), Ok(1));

    let mut grid = p.grid().clone();
    grid.cells[6 * 9 + 4] = EMPTY; // e7
    let q = Position::new(grid, Rule::Renju);
    assert!(!q.is_forbidden_for_black(4, 4));
    let e = vcf_wins(&q, WHITE, &pts("f6")).unwrap_err();
    assert!(e.contains("run out"), "{e}");
    // Freestyle has no forbidden points either.
    let f = Position::new(p.grid().clone(), Rule::Freestyle { k: 5 });
    assert!(!f.is_forbidden_for_black(4, 4));
    assert!(vcf_wins(&f, WHITE, &pts("f6")).is_err());
}

/// Renju: d4 would give Black six (no five, and forbidden: an overline), so it is neither
/// a win nor a legal move; d2 gives White six, which wins.
#[test]
fn renju_black_overline_is_not_a_win() {
    let rows = [
        ".........", // 9
        ".........", // 8
        ".........", // 7
        ".........", // 6
        ".........", // 5
        "XXX.XX...", // 4
        ".........", // 3
        "OOO.OO...", // 2
        ".........", // 1
    ];
    let p = pos9(rows, Rule::Renju);
    assert!(!p.makes_win(3, 3, BLACK), "six is no five for Black");
    assert!(p.is_forbidden_for_black(3, 3), "an overline");
    let e = vcf_wins(&p, BLACK, &pts("d4")).unwrap_err();
    assert!(e.contains("forbidden"), "{e}");
    assert!(p.makes_win(3, 1, WHITE), "White's six wins");
    assert_eq!(vcf_wins(&p, WHITE, &pts("d2")), Ok(1));
    // Gomoku (exactly five) refuses both sixes; freestyle takes both.
    let g = pos9(rows, Rule::Gomoku { k: 5 });
    assert!(!g.makes_win(3, 3, BLACK) && !g.makes_win(3, 1, WHITE));
    assert!(!g.is_forbidden_for_black(3, 3));
    let f = pos9(rows, Rule::Freestyle { k: 5 });
    assert!(f.makes_win(3, 3, BLACK) && f.makes_win(3, 1, WHITE));
}

/// Renju: d5 makes seven on the d-file (an overline, forbidden) and, once e5 is Black's,
/// the exact five a5-e5 as well, which is never forbidden and wins.
#[test]
fn renju_black_five_with_an_overline_elsewhere_wins() {
    let p = pos9(
        [
            "...X.....", // 9
            "...X.....", // 8
            "...X.....", // 7
            "...X.....", // 6
            "XXX......", // 5
            "...X.....", // 4
            "...X.....", // 3
            ".........", // 2
            ".........", // 1
        ],
        Rule::Renju,
    );
    assert!(p.is_forbidden_for_black(3, 4));
    assert!(vcf_wins(&p, BLACK, &pts("d5")).is_err());
    let mut q = p.clone();
    q.play(4, 4, BLACK); // e5
    assert!(q.makes_win(3, 4, BLACK));
    assert!(!q.is_forbidden_for_black(3, 4));
    assert_eq!(vcf_wins(&q, BLACK, &pts("d5")), Ok(1));
}

/// Caro: f5 would give Black b5-f5 with both ends (a5, g5) White's: no win. f3 gives
/// b3-f3 with g3 open: a win. The board edge does not block.
#[test]
fn caro_five_blocked_at_both_ends_is_not_a_win() {
    let p = pos9(
        [
            ".........", // 9
            ".........", // 8
            ".........", // 7
            ".........", // 6
            "OXXXX.O..", // 5
            ".........", // 4
            "OXXXX....", // 3
            ".........", // 2
            ".........", // 1
        ],
        Rule::Caro,
    );
    assert!(!p.makes_win(5, 4, BLACK));
    assert!(p.makes_win(5, 2, BLACK));
    assert_eq!(p.five_points(BLACK), pts("f3"));
    let f = Position::new(p.grid().clone(), Rule::Freestyle { k: 5 });
    assert_eq!(f.five_points(BLACK), pts("f3 f5"));
    let edge = pos9(
        [
            ".........", // 9
            ".........", // 8
            ".........", // 7
            ".........", // 6
            "XXXX.O...", // 5
            ".........", // 4
            ".........", // 3
            ".........", // 2
            ".........", // 1
        ],
        Rule::Caro,
    );
    assert!(edge.makes_win(4, 4, BLACK));
    assert_eq!(vcf_wins(&edge, BLACK, &pts("e5")), Ok(1));
}

/// Caro: Black's e3 makes b3-e3 (a3 is White's), whose five f3 White may stop on f3 or,
/// past its end, on g3. The line must win after both: f7 (the open four c7-f7) does; g3
/// (an open four g3-g6 after White's f3, but taken after White's g3) does not.
#[test]
fn caro_four_stopped_past_its_end_needs_every_reply_answered() {
    let p = pos9(
        [
            ".........", // 9
            ".........", // 8
            "..XXX....", // 7
            "......X..", // 6
            "......X..", // 5
            "......X..", // 4
            "OXXX.....", // 3
            ".........", // 2
            ".........", // 1
        ],
        Rule::Caro,
    );
    let mut after = p.clone();
    after.play(4, 2, BLACK);
    assert_eq!(after.five_points(BLACK), pts("f3"));
    assert_eq!(after.stops(BLACK, None), pts("f3 g3"));
    let freestyle = Position::new(after.grid().clone(), Rule::Freestyle { k: 5 });
    assert_eq!(freestyle.stops(BLACK, None), pts("f3"));

    assert_eq!(vcf_wins(&p, BLACK, &pts("e3 f7")), Ok(2));
    let mut f3 = after.clone();
    f3.play(5, 2, WHITE);
    assert_eq!(vcf_wins(&f3, BLACK, &pts("g3")), Ok(1));
    let e = vcf_wins(&p, BLACK, &pts("e3 g3")).unwrap_err();
    assert!(e.contains("after the reply (6, 2) to move 1"), "{e}");
    assert!(e.contains("taken"), "{e}");
}

/// Caro: an open four can still have a stop. After f8, Black's f5-f8 has the five points
/// f4 (with f3 White's, its far end f9 decides) and f9 (the edge does not block). White's
/// f9 spoils both: f4-f8 would have both ends White's.
#[test]
fn caro_one_stone_can_stop_two_five_points() {
    let p = pos9(
        [
            ".........", // 9
            ".........", // 8
            ".....X...", // 7
            ".....X...", // 6
            ".....X...", // 5
            ".........", // 4
            ".....O...", // 3
            ".........", // 2
            ".........", // 1
        ],
        Rule::Caro,
    );
    let mut q = p.clone();
    q.play(5, 7, BLACK);
    assert_eq!(q.five_points(BLACK), pts("f4 f9"));
    assert_eq!(q.stops(BLACK, None), pts("f9"));
    assert!(vcf_wins(&p, BLACK, &pts("f8")).is_err());
    let f = Position::new(q.grid().clone(), Rule::Freestyle { k: 5 });
    assert!(f.stops(BLACK, None).is_empty());
}

/// Caro: the attacker may spoil the defender's five without taking its point. White's
/// b7-e7 has the five point f7 (a7 Black's, g7 open); Black's g7 makes the open four
/// g4-g7 and holds the far end of White's five, so it wins. Under freestyle it does not.
#[test]
fn caro_attacker_spoils_the_defenders_five_past_its_end() {
    let rows = [
        ".........", // 9
        ".........", // 8
        "XOOOO....", // 7
        "......X..", // 6
        "......X..", // 5
        "......X..", // 4
        ".........", // 3
        ".........", // 2
        ".........", // 1
    ];
    let p = pos9(rows, Rule::Caro);
    assert_eq!(p.five_points(WHITE), pts("f7"));
    assert_eq!(vcf_wins(&p, BLACK, &pts("g7")), Ok(1));
    let f = pos9(rows, Rule::Freestyle { k: 5 });
    let e = vcf_wins(&f, BLACK, &pts("g7")).unwrap_err();
    assert!(
        e.contains("leaves the defender the five point(s) [(5, 6)]"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// After any sequence of stones, the incrementally kept five points equal a recount
    /// from the definition, under every rule set, several win lengths and board shapes.
    #[test]
    fn incremental_five_points_equal_a_recount(
        rule in prop_oneof![
            Just(Rule::Renju),
            Just(Rule::Caro),
            (3usize..=7).prop_map(|k| Rule::Gomoku { k }),
            (3usize..=7).prop_map(|k| Rule::Freestyle { k }),
        ],
        width in 5usize..=13,
        height in 5usize..=13,
        stones in proptest::collection::vec((0usize..13, 0usize..13, any::<bool>()), 0..140),
    ) {
        let grid = Grid { width, height, cells: vec![EMPTY; width * height] };
        let mut pos = Position::new(grid, rule);
        for (x, y, white) in stones {
            let (x, y) = (x % width, y % height);
            if !pos.is_empty(x, y) {
                continue;
            }
            pos.play(x, y, if white { WHITE } else { BLACK });
            for stone in [BLACK, WHITE] {
                prop_assert_eq!(pos.five_points(stone), recount(pos.grid(), rule, stone));
            }
        }
        let fresh = Position::new(pos.grid().clone(), rule);
        for stone in [BLACK, WHITE] {
            prop_assert_eq!(pos.five_points(stone), fresh.five_points(stone));
        }
    }
}

/// The zone of a VCF certificate holds every empty point that the forbidden-move tests of its
/// black moves read, and it is sound: a White stone on any point outside it leaves the line
/// winning. On this board a White stone at f7, far from the line f8 d10 i5, makes a three of
/// Black's real, which turns f8 into a double-three: a zone without the forbidden-move tests'
/// points would miss f7 and let the checker accept the reply f7 without a replay.
#[test]
fn a_certificates_zone_holds_the_points_its_forbidden_tests_read() {
    let rows = [
        "...............",
        "...............",
        "..X.........O..",
        "..O.OXO..OO.X..",
        "....O......O...",
        "..........O....",
        "....X.....O....",
        "..XX...........",
        "...X..XX...O...",
        "...X...X..X....",
        "..XO...O.X.O...",
        "......X...OOX..",
        "..X...O..O.....",
        "...............",
        "...............",
    ];
    let pos = Position::new(from_rows(&rows), Rule::Renju);
    let line = pts("f8 d10 i5");
    assert!(
        vcf_wins(&pos, BLACK, &line).is_ok(),
        "the line wins as it is"
    );
    let (_, zone) = vcf_zone(&pos, BLACK, &line, 1).unwrap();
    let width = pos.grid().width;
    let (fx, fy) = pt("f7");
    assert!(
        zone.contains(fy * width + fx),
        "f7 is read by f8's forbidden test"
    );
    let mut broken = pos.clone();
    broken.play(fx, fy, WHITE);
    assert!(
        vcf_wins(&broken, BLACK, &line).is_err(),
        "White at f7 breaks the line"
    );
    for y in 0..pos.grid().height {
        for x in 0..width {
            if !pos.is_empty(x, y) || zone.contains(y * width + x) {
                continue;
            }
            let mut with = pos.clone();
            with.play(x, y, WHITE);
            assert!(
                vcf_wins(&with, BLACK, &line).is_ok(),
                "White at {x},{y}, outside the zone, breaks the line"
            );
        }
    }
}

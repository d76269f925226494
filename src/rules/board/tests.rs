//! Unit tests of the board: playing and undoing, hashing, legality and the other queries.

use super::*;

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

#[test]
fn play_and_undo() {
    let mut b = Board::new(Size::STANDARD, Rules::renju());
    let empty_hash = b.hash();
    b.play(p("h8")).unwrap();
    assert_eq!(b.to_move(), Color::White);
    assert_eq!(
        b.play(p("h8")),
        Err(PlayError::Occupied {
            point: p("h8"),
            color: Color::Black
        })
    );
    assert!(matches!(b.play(p("p1")), Err(PlayError::OffBoard { .. })));
    b.play(p("h9")).unwrap();
    assert_ne!(b.hash(), empty_hash);
    assert_eq!(b.undo(), Some(p("h9")));
    assert_eq!(b.undo(), Some(p("h8")));
    assert_eq!(b.undo(), None);
    assert_eq!(b.hash(), empty_hash);
    assert_eq!(b, Board::new(Size::STANDARD, Rules::renju()));
}

#[test]
fn fives_by_rule() {
    let mut b = Board::new(Size::STANDARD, Rules::renju());
    for x in 0..6 {
        b.put(Point::new(x, 0), Color::Black).unwrap();
    }
    assert!(b.fives().is_empty(), "a black overline is no five in renju");
    let mut free = Board::new(
        Size::STANDARD,
        Rules::new(super::super::Rule::Freestyle, None).unwrap(),
    );
    for x in 0..6 {
        free.put(Point::new(x, 0), Color::Black).unwrap();
    }
    let fives = free.fives();
    assert_eq!(fives.len(), 1);
    assert_eq!(fives[0].length, 6);
    assert_eq!(fives[0].points().last(), Some(p("f1")));
}

#[test]
fn transformed_keeps_move_order() {
    let mut b = Board::new(Size::STANDARD, Rules::renju());
    for m in ["h8", "h9", "i9"] {
        b.play(p(m)).unwrap();
    }
    let t = b.transformed(Symmetry::Rotate90);
    assert_eq!(t.to_move(), Color::White);
    assert_eq!(t.hash(), b.hash_under(Symmetry::Rotate90).unwrap());
    let moves: Vec<String> = t.moves().iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["h8", "g8", "g9"]);
}

#[test]
fn symmetric_keys_are_right_whether_kept_or_not() {
    let mut kept = Board::new(Size::STANDARD, Rules::renju());
    let mut lean = kept.clone();
    lean.keep_symmetric_keys(false);
    for m in ["h8", "h9", "i9", "a1", "j12"] {
        kept.play(p(m)).unwrap();
        lean.play(p(m)).unwrap();
    }
    lean.undo();
    kept.undo();
    assert_eq!(lean.hash(), kept.hash());
    assert_eq!(lean.canonical(), kept.canonical());
    for &s in Symmetry::of(kept.size()) {
        assert_eq!(lean.hash_under(s), kept.hash_under(s));
    }
    lean.keep_symmetric_keys(true);
    lean.play(p("k11")).unwrap();
    kept.play(p("k11")).unwrap();
    assert_eq!(lean.keys, kept.keys);
}

/// The stretch count from the line masks equals a walk over every point and direction, on
/// boards of several shapes and win lengths.
#[test]
fn fewest_stones_to_five_matches_a_walk() {
    let walk = |b: &Board, color: Color| -> Option<u32> {
        let k = i32::from(b.rules().k());
        let mut fewest = None;
        for start in b.size().points() {
            for d in Direction::ALL {
                let stretch: Option<Vec<Point>> =
                    (0..k).map(|i| start.step(d, i, b.size())).collect();
                let Some(stretch) = stretch else { continue };
                if stretch
                    .iter()
                    .any(|&q| b.stone(q) == Some(color.opponent()))
                {
                    continue;
                }
                let missing = stretch.iter().filter(|&&q| b.is_empty(q)).count() as u32;
                fewest = Some(fewest.map_or(missing, |f: u32| f.min(missing)));
            }
        }
        fewest
    };
    let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d);
    let mut blocked = 0;
    for (cols, rows, k) in [
        (5, 5, 4),
        (4, 4, 4),
        (3, 3, 3),
        (7, 4, 5),
        (15, 15, 5),
        (20, 20, 6),
    ] {
        let rules = Rules::new(super::super::Rule::Freestyle, Some(k)).unwrap();
        for _ in 0..200 {
            let mut b = Board::new(Size::new(cols, rows).unwrap(), rules);
            let stones = next(b.size().area() as u64);
            for _ in 0..stones {
                let q = Point::new(next(u64::from(cols)) as u8, next(u64::from(rows)) as u8);
                let color = if next(2) == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let _ = b.put(q, color);
            }
            for color in [Color::Black, Color::White] {
                let want = walk(&b, color);
                blocked += usize::from(want.is_none());
                assert_eq!(
                    b.fewest_stones_to_five(color),
                    want,
                    "{cols}x{rows} k={k}\n{b:?}"
                );
            }
        }
    }
    assert!(
        blocked >= 20,
        "only {blocked} boards with every stretch blocked"
    );
}

/// The key `hash_after_pair` gives is the key after playing the two moves, whichever side is
/// to move, on square and rectangular boards, with the symmetric keys kept or not.
#[test]
fn hash_after_pair_matches_playing() {
    let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
    for (cols, rows) in [(15, 15), (9, 6), (19, 19)] {
        for kept in [true, false] {
            let mut b = Board::new(Size::new(cols, rows).unwrap(), Rules::renju());
            b.keep_symmetric_keys(kept);
            if next(2) == 0 {
                b.set_to_move(Color::White);
            }
            for _ in 0..40 {
                let empty: Vec<Point> = b.points().filter(|&q| b.is_empty(q)).collect();
                if empty.len() < 2 {
                    break;
                }
                let a = empty[next(empty.len() as u64) as usize];
                let c = loop {
                    let c = empty[next(empty.len() as u64) as usize];
                    if c != a {
                        break c;
                    }
                };
                let predicted = b.hash_after_pair(a, c);
                b.play_unchecked(a);
                b.play_unchecked(c);
                assert_eq!(b.hash(), predicted, "{cols}x{rows} kept {kept}");
                assert_eq!(b.hash(), b.recompute_hash());
                if next(3) == 0 {
                    b.undo();
                    b.undo();
                }
            }
        }
    }
}

#[test]
fn canonical_after_is_the_canonical_form_after_the_move() {
    let square = Size::STANDARD;
    let rectangle = Size::new(9, 7).unwrap();
    for (size, lines) in [
        (square, ["h8 h9 i9", "h8 i9 g7 i7", "a1 o15"]),
        (square, ["h8", "h8 h9", "h8 i9 h10 g9 f10"]),
        (rectangle, ["e4 e5", "a1 i7 b2", "e4"]),
    ] {
        for line in lines {
            for lean in [false, true] {
                let mut b = Board::new(size, Rules::renju());
                b.keep_symmetric_keys(!lean);
                for m in line.split(' ') {
                    b.play(p(m)).unwrap();
                }
                let empty: Vec<Point> = size.points().filter(|&q| b.stone(q).is_none()).collect();
                for q in empty {
                    let after = b.canonical_after(q);
                    b.play_unchecked(q);
                    assert_eq!(after, b.canonical(), "{line} {q}");
                    b.undo();
                }
            }
        }
    }
}

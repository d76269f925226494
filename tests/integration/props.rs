//! Property tests of the rules core: the fast forbidden detector agrees with the reference
//! implementation, forbidden sets map under the symmetries, play then undo is the identity,
//! incremental hashes equal recomputed ones, and notation and diagrams round-trip.

use proptest::prelude::*;
use renju::notation::{
    DiagramStyle, PositionError, PositionOptions, format_diagram, format_moves, parse_diagram,
    parse_moves,
};
use renju::rules::{Board, Color, Point, Rule, Rules, Size, Symmetry};

use renju::check::rules::{BLACK, WHITE, Win, wins_at};

use crate::support::{board_with, reference_forbidden, to_reference};

/// A set-up renju position on `size`: stones in a `span`-wide square around the centre, each
/// point empty, black or white with the given weights.
fn cluster(size: Size, span: u8, weights: (u32, u32, u32)) -> impl Strategy<Value = Board> {
    let cells = usize::from(span) * usize::from(span);
    let (e, b, w) = weights;
    let cell =
        prop_oneof![e => Just(None), b => Just(Some(Color::Black)), w => Just(Some(Color::White))];
    proptest::collection::vec(cell, cells).prop_map(move |cells| {
        let x0 = (size.cols().saturating_sub(span)) / 2;
        let y0 = (size.rows().saturating_sub(span)) / 2;
        let mut stones = Vec::new();
        for (i, c) in cells.into_iter().enumerate() {
            let (dx, dy) = ((i % usize::from(span)) as u8, (i / usize::from(span)) as u8);
            let (x, y) = (x0 + dx, y0 + dy);
            if let (Some(c), true) = (c, x < size.cols() && y < size.rows()) {
                stones.push((Point::new(x, y), c));
            }
        }
        board_with(size, &stones)
    })
}

/// Positions on the standard board, from sparse to dense with many black stones.
fn renju_position() -> impl Strategy<Value = Board> {
    prop_oneof![
        cluster(Size::STANDARD, 9, (50, 32, 18)),
        cluster(Size::STANDARD, 9, (35, 55, 10)),
        cluster(Size::STANDARD, 11, (55, 35, 10)),
        cluster(Size::STANDARD, 15, (60, 30, 10)),
        // Any size, rectangles included, filled edge to edge: the edge must block like White.
        any_size().prop_flat_map(|size| cluster(size, 20, (45, 40, 15))),
    ]
}

fn any_size() -> impl Strategy<Value = Size> {
    (3u32..=20, 3u32..=20, any::<bool>()).prop_map(|(c, r, square)| {
        if square {
            Size::square(c)
        } else {
            Size::new(c, r)
        }
        .unwrap()
    })
}

fn any_rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::renju()),
        (3u32..=6).prop_map(|k| Rules::new(Rule::Gomoku, Some(k)).unwrap()),
        (3u32..=6).prop_map(|k| Rules::new(Rule::Freestyle, Some(k)).unwrap()),
        Just(Rules::new(Rule::Caro, None).unwrap()),
    ]
}

/// A board of any size and rules with a random game played on it (the moves that were free).
fn played_game() -> impl Strategy<Value = Board> {
    (
        any_size(),
        any_rules(),
        proptest::collection::vec((0u8..20, 0u8..20), 0..120),
    )
        .prop_map(|(size, rules, moves)| {
            let mut b = Board::new(size, rules);
            for (x, y) in moves {
                let p = Point::new(x % size.cols(), y % size.rows());
                if b.is_empty(p) {
                    b.play(p).unwrap();
                }
            }
            b
        })
}

/// The checker's win rule for `color` under `rules`.
fn checker_win(rules: Rules, color: Color) -> Win {
    let k = usize::from(rules.k());
    match (rules.rule(), color) {
        (Rule::Renju, Color::Black) | (Rule::Gomoku, _) => Win::Exactly(k),
        (Rule::Renju, Color::White) | (Rule::Freestyle, _) => Win::AtLeast(k),
        (Rule::Caro, _) => Win::Caro,
    }
}

proptest! {
    /// The checker's own five test agrees with the fast rules core on every empty point, for
    /// both colours, under every rule set and several win lengths, on boards of every shape.
    #[test]
    fn checker_fives_agree_with_the_rules_core(
        rule in prop_oneof![Just(Rule::Renju), Just(Rule::Gomoku), Just(Rule::Freestyle), Just(Rule::Caro)],
        k in 3u32..=7,
        cols in 3u32..=20,
        rows in 3u32..=20,
        cells in proptest::collection::vec(0u8..3, 400),
    ) {
        let k = rule.has_variable_k().then_some(k);
        let rules = Rules::new(rule, k).unwrap();
        let size = Size::new(cols, rows).unwrap();
        let mut board = Board::new(size, rules);
        for (p, c) in size.points().zip(cells) {
            match c {
                1 => board.put(p, Color::Black).unwrap(),
                2 => board.put(p, Color::White).unwrap(),
                _ => {}
            }
        }
        let grid = to_reference(&board);
        for p in board.points().filter(|&p| board.is_empty(p)) {
            for (color, stone) in [(Color::Black, BLACK), (Color::White, WHITE)] {
                let mut with = grid.clone();
                let (x, y) = (usize::from(p.x()), usize::from(p.y()));
                with.cells[y * with.width + x] = stone;
                prop_assert_eq!(
                    wins_at(&with, x, y, stone, checker_win(rules, color)),
                    board.makes_five(p, color),
                    "{} {} {:?}", p, color, board
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn fast_detector_agrees_with_reference(board in renju_position()) {
        let fast = board.forbidden_points();
        prop_assert_eq!(&fast, &reference_forbidden(&board), "{:?}", board);
        for p in board.points() {
            let one = board.forbidden(p);
            prop_assert_eq!(one, fast.iter().find(|(q, _)| *q == p).map(|&(_, k)| k), "{} {:?}", p, board);
        }
    }

    #[test]
    fn forbidden_set_maps_under_symmetries(board in renju_position()) {
        let size = board.size();
        let original = board.forbidden_points();
        for &s in Symmetry::of(size) {
            let image = board.transformed(s);
            let mut mapped: Vec<_> = original.iter().map(|&(p, k)| (s.apply(p, size), k)).collect();
            mapped.sort();
            prop_assert_eq!(image.forbidden_points(), mapped, "{}", s);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn play_then_undo_is_identity(board in played_game()) {
        let mut b = board.clone();
        let size = b.size();
        let free: Vec<Point> = b.points().filter(|&p| b.is_empty(p)).take(7).collect();
        for &p in &free {
            b.play(p).unwrap();
            prop_assert_eq!(b.hash(), b.recompute_hash());
        }
        for &p in free.iter().rev() {
            prop_assert_eq!(b.undo(), Some(p));
        }
        prop_assert_eq!(&b, &board);
        prop_assert_eq!(b.hash(), board.hash());
        prop_assert_eq!(b.forbidden_points(), board.forbidden_points());
        prop_assert_eq!(size, b.size());
    }

    #[test]
    fn incremental_hash_equals_recomputed(board in played_game()) {
        prop_assert_eq!(board.hash(), board.recompute_hash());
        let mut b = board.clone();
        while b.undo().is_some() {
            prop_assert_eq!(b.hash(), b.recompute_hash());
        }
        prop_assert_eq!(b.hash(), Board::new(b.size(), b.rules()).hash());
    }

    #[test]
    fn canonical_form_is_shared_by_all_images(board in played_game()) {
        let size = board.size();
        let canonical = board.canonical();
        for &s in Symmetry::of(size) {
            let image = board.transformed(s);
            prop_assert_eq!(image.hash(), image.recompute_hash());
            prop_assert_eq!(Some(image.hash()), board.hash_under(s));
            prop_assert_eq!(image.canonical().key, canonical.key);
        }
        let mapped = board.transformed(canonical.symmetry);
        prop_assert_eq!(mapped.hash(), canonical.key);
        prop_assert!(Symmetry::of(size).iter().all(|&s| board.hash_under(s).unwrap() >= canonical.key));
    }

    #[test]
    fn move_lists_round_trip(board in played_game()) {
        let options = PositionOptions { size: board.size(), rules: board.rules(), to_move: None };
        // A game that ran past a five does not read back (moves after it are refused), nor
        // one with a forbidden black move (which loses at once), so cut it after its first
        // five or before its first forbidden move.
        let mut cut = Board::new(board.size(), board.rules());
        for &p in board.moves() {
            let color = cut.to_move();
            if color == Color::Black && cut.forbidden(p).is_some() {
                let mut with = cut.clone();
                with.play(p).unwrap();
                let refused = matches!(
                    parse_moves(&format_moves(&with), &options),
                    Err(PositionError::EndsForbidden { .. })
                );
                prop_assert!(refused);
                break;
            }
            cut.play(p).unwrap();
            if cut.makes_five(p, color) {
                break;
            }
        }
        let text = format_moves(&cut);
        prop_assert_eq!(parse_moves(&text, &options).unwrap(), cut.clone());
        let packed = text.replace(' ', "");
        prop_assert_eq!(parse_moves(&packed, &options).unwrap(), cut.clone());
        let upper = text.to_uppercase().replace(' ', ",");
        prop_assert_eq!(parse_moves(&upper, &options).unwrap(), cut);
    }

    #[test]
    fn diagrams_round_trip(board in played_game(), labels in any::<bool>()) {
        let options = PositionOptions { size: board.size(), rules: board.rules(), to_move: Some(board.to_move()) };
        let text = format_diagram(&board, &DiagramStyle { labels, forbidden: &[] });
        let read = parse_diagram(&text, &options);
        let fives = board.fives();
        let both_win = fives.iter().any(|f| f.color == Color::Black) && fives.iter().any(|f| f.color == Color::White);
        if both_win {
            prop_assert!(read.is_err());
        } else if !board.forbidden_overlines().is_empty() {
            // No game reaches a black overline under renju.
            let refused = matches!(read, Err(PositionError::BlackOverline { .. }));
            prop_assert!(refused);
        } else {
            let read = read.unwrap();
            prop_assert_eq!(read.stones().collect::<Vec<_>>(), board.stones().collect::<Vec<_>>());
            prop_assert_eq!(read.hash(), board.hash());
        }
    }
}

/// The generated positions are not vacuous: across a fixed sample they hold every kind of
/// forbidden point, many of them, and double-threes whose lines only look like threes.
#[test]
fn generated_positions_exercise_every_kind() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use renju::rules::Forbidden;

    let mut runner = TestRunner::deterministic();
    let mut counts = std::collections::HashMap::new();
    for _ in 0..300 {
        let board = renju_position().new_tree(&mut runner).unwrap().current();
        for (_, kind) in board.forbidden_points() {
            *counts.entry(kind).or_insert(0) += 1;
        }
    }
    for kind in [
        Forbidden::Overline,
        Forbidden::DoubleFour,
        Forbidden::DoubleThree,
    ] {
        assert!(
            counts.get(&kind).copied().unwrap_or(0) >= 20,
            "{kind}: {counts:?}"
        );
    }
}

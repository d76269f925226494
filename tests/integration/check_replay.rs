//! The checker's VCF replay (`renju::check::replay`) against the fast crate code: its five
//! points and renju forbidden points agree with the rules core on random positions of every rule
//! set, and every VCF line the threat search finds (on the quintet positions, and on random
//! positions of every rule set) replays as a win from the attacker's moves alone, while broken
//! versions of the quintet lines do not.

use renju::check::replay::{self, Position, vcf_wins};
use renju::check::rules::{BLACK, WHITE};
use renju::rules::{Board, Color, Point, Rule, Rules, Size};
use renju::threat::{Ending, Limits, Line, Outcome, VcfOptions, vcf};

use crate::support::to_reference;
use crate::threats::{cases, position};

/// The checker's rule set for the crate's.
fn checker_rule(rules: Rules) -> replay::Rule {
    let k = usize::from(rules.k());
    match rules.rule() {
        Rule::Renju => replay::Rule::Renju,
        Rule::Gomoku => replay::Rule::Gomoku { k },
        Rule::Freestyle => replay::Rule::Freestyle { k },
        Rule::Caro => replay::Rule::Caro,
    }
}

/// The checker's position for a crate board.
fn checker_position(board: &Board) -> Position {
    Position::new(to_reference(board), checker_rule(board.rules()))
}

fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn xy(p: Point) -> (usize, usize) {
    (usize::from(p.x()), usize::from(p.y()))
}

/// A small deterministic generator (xorshift64*), so that the random positions are the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
    }
}

/// A game of up to `moves` random moves on a board of `size` under `rules`, played while no one
/// has a five on the board; random points near the centre, so that lines form. With `quiet`,
/// a move that would give its side a five point is passed over, so that the game fills up with
/// threes rather than ending in an early four.
fn random_game(rng: &mut Rng, size: Size, rules: Rules, moves: usize, quiet: bool) -> Board {
    let mut b = Board::new(size, rules);
    let (w, h) = (u64::from(size.cols()), u64::from(size.rows()));
    for _ in 0..moves {
        // The sum of two uniform draws leans to the middle.
        let x = ((rng.below(w) + rng.below(w)) / 2) as u8;
        let y = ((rng.below(h) + rng.below(h)) / 2) as u8;
        let p = Point::new(x, y);
        if !b.is_empty(p) {
            continue;
        }
        let color = b.to_move();
        b.play(p).unwrap();
        if !b.fives().is_empty() {
            b.undo();
            break;
        }
        if quiet && !b.five_points(color).is_empty() {
            b.undo();
        }
    }
    b
}

/// The rule sets to try, with several win lengths.
fn all_rules() -> Vec<Rules> {
    let mut all = vec![Rules::renju(), Rules::new(Rule::Caro, None).unwrap()];
    for k in [4, 5, 6] {
        all.push(Rules::new(Rule::Gomoku, Some(k)).unwrap());
        all.push(Rules::new(Rule::Freestyle, Some(k)).unwrap());
    }
    all
}

/// The checker's five points equal the rules core's, for both colours, on random games of
/// every rule set and several board sizes.
#[test]
fn five_points_agree_with_the_rules_core() {
    let mut rng = Rng(0x5EED_0001);
    let mut nonempty = 0;
    for rules in all_rules() {
        for (cols, rows) in [(15, 15), (9, 9), (11, 7), (6, 13)] {
            let size = Size::new(cols, rows).unwrap();
            for _ in 0..20 {
                let moves = 10 + rng.below(u64::from(cols * rows) / 2) as usize;
                let board = random_game(&mut rng, size, rules, moves, false);
                let pos = checker_position(&board);
                for color in [Color::Black, Color::White] {
                    let fast: Vec<(usize, usize)> = {
                        let mut v: Vec<_> = board.five_points(color).into_iter().map(xy).collect();
                        v.sort_by_key(|&(x, y)| (y, x));
                        v
                    };
                    let ours = pos.five_points(code(color));
                    assert_eq!(ours, fast, "{rules} {color:?}\n{board:?}");
                    for &(x, y) in &ours {
                        assert!(pos.makes_win(x, y, code(color)));
                    }
                    nonempty += usize::from(!ours.is_empty());
                }
            }
        }
    }
    assert!(
        nonempty > 100,
        "too few positions with five points: {nonempty}"
    );
}

/// Under renju, the checker's forbidden points equal the rules core's on every empty point of
/// the quintet positions (busy, with real forbidden points) and of a few random games.
#[test]
fn renju_forbidden_points_agree_with_the_rules_core() {
    let mut boards: Vec<Board> = cases().iter().map(|c| position(c).0).collect();
    let mut rng = Rng(0x5EED_0002);
    for _ in 0..6 {
        let moves = 30 + rng.below(40) as usize;
        boards.push(random_game(
            &mut rng,
            Size::STANDARD,
            Rules::renju(),
            moves,
            false,
        ));
    }
    let mut forbidden = 0;
    for board in &boards {
        let pos = checker_position(board);
        for p in board.points().filter(|&p| board.is_empty(p)) {
            let (x, y) = xy(p);
            let ours = pos.is_forbidden_for_black(x, y);
            assert_eq!(ours, board.forbidden(p).is_some(), "{p}\n{board:?}");
            assert_eq!(pos.legal(x, y, BLACK), board.is_legal_for(p, Color::Black));
            assert!(pos.legal(x, y, WHITE));
            forbidden += usize::from(ours);
        }
    }
    assert!(forbidden >= 10, "too few forbidden points: {forbidden}");
}

/// The attacker's moves of a line: every other move, from the first.
fn attacker_moves(line: &Line) -> Vec<(usize, usize)> {
    line.moves.iter().step_by(2).map(|&p| xy(p)).collect()
}

/// Checks that `line` (found by the threat search for `attacker` on `board`) replays as a win,
/// and returns how many attacker moves the replay used: all of them, or all but the final five
/// when the line's last four could not be stopped.
fn replays(board: &Board, attacker: Color, line: &Line) -> usize {
    let pos = checker_position(board);
    let moves = attacker_moves(line);
    let used = vcf_wins(&pos, code(attacker), &moves)
        .unwrap_or_else(|e| panic!("{e}\nline {:?}\n{board:?}", line.moves));
    let open_four_then_five = line.ending == Ending::Five && used + 1 == moves.len();
    assert!(
        used == moves.len() || open_four_then_five,
        "used {used} of {} moves",
        moves.len()
    );
    used
}

/// Every VCF line the search finds on the quintet VCF positions (any line and a shortest one)
/// replays as a win from the attacker's moves alone. Broken versions do not: the last attacker
/// move dropped (the last two when the line ends in an unstoppable four and its five), and the
/// first attacker move replaced by an empty point that is not a four.
#[test]
fn quintet_vcf_lines_replay_and_broken_ones_fail() {
    let cases: Vec<_> = cases().into_iter().filter(|c| c.kind == "VCF").collect();
    assert_eq!(cases.len(), 6);
    let mut lines = 0;
    for case in &cases {
        let (board, attacker) = position(case);
        let pos = checker_position(&board);
        let a = code(attacker);
        for shortest in [false, true] {
            let options = VcfOptions {
                shortest,
                ..VcfOptions::default()
            };
            let Outcome::Win(line) = vcf(&board, attacker, &options).outcome else {
                panic!("{}: no VCF", case.id)
            };
            lines += 1;
            let moves = attacker_moves(&line);
            let used = replays(&board, attacker, &line);
            let id = &case.id;

            // Too short: the win is gone. A line ending in an unstoppable four and its five
            // still wins without the five, so there the four goes too.
            if used < moves.len() {
                let e = vcf_wins(&pos, a, &moves[..moves.len() - 1]);
                assert_eq!(e, Ok(used), "{id}");
            }
            let cut = &moves[..used - 1];
            if !cut.is_empty() {
                let e = vcf_wins(&pos, a, cut).expect_err(id);
                assert!(
                    e.contains("run out") || e.contains("not a four"),
                    "{id}: {e}"
                );
            }

            // A first move that is not a four.
            let quiet: Vec<Point> = board
                .points()
                .filter(|&p| board.is_legal_for(p, attacker))
                .filter(|&p| {
                    let mut b = board.clone();
                    b.put(p, attacker).unwrap();
                    b.five_points(attacker).is_empty() && !b.makes_five(p, attacker)
                })
                .collect();
            assert!(quiet.len() > 10, "{id}");
            for &q in [quiet[0], quiet[quiet.len() / 2], quiet[quiet.len() - 1]].iter() {
                let mut swapped = moves.clone();
                swapped[0] = xy(q);
                let e = vcf_wins(&pos, a, &swapped).expect_err(id);
                // On test_vcf_counter the defender has a five point to take first.
                assert!(
                    e.starts_with("move 1 ")
                        && (e.contains("not a four") || e.contains("leaves the defender")),
                    "{id}: {e}"
                );
            }
        }
    }
    assert_eq!(lines, 12);
}

/// Every VCF line the search finds on random games of every rule set replays as a win. The
/// games are quiet (no move gives its side a five point), and games where the attacker has a
/// five point or a four with two five points are skipped, so that the lines are mostly several
/// fours long. The searches are bounded and positions where none is found are skipped, but
/// enough lines of several fours must turn up under each rule set.
#[test]
fn random_vcf_lines_replay_under_every_rule_set() {
    let mut rng = Rng(0x5EED_0003);
    // Under k = 4 an open two is enough for a four with two five points, which nearly every
    // random game has: lines of several fours do not turn up.
    for rules in all_rules().into_iter().filter(|r| r.k() >= 5) {
        let (mut wins, mut long) = (0, 0);
        for i in 0..300 {
            let size = if i % 2 == 0 {
                Size::STANDARD
            } else {
                Size::square(9).unwrap()
            };
            let moves = 20 + rng.below(100) as usize;
            let board = random_game(&mut rng, size, rules, moves, true);
            let attacker = board.to_move();
            // A five point, or a four no single stone stops, would make a one-move line.
            if !board.five_points(attacker).is_empty()
                || board
                    .four_points(attacker)
                    .iter()
                    .any(|(_, four)| four.count >= 2)
            {
                continue;
            }
            let options = VcfOptions {
                limits: Limits {
                    nodes: Some(20_000),
                    ..Limits::default()
                },
                ..VcfOptions::default()
            };
            if let Outcome::Win(line) = vcf(&board, attacker, &options).outcome {
                let used = replays(&board, attacker, &line);
                wins += 1;
                long += usize::from(used >= 2);
            }
        }
        assert!(long >= 5, "{rules}: {wins} VCFs, {long} of several fours");
    }
}

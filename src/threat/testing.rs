//! Helpers shared by the threat search's unit tests.

use crate::rules::{Board, Color, Point, Rules, Size};

use super::{Line, Outcome, VcfOptions, vcf};

/// A VCF for `attacker` with the defender to move on `board`, if there is one that needs a
/// move (and the defender has no five to make).
pub(super) fn vcf_line(board: &mut Board, attacker: Color, max_fours: Option<u32>) -> Option<Line> {
    let defender = attacker.opponent();
    board.set_to_move(defender);
    if !board.five_points(defender).is_empty() {
        return None;
    }
    let options = VcfOptions {
        max_fours,
        ..VcfOptions::default()
    };
    match vcf(board, attacker, &options).outcome {
        Outcome::Win(line) if !line.moves.is_empty() => Some(line),
        _ => None,
    }
}

/// A random renju board crowded in its middle: 20 to 59 tries at a stone of either colour,
/// each placed where it is legal and makes no five.
pub(super) fn crowded_renju_board(random: &mut impl FnMut(u64) -> u64) -> Board {
    let mut board = Board::new(Size::STANDARD, Rules::renju());
    for _ in 0..20 + random(40) {
        let p = Point::new(2 + random(11) as u8, 2 + random(11) as u8);
        let color = [Color::Black, Color::White][random(2) as usize];
        if board.is_legal_for(p, color) && !board.four_at(p, color).five {
            board.put(p, color).unwrap();
        }
    }
    board
}

//! Helpers shared by the integration tests: moving boards between the crate's [`Board`] and
//! the reference implementation's plain grid.

use renju::rules::{Board, Color, Forbidden, Point, Rules, Size};

use crate::reference::{RefBoard, RefVerdict};

/// The reference implementation's view of `board`.
pub fn to_reference(board: &Board) -> RefBoard {
    let size = board.size();
    let (w, h) = (usize::from(size.cols()), usize::from(size.rows()));
    let mut cells = vec![0u8; w * h];
    for (p, c) in board.stones() {
        cells[usize::from(p.y()) * w + usize::from(p.x())] = match c {
            Color::Black => 1,
            Color::White => 2,
        };
    }
    RefBoard {
        width: w,
        height: h,
        cells,
    }
}

/// The reference forbidden set in the crate's types, file by file like the crate's own.
pub fn reference_forbidden(board: &Board) -> Vec<(Point, Forbidden)> {
    let mut all: Vec<(Point, Forbidden)> = crate::reference::all_forbidden(&to_reference(board))
        .into_iter()
        .map(|((x, y), v)| {
            let kind = match v {
                RefVerdict::Overline => Forbidden::Overline,
                RefVerdict::DoubleFour => Forbidden::DoubleFour,
                RefVerdict::DoubleThree => Forbidden::DoubleThree,
                RefVerdict::Five | RefVerdict::Legal => {
                    unreachable!("all_forbidden lists forbidden points")
                }
            };
            (Point::new(x as u8, y as u8), kind)
        })
        .collect();
    all.sort();
    all
}

/// A renju board of `size` with the given stones; Black to move.
pub fn board_with(size: Size, stones: &[(Point, Color)]) -> Board {
    let mut b = Board::new(size, Rules::renju());
    for &(p, c) in stones {
        b.put(p, c).unwrap();
    }
    b
}

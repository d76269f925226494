//! Board geometry: sizes, points, colours and the four line directions.
//!
//! Points use RIF notation: files `a`, `b`, … from left to right and ranks `1`, `2`, … from
//! bottom to top, so `h8` is the centre of the 15x15 board. Inside the crate a point is a file
//! and rank index, both from zero.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The smallest board side supported.
pub const MIN_SIDE: u8 = 3;
/// The largest board side supported.
pub const MAX_SIDE: u8 = 20;
/// Number of point slots in the fixed-stride layout used for indexing (`MAX_SIDE` squared).
pub(crate) const SLOTS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// A stone colour, and so a player. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name, `black` or `white`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(format!("unknown colour `{s}`: expected black or white")),
        }
    }
}

/// A board size: columns (files) by rows (ranks), each from [`MIN_SIDE`] to [`MAX_SIDE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Size {
    cols: u8,
    rows: u8,
}

/// A board size outside the supported range, or text that is not a size.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SizeError {
    /// A side outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    #[error(
        "board size {cols}x{rows} is out of range: each side must be from {MIN_SIDE} to {MAX_SIDE}"
    )]
    OutOfRange {
        /// Columns asked for.
        cols: u32,
        /// Rows asked for.
        rows: u32,
    },
    /// Text that is neither `N` nor `COLSxROWS`.
    #[error("malformed board size `{0}`: expected N (square) or COLSxROWS, like 15 or 4x3")]
    Malformed(String),
}

impl Size {
    /// The standard 15x15 renju board.
    pub const STANDARD: Size = Size { cols: 15, rows: 15 };

    /// A board of `cols` files and `rows` ranks.
    ///
    /// # Errors
    /// [`SizeError::OutOfRange`] if a side is outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn new(cols: u32, rows: u32) -> Result<Size, SizeError> {
        let range = u32::from(MIN_SIDE)..=u32::from(MAX_SIDE);
        if range.contains(&cols) && range.contains(&rows) {
            Ok(Size {
                cols: cols as u8,
                rows: rows as u8,
            })
        } else {
            Err(SizeError::OutOfRange { cols, rows })
        }
    }

    /// A square board of side `n`.
    ///
    /// # Errors
    /// [`SizeError::OutOfRange`] if `n` is outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn square(n: u32) -> Result<Size, SizeError> {
        Size::new(n, n)
    }

    /// Number of files (columns).
    #[must_use]
    pub const fn cols(self) -> u8 {
        self.cols
    }

    /// Number of ranks (rows).
    #[must_use]
    pub const fn rows(self) -> u8 {
        self.rows
    }

    /// Whether the board is square (and so has all 8 symmetries).
    #[must_use]
    pub const fn is_square(self) -> bool {
        self.cols == self.rows
    }

    /// Number of points on the board.
    #[must_use]
    pub const fn area(self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// The point at file `x` and rank `y` (both from zero), if it is on the board.
    #[must_use]
    pub fn point(self, x: i32, y: i32) -> Option<Point> {
        (x >= 0 && y >= 0 && x < i32::from(self.cols) && y < i32::from(self.rows))
            .then(|| Point::new(x as u8, y as u8))
    }

    /// Whether `p` lies on this board.
    #[must_use]
    pub const fn contains(self, p: Point) -> bool {
        p.x < self.cols && p.y < self.rows
    }

    /// Every point of the board, rank by rank from `a1`.
    pub fn points(self) -> impl Iterator<Item = Point> {
        (0..self.rows).flat_map(move |y| (0..self.cols).map(move |x| Point::new(x, y)))
    }

    /// The centre point (rounded towards `a1` on even sides).
    #[must_use]
    pub const fn center(self) -> Point {
        Point::new((self.cols - 1) / 2, (self.rows - 1) / 2)
    }
}

impl Default for Size {
    fn default() -> Self {
        Size::STANDARD
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || SizeError::Malformed(s.to_string());
        let number = |t: &str| -> Result<u32, SizeError> {
            if t.is_empty() || t.len() > 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed());
            }
            t.parse().map_err(|_| malformed())
        };
        let lower = s.trim().to_ascii_lowercase();
        match lower.split_once('x') {
            Some((c, r)) => Size::new(number(c)?, number(r)?),
            None => Size::square(number(&lower)?),
        }
    }
}

/// A point on the board: a file and a rank, both counted from zero (`a1` is `(0, 0)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    x: u8,
    y: u8,
}

impl Point {
    /// The point at file `x` and rank `y`, from zero. It is not tied to a board size.
    ///
    /// # Panics
    /// If `x` or `y` is [`MAX_SIDE`] or more.
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Point {
        assert!(
            x < MAX_SIDE && y < MAX_SIDE,
            "point outside the largest board"
        );
        Point { x, y }
    }

    /// The file, from zero (`a` is 0).
    #[must_use]
    pub const fn x(self) -> u8 {
        self.x
    }

    /// The rank, from zero (rank 1 is 0).
    #[must_use]
    pub const fn y(self) -> u8 {
        self.y
    }

    /// Index in the fixed `MAX_SIDE`-stride layout, the same on every board size.
    #[must_use]
    pub(crate) const fn slot(self) -> usize {
        self.y as usize * MAX_SIDE as usize + self.x as usize
    }

    /// The file letter, lower case.
    #[must_use]
    pub const fn file_letter(self) -> char {
        (b'a' + self.x) as char
    }

    /// The point `steps` away along direction `d`, if it is on `size`.
    #[must_use]
    pub fn step(self, d: Direction, steps: i32, size: Size) -> Option<Point> {
        let (dx, dy) = d.delta();
        size.point(
            i32::from(self.x) + dx * steps,
            i32::from(self.y) + dy * steps,
        )
    }
}

impl fmt::Display for Point {
    /// Lower-case RIF notation, like `h8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_letter(), self.y + 1)
    }
}

impl FromStr for Point {
    type Err = String;

    /// Reads RIF notation (`h8`, `H8`) on the largest board; check the board size separately.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bytes = s.as_bytes();
        let bad = || format!("malformed point `{s}`: expected a file letter and a rank, like h8");
        let (&file, rank) = bytes.split_first().ok_or_else(bad)?;
        let file = file.to_ascii_lowercase();
        if !file.is_ascii_lowercase()
            || rank.is_empty()
            || rank.len() > 2
            || !rank.iter().all(u8::is_ascii_digit)
            || rank[0] == b'0'
        {
            return Err(bad());
        }
        let x = u32::from(file - b'a');
        let y: u32 = s[1..].parse::<u32>().map_err(|_| bad())? - 1;
        if x >= u32::from(MAX_SIDE) || y >= u32::from(MAX_SIDE) {
            return Err(format!(
                "point `{s}` is off the largest ({MAX_SIDE}x{MAX_SIDE}) board"
            ));
        }
        Ok(Point::new(x as u8, y as u8))
    }
}

/// One of the four line directions through a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along a rank (left to right).
    Horizontal,
    /// Along a file (bottom to top).
    Vertical,
    /// Up and to the right, like `a1`-`b2`.
    Diagonal,
    /// Down and to the right, like `a2`-`b1`.
    AntiDiagonal,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The step `(dx, dy)` of one point along the direction.
    #[must_use]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!("15".parse::<Size>().unwrap(), Size::STANDARD);
        assert_eq!("4x3".parse::<Size>().unwrap(), Size::new(4, 3).unwrap());
        assert_eq!("4X3".parse::<Size>().unwrap().cols(), 4);
        assert!(matches!(
            "2".parse::<Size>(),
            Err(SizeError::OutOfRange { .. })
        ));
        assert!(matches!(
            "21x5".parse::<Size>(),
            Err(SizeError::OutOfRange { .. })
        ));
        assert!(matches!("x5".parse::<Size>(), Err(SizeError::Malformed(_))));
        assert!(matches!(
            "99999999999".parse::<Size>(),
            Err(SizeError::Malformed(_))
        ));
        assert!(matches!("-3".parse::<Size>(), Err(SizeError::Malformed(_))));
    }

    #[test]
    fn points_parse_and_print() {
        let h8: Point = "H8".parse().unwrap();
        assert_eq!((h8.x(), h8.y()), (7, 7));
        assert_eq!(h8.to_string(), "h8");
        assert_eq!("t20".parse::<Point>().unwrap().to_string(), "t20");
        for bad in ["", "h", "8", "h0", "h08", "h123", "u1", "h21", "é1", "h-1"] {
            assert!(bad.parse::<Point>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn centre() {
        assert_eq!(Size::STANDARD.center().to_string(), "h8");
        assert_eq!(Size::new(4, 3).unwrap().center().to_string(), "b2");
    }
}

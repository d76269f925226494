//! Every line on the board as bit masks, kept up to date on each move.
//!
//! Each of the four directions splits the board into lines. A line is three 32-bit masks: the
//! black stones, the white stones, and the points off the board. Line positions are shifted by
//! [`PAD`] so that the 11-point window `p-5..=p+5` around any point is one shift and one mask
//! away, with the board edge reading as a block for either colour. That window is all the
//! five-in-a-row patterns need: a five, a four's five points, a straight four and the points
//! that make one all lie within five points of the stone.

use super::geometry::{Color, Direction, MAX_SIDE, Point, Size};

/// Off-board padding at each end of a line, in points.
pub(crate) const PAD: u32 = 5;
/// Lines per direction, at most: a diagonal family on a 20x20 board has 39 lines.
const MAX_LINES: usize = 2 * MAX_SIDE as usize - 1;

/// All lines: stones of each colour and off-board points per line, for the four directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    rows: u8,
    cols: u8,
    stones: [[[u32; MAX_LINES]; 4]; 2],
    edge: [[u32; MAX_LINES]; 4],
    /// Stones of each colour per line.
    counts: [[[u8; MAX_LINES]; 4]; 2],
    /// Per colour and direction, the lines holding three or more of that colour's stones.
    busy: [[u64; 4]; 2],
}

/// Which line of direction `d` holds `p`, and where along it `p` lies (before padding).
#[inline(always)]
pub(crate) fn locate(d: Direction, p: Point, rows: u8) -> (usize, u32) {
    let (x, y) = (u32::from(p.x()), u32::from(p.y()));
    let rows = u32::from(rows);
    match d {
        Direction::Horizontal => (y as usize, x),
        Direction::Vertical => (x as usize, y),
        Direction::Diagonal => ((x + rows - 1 - y) as usize, x.min(y)),
        Direction::AntiDiagonal => ((x + y) as usize, x - (x + y).saturating_sub(rows - 1)),
    }
}

/// The point at position `pos` of line `line` in direction index `di` (the inverse of
/// [`locate`]).
fn point_at(di: usize, line: u32, pos: u32, rows: u32) -> Point {
    let (x, y) = match di {
        0 => (pos, line),
        1 => (line, pos),
        2 => {
            if line >= rows - 1 {
                (line - (rows - 1) + pos, pos)
            } else {
                (pos, rows - 1 - line + pos)
            }
        }
        _ => {
            let x = line.saturating_sub(rows - 1) + pos;
            (x, line - x)
        }
    };
    Point::new(x as u8, y as u8)
}

/// Where one more stone of a colour has support along the lines (see [`Lines::support`]): for
/// each level 1, 2 and 3 (index 0, 1 and 2), the empty points with a line of at least that
/// level, and those with two or more such lines, file by file as bit sets of ranks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Support {
    /// `once[l][x]`: ranks of file `x` with at least one line of level `l + 1` or more.
    pub(crate) once: [[u32; MAX_SIDE as usize]; 3],
    /// `twice[l][x]`: ranks of file `x` with at least two such lines.
    pub(crate) twice: [[u32; MAX_SIDE as usize]; 3],
}

impl Support {
    /// Records a line of level `level + 1` or more through the ranks `ranks` of file `x`.
    #[inline]
    fn add(&mut self, level: usize, x: usize, ranks: u32) {
        self.twice[level][x] |= self.once[level][x] & ranks;
        self.once[level][x] |= ranks;
    }
}

/// The number of stones in every five-point stretch of one line mask at once, bit-sliced:
/// bit s of `ones`, `twos` and `fours` are the binary digits of the count in s..=s+4.
struct StretchCounts {
    ones: u32,
    twos: u32,
    fours: u32,
}

impl StretchCounts {
    #[inline]
    fn of(own: u32) -> StretchCounts {
        let (a, b, c, d, e) = (own, own >> 1, own >> 2, own >> 3, own >> 4);
        // a + b + c = s3 + 2 c3, d + e = s2 + 2 c2, then the halves are added.
        let s3 = a ^ b ^ c;
        let c3 = (a & b) | (c & (a ^ b));
        let s2 = d ^ e;
        let c2 = d & e;
        let carry = s3 & s2;
        StretchCounts {
            ones: s3 ^ s2,
            twos: c3 ^ c2 ^ carry,
            fours: (c3 & c2) | (carry & (c3 ^ c2)),
        }
    }

    /// The stretches holding at least `min` stones (1 to 5; none for larger `min`).
    #[inline]
    fn at_least(&self, min: u32) -> u32 {
        match min {
            0 => u32::MAX,
            1 => self.ones | self.twos | self.fours,
            2 => self.twos | self.fours,
            3 => self.fours | (self.twos & self.ones),
            4 => self.fours,
            5 => self.fours & self.ones,
            _ => 0,
        }
    }
}

impl Lines {
    /// Empty lines for a board of `size`: every off-board point blocks.
    pub(crate) fn new(size: Size) -> Lines {
        let mut lines = Lines {
            rows: size.rows(),
            cols: size.cols(),
            stones: [[[0; MAX_LINES]; 4]; 2],
            edge: [[u32::MAX; MAX_LINES]; 4],
            counts: [[[0; MAX_LINES]; 4]; 2],
            busy: [[0; 4]; 2],
        };
        for p in size.points() {
            for (di, d) in Direction::ALL.into_iter().enumerate() {
                let (line, pos) = locate(d, p, lines.rows);
                lines.edge[di][line] &= !(1 << (pos + PAD));
            }
        }
        lines
    }

    /// Records a `color` stone at the empty point `p`.
    #[inline]
    pub(crate) fn put(&mut self, p: Point, color: Color) {
        for (di, d) in Direction::ALL.into_iter().enumerate() {
            let (line, pos) = locate(d, p, self.rows);
            let c = color.index();
            self.stones[c][di][line] |= 1 << (pos + PAD);
            self.counts[c][di][line] += 1;
            if self.counts[c][di][line] == 3 {
                self.busy[c][di] |= 1 << line;
            }
        }
    }

    /// Removes the `color` stone at `p`.
    #[inline]
    pub(crate) fn remove(&mut self, p: Point, color: Color) {
        for (di, d) in Direction::ALL.into_iter().enumerate() {
            let (line, pos) = locate(d, p, self.rows);
            let c = color.index();
            self.stones[c][di][line] &= !(1 << (pos + PAD));
            self.counts[c][di][line] -= 1;
            if self.counts[c][di][line] == 2 {
                self.busy[c][di] &= !(1 << line);
            }
        }
    }

    /// Calls `f` for every empty point that lies in a five-point stretch of one line holding
    /// at least `min` (3 or more) `color` stones and nothing else: the only places where a
    /// stone can make a four (`min` 3) or a five (`min` 4). A point may come more than once,
    /// once per such line.
    pub(crate) fn crowded_points(&self, color: Color, min: u32, mut f: impl FnMut(Point)) {
        debug_assert!(min >= 3);
        let rows = u32::from(self.rows);
        let c = color.index();
        for di in 0..4 {
            let mut busy = self.busy[c][di];
            while busy != 0 {
                let line = busy.trailing_zeros() as usize;
                busy &= busy - 1;
                if u32::from(self.counts[c][di][line]) < min {
                    continue;
                }
                let [good, ..] = self.stretches(c, di, line, [min, u32::MAX, u32::MAX]);
                let mut empty = good & !self.stones[c][di][line];
                while empty != 0 {
                    let bit = empty.trailing_zeros();
                    empty &= empty - 1;
                    f(point_at(di, line as u32, bit - PAD, rows));
                }
            }
        }
    }

    /// The points of line `line` (direction index `di`) that lie in a five-point stretch
    /// holding no stone of the opponent of colour index `c` and no off-board point, with at
    /// least `mins[i]` stones of colour `c`: one mask per entry of `mins`.
    #[inline]
    fn stretches(&self, c: usize, di: usize, line: usize, mins: [u32; 3]) -> [u32; 3] {
        let own = self.stones[c][di][line];
        if own == 0 {
            return [0; 3];
        }
        let free = !(self.stones[1 - c][di][line] | self.edge[di][line]);
        // Bit s of each mask speaks of the stretch s..=s+4. It is clear when all five points
        // are free (bits past 31 read as blocked, so stretches leaving the mask never count).
        let clear = free & free >> 1 & free >> 2 & free >> 3 & free >> 4;
        let counts = StretchCounts::of(own);
        let mut good = [0u32; 3];
        for (g, &min) in good.iter_mut().zip(&mins) {
            let starts = clear & counts.at_least(min);
            *g = starts | starts << 1 | starts << 2 | starts << 3 | starts << 4;
        }
        good
    }

    /// For every empty point and each line through it, the most `color` stones (the point not
    /// counted, capped at 3) in a five-point stretch of that line holding no opponent stone
    /// and not leaving the board: [`super::Board::potentials`] for every point at once, as
    /// bit sets (see [`Support`]).
    pub(crate) fn support(&self, color: Color) -> Support {
        let rows = u32::from(self.rows);
        let c = color.index();
        let mut support = Support::default();
        for di in 0..4 {
            for line in 0..MAX_LINES {
                if self.counts[c][di][line] == 0 {
                    continue;
                }
                let own = self.stones[c][di][line];
                let levels = self.stretches(c, di, line, [1, 2, 3]).map(|m| m & !own);
                if di == 1 {
                    // A vertical line is a file: its bits are the file's ranks already.
                    for (level, &mask) in levels.iter().enumerate() {
                        support.add(level, line, mask >> PAD);
                    }
                    continue;
                }
                let mut empty = levels[0];
                while empty != 0 {
                    let bit = empty.trailing_zeros();
                    empty &= empty - 1;
                    let p = point_at(di, line as u32, bit - PAD, rows);
                    let (x, rank) = (usize::from(p.x()), 1u32 << p.y());
                    for (level, &mask) in levels.iter().enumerate() {
                        if mask >> bit & 1 != 0 {
                            support.add(level, x, rank);
                        }
                    }
                }
            }
        }
        support
    }

    /// The fewest `color` stones missing from any `k`-point stretch of one line that holds
    /// no opponent stone and no off-board point: how far `color` is from a win of length
    /// `k`, at best. `None` when no such stretch is left, so `color` can never make one.
    pub(crate) fn fewest_missing(&self, color: Color, k: u32) -> Option<u32> {
        let c = color.index();
        let span = (1u32 << k) - 1;
        let mut fewest: Option<u32> = None;
        for di in 0..4 {
            for line in 0..MAX_LINES {
                let free = !(self.stones[1 - c][di][line] | self.edge[di][line]);
                // Bit s of `starts`: the stretch from s to s+k-1 is free.
                let mut starts = free;
                for i in 1..k {
                    starts &= free >> i;
                }
                let own = self.stones[c][di][line];
                while starts != 0 {
                    let s = starts.trailing_zeros();
                    starts &= starts - 1;
                    let missing = k - (own & span << s).count_ones();
                    if fewest.is_none_or(|f| missing < f) {
                        fewest = Some(missing);
                    }
                }
            }
        }
        fewest
    }

    /// The whole line through `p` along direction index `di` as `color` sees it: (own stones,
    /// blocks, the bit of `p`), blocks being the opponent's stones and off-board points.
    #[inline]
    pub(crate) fn line_through(&self, di: usize, p: Point, color: Color) -> (u32, u32, u32) {
        let (line, pos) = locate(Direction::ALL[di], p, self.rows);
        let own = self.stones[color.index()][di][line];
        let blocked = self.stones[color.opponent().index()][di][line] | self.edge[di][line];
        (own, blocked, pos + PAD)
    }

    /// The window `p-5..=p+5` along direction index `di` as `color` sees it: (own stones,
    /// blocks) masks, blocks being the opponent's stones and off-board points, with `p` at bit
    /// 5 and `p+i` at bit `5+i`.
    #[inline(always)]
    pub(crate) fn window(&self, di: usize, p: Point, color: Color) -> (u32, u32) {
        let (line, pos) = locate(Direction::ALL[di], p, self.rows);
        let own = self.stones[color.index()][di][line];
        let blocked = self.stones[color.opponent().index()][di][line] | self.edge[di][line];
        ((own >> pos) & 0x7FF, (blocked >> pos) & 0x7FF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_has_its_own_bit_in_each_direction() {
        for size in [
            Size::STANDARD,
            Size::new(20, 20).unwrap(),
            Size::new(4, 3).unwrap(),
        ] {
            for d in Direction::ALL {
                let mut seen = std::collections::HashSet::new();
                for p in size.points() {
                    let (line, pos) = locate(d, p, size.rows());
                    assert!(line < MAX_LINES && pos + 2 * PAD < 32, "{d:?} {p}");
                    assert!(seen.insert((line, pos)), "{d:?} {p} collides");
                    let di = Direction::ALL.iter().position(|&e| e == d).unwrap();
                    assert_eq!(point_at(di, line as u32, pos, u32::from(size.rows())), p);
                    // The next point along the direction is the next bit of the same line.
                    if let Some(q) = p.step(d, 1, size) {
                        assert_eq!(locate(d, q, size.rows()), (line, pos + 1), "{d:?} {p}->{q}");
                    }
                }
            }
        }
    }

    /// The bit-sliced stretch counts equal counting each stretch, on random masks.
    #[test]
    fn stretch_counts_match_counting() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let own = seed as u32;
            let counts = StretchCounts::of(own);
            for s in 0..32 {
                let n = (own >> s & 0b11111).count_ones();
                for min in 0..=6 {
                    assert_eq!(
                        counts.at_least(min) >> s & 1 == 1,
                        n >= min,
                        "own {own:#x} at {s}, min {min}"
                    );
                }
            }
        }
    }

    #[test]
    fn edges_block() {
        let size = Size::STANDARD;
        let lines = Lines::new(size);
        // a1 horizontally: five off-board points to the left block, the board to the right is open.
        let (black, blocked) = lines.window(0, Point::new(0, 0), Color::Black);
        assert_eq!(black, 0);
        assert_eq!(blocked, 0b000_0001_1111);
        let (_, blocked) = lines.window(0, Point::new(7, 7), Color::White);
        assert_eq!(blocked, 0);
    }
}

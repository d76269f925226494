//! Fives and fours for either colour under any rule set: where a stone would complete a five,
//! and what one more stone makes. These are the questions the threat search asks.
//!
//! Under rules with a pattern table (win length five, other than caro) a query is four table
//! lookups; freestyle and gomoku with another win length read whole-line masks; caro counts
//! runs on the board directly (run counting is also the other two's cross-check in tests).

use super::board::Board;
use super::forbidden::{Verdict, quick_verdict_of};
use super::geometry::{Color, Direction, Point};
use super::patterns::{Entry, Fives, entries, pattern};
use super::rule::Rule;

/// What a stone at a point makes: a five, or fours and their five points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Four {
    /// The stone itself completes a five (a win under the rules).
    pub five: bool,
    /// Number of distinct five points: empty points where a second stone would complete a
    /// five containing this one. Two or more cannot both be blocked.
    pub count: u8,
    /// The first two five points found (in direction order, then along the line).
    pub points: [Option<Point>; 2],
}

impl Four {
    fn add(&mut self, q: Point) {
        if (self.count as usize) < self.points.len() {
            self.points[self.count as usize] = Some(q);
        }
        self.count = self.count.saturating_add(1);
    }

    /// The only five point, if there is exactly one.
    #[must_use]
    pub fn single(&self) -> Option<Point> {
        if self.count == 1 {
            self.points[0]
        } else {
            None
        }
    }
}

/// How the opponent can stop the fives a stone threatens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defence {
    /// The stone threatens no five.
    NoFour,
    /// No single stone stops every five it threatens.
    Unstoppable,
    /// Exactly one point stops them all: the reply is forced.
    Forced(Point),
    /// Several points each stop them all (caro only: a stone past either end of a five spoils
    /// it), so the reply is not forced.
    Choice(Vec<Point>),
}

impl Board {
    /// How the opponent can stop the fives the `color` stone at `p` (already on the board, or
    /// about to be, with `p` empty) threatens. Under every rule but caro a four is stopped only
    /// on its five point, so one five point is a forced reply and two are unstoppable. Under
    /// caro a five also fails when both of its end points are the opponent's, so a stone just
    /// past a four may stop it too: each candidate is tried on a copy of the board.
    #[must_use]
    pub fn defence(&self, p: Point, color: Color) -> Defence {
        self.defence_of(p, color, self.four_at(p, color))
    }

    /// [`Board::defence`] for a stone whose [`Board::four_at`] is already known.
    #[must_use]
    pub fn defence_of(&self, p: Point, color: Color, four: Four) -> Defence {
        if four.five || four.count == 0 {
            return Defence::NoFour;
        }
        if self.rules().rule() != crate::rules::Rule::Caro {
            return match four.single() {
                Some(f) => Defence::Forced(f),
                None => Defence::Unstoppable,
            };
        }
        // Caro: the five points and the points next to them along each line are the only
        // candidates (a five is at most five stones from p, its ends one further).
        let mut trial = self.clone();
        if trial.is_empty(p) {
            trial.put(p, color).expect("an empty point");
        }
        let mut stops = Vec::new();
        for d in Direction::ALL {
            for offset in -6..=6 {
                let Some(r) = p.step(d, offset, self.size()) else {
                    continue;
                };
                if !trial.is_empty(r) || stops.contains(&r) {
                    continue;
                }
                trial.put(r, color.opponent()).expect("an empty point");
                let after = trial.four_at(p, color);
                if after.count == 0 && !after.five {
                    stops.push(r);
                }
                trial.remove_setup(r);
            }
        }
        match stops.len() {
            0 => Defence::Unstoppable,
            1 => Defence::Forced(stops[0]),
            _ => Defence::Choice(stops),
        }
    }

    /// What a `color` stone at `p` makes, with `p` empty or already holding that stone. It does
    /// not judge whether the move is legal (see [`Board::forbidden`]). The answer depends only
    /// on the points within [`Board::reach`] steps of `p` along the four lines.
    #[must_use]
    pub fn four_at(&self, p: Point, color: Color) -> Four {
        match Fives::of(self.rules(), color) {
            Some(fives) => self.four_of(p, |di| pattern(self.lines(), di, p, color, fives)),
            None => match self.rules().rule() {
                Rule::Freestyle => self.four_by_masks(p, color, false),
                Rule::Gomoku => self.four_by_masks(p, color, true),
                _ => self.four_by_runs(p, color),
            },
        }
    }

    /// [`Board::four_at`] from whole-line masks, for freestyle (`exact` false: k or more in a
    /// row) and gomoku (`exact`: exactly k) with any win length k. A five is k points of one
    /// line, free of blocks, all `color` once `p` is added (and, exactly, with no `color`
    /// stone just past either end); a five point is the one missing point of such a stretch.
    fn four_by_masks(&self, p: Point, color: Color, exact: bool) -> Four {
        let k = u32::from(self.rules().k());
        let span = (1u32 << k) - 1;
        // Per direction: the five points' bits, and the bit of `p`.
        let mut found = [(0u32, 0u32); 4];
        for (di, (points, p_bit)) in found.iter_mut().enumerate() {
            let (own, blocked, at) = self.lines().line_through(di, p, color);
            *p_bit = at;
            let own = own | 1 << at;
            for s in at.saturating_sub(k - 1)..=at.min(32 - k) {
                let stretch = span << s;
                if blocked & stretch != 0 {
                    continue;
                }
                let ends = (1u32 << s >> 1) | 1u32.checked_shl(s + k).unwrap_or(0);
                if exact && own & ends != 0 {
                    continue;
                }
                let missing = stretch & !own;
                match missing.count_ones() {
                    0 => {
                        return Four {
                            five: true,
                            ..Four::default()
                        };
                    }
                    1 => *points |= missing,
                    _ => {}
                }
            }
        }
        let mut four = Four::default();
        for (d, (mut bits, at)) in Direction::ALL.into_iter().zip(found) {
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                let offset = bit as i32 - at as i32;
                four.add(
                    p.step(d, offset, self.size())
                        .expect("a five point is on the board"),
                );
            }
        }
        four
    }

    /// [`Board::four_at`] by counting runs on the board, for caro (and as the cross-check of
    /// the tables and the masks in tests).
    pub(crate) fn four_by_runs(&self, p: Point, color: Color) -> Four {
        if self.makes_five(p, color) {
            return Four {
                five: true,
                ..Four::default()
            };
        }
        let mut four = Four::default();
        let k = i32::from(self.rules().k());
        for d in Direction::ALL {
            for offset in (1 - k..k).filter(|&o| o != 0) {
                if let Some(q) = p.step(d, offset, self.size())
                    && self.is_empty(q)
                    && self.completes_five_with(p, q, d, color)
                {
                    four.add(q);
                }
            }
        }
        four
    }

    /// How far along a line the answers of [`Board::four_at`] and [`Board::forbidden_traced`]
    /// look from a point: five steps, or the win length where that is longer.
    #[must_use]
    pub fn reach(&self) -> u8 {
        self.rules().k().max(5)
    }

    /// Number of lines in which a `color` stone at `p` would make a three: a line, not yet a
    /// four, where one more stone could make a straight four. Legality of that stone is not
    /// judged (so this counts Black's "fake" threes too). Zero under rules without a pattern
    /// table.
    #[must_use]
    pub fn threes_at(&self, p: Point, color: Color) -> u32 {
        match Fives::of(self.rules(), color) {
            Some(fives) => (0..4)
                .filter(|&di| {
                    pattern(self.lines(), di, p, color, fives)
                        .three_offsets()
                        .next()
                        .is_some()
                })
                .count() as u32,
            None => 0,
        }
    }

    /// Whether a `color` stone at `p` makes a four (`four_at(p, color).count > 0`: at least one
    /// five point, and no five) and whether it makes a three in some line
    /// (`threes_at(p, color) > 0`): the two questions asked of a threat candidate, from one
    /// reading of its four lines. Under rules without a pattern table there are no threes, as
    /// in [`Board::threes_at`].
    #[must_use]
    pub fn four_and_three(&self, p: Point, color: Color) -> (bool, bool) {
        let Some(fives) = Fives::of(self.rules(), color) else {
            return (self.four_at(p, color).count > 0, false);
        };
        let entries = entries(self.lines(), p, color, fives);
        let four = self.four_of(p, |di| entries[di]).count > 0;
        let three = entries.iter().any(|e| e.three_offsets().next().is_some());
        (four, three)
    }

    /// For each of the four lines through the empty point `p`, the most `color` stones (`p` not
    /// counted) in any five-point stretch of the line through `p` that holds no opponent stone
    /// and does not leave the board. A stone at `p` makes a four only in a line where this is 3
    /// or more, and a three only where it is 2 or more.
    #[must_use]
    pub fn potentials(&self, p: Point, color: Color) -> [u32; 4] {
        [0, 1, 2, 3].map(|di| {
            let (own, blocked) = self.lines().window(di, p, color);
            (1..=5)
                .map(|s| 0b11111u32 << s)
                .filter(|&span| blocked & span == 0)
                .map(|span| (own & span & !(1 << 5)).count_ones())
                .max()
                .unwrap_or(0)
        })
    }

    /// Every empty point where `color` would complete a five now, file by file.
    #[must_use]
    pub fn five_points(&self, color: Color) -> Vec<Point> {
        // No allocation in the usual case of none.
        let mut fives = Vec::new();
        match Fives::of(self.rules(), color) {
            Some(_) => self.crowded(color, 4, |p| {
                if self.four_at(p, color).five {
                    fives.push(p);
                }
            }),
            None => fives.extend(
                self.points()
                    .filter(|&p| self.is_empty(p) && self.makes_five(p, color)),
            ),
        }
        fives
    }

    /// Every empty point where a `color` stone makes a four (or a five), file by file, with
    /// what it makes.
    #[must_use]
    pub fn four_points(&self, color: Color) -> Vec<(Point, Four)> {
        let mut fours = Vec::with_capacity(16);
        self.four_points_into(color, &mut fours);
        fours
    }

    /// [`Board::four_points`], appended to `fours`.
    pub(crate) fn four_points_into(&self, color: Color, fours: &mut Vec<(Point, Four)>) {
        self.each_four_point(color, |p, four| fours.push((p, four)));
    }

    /// Calls `f` with each of [`Board::four_points`].
    fn each_four_point(&self, color: Color, mut f: impl FnMut(Point, Four)) {
        let with_four = |p: Point| {
            let four = self.four_at(p, color);
            if four.five || four.count > 0 {
                f(p, four);
            }
        };
        match Fives::of(self.rules(), color) {
            Some(_) => self.crowded(color, 3, with_four),
            None => self
                .points()
                .filter(|&p| self.is_empty(p))
                .for_each(with_four),
        }
    }

    /// [`Board::four_points_into`] with each point's legality for `color` where one reading of
    /// its lines tells it: `Some(legal)`, or `None` where only the recursive double-three test
    /// can (Black under renju; see [`Board::is_legal_for`]).
    pub(crate) fn four_points_legal_into(
        &self,
        color: Color,
        fours: &mut Vec<(Point, Four, Option<bool>)>,
    ) {
        if color != Color::Black || !self.rules().has_forbidden() {
            // Every empty point is legal.
            self.each_four_point(color, |p, four| fours.push((p, four, Some(true))));
            return;
        }
        // Renju's Black: the same four line entries tell the four and, mostly, the verdict.
        self.crowded(color, 3, |p| {
            let entries = entries(self.lines(), p, color, Fives::Exact);
            let four = self.four_of(p, |di| entries[di]);
            if four.five || four.count > 0 {
                let legal = quick_verdict_of(&entries)
                    .map(|verdict| !matches!(verdict, Verdict::Forbidden(_)));
                fours.push((p, four, legal));
            }
        });
    }

    /// What a stone at `p` makes, from its line entries (`entry(di)` for the direction index
    /// `di`, read in order until one makes a five; see [`Board::four_at`]).
    #[inline(always)]
    fn four_of(&self, p: Point, entry: impl Fn(usize) -> Entry) -> Four {
        let mut four = Four::default();
        for (di, d) in Direction::ALL.into_iter().enumerate() {
            let e = entry(di);
            if e.five() {
                return Four {
                    five: true,
                    ..Four::default()
                };
            }
            for offset in e.five_point_offsets() {
                four.add(
                    p.step(d, offset, self.size())
                        .expect("a five point is on the board"),
                );
            }
        }
        four
    }

    /// Calls `f` for each empty point with at least `min` `color` stones within four points
    /// along some line, file by file, once each.
    fn crowded(&self, color: Color, min: u32, mut f: impl FnMut(Point)) {
        // Per file, the ranks seen.
        let mut files = [0u32; 20];
        self.lines().crowded_points(color, min, |p| {
            files[usize::from(p.x())] |= 1 << p.y();
        });
        for (x, &ranks) in files.iter().enumerate() {
            let mut ranks = ranks;
            while ranks != 0 {
                let y = ranks.trailing_zeros();
                ranks &= ranks - 1;
                f(Point::new(x as u8, y as u8));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::notation::{PositionOptions, parse_position};
    use crate::rules::{Board, Color, Point, Rule, Rules, Size};

    proptest! {
        /// The pattern tables and plain run counting agree on every point, for both colours,
        /// under each rule with a table.
        #[test]
        fn tables_agree_with_run_counting(
            rule in prop_oneof![Just(Rule::Renju), Just(Rule::Gomoku), Just(Rule::Freestyle)],
            cells in proptest::collection::vec(0u8..3, 81),
        ) {
            let mut b = Board::new(Size::STANDARD, Rules::new(rule, None).unwrap());
            for (i, c) in cells.into_iter().enumerate() {
                let p = Point::new(3 + (i % 9) as u8, 3 + (i / 9) as u8);
                match c {
                    1 => b.put(p, Color::Black).unwrap(),
                    2 => b.put(p, Color::White).unwrap(),
                    _ => {}
                }
            }
            for color in [Color::Black, Color::White] {
                // The line-mask candidates find exactly the points a full scan finds.
                let scan: Vec<Point> = b.points().filter(|&p| b.is_empty(p) && b.makes_five(p, color)).collect();
                prop_assert_eq!(b.five_points(color), scan);
                let fours: Vec<Point> = b.points().filter(|&p| {
                    let f = b.four_by_runs(p, color);
                    b.is_empty(p) && (f.five || f.count > 0)
                }).collect();
                prop_assert_eq!(b.four_points(color).into_iter().map(|(p, _)| p).collect::<Vec<_>>(), fours);
                // With legality: the same fours, and a legality wherever it is given that the
                // full test confirms.
                let mut legal = Vec::new();
                b.four_points_legal_into(color, &mut legal);
                let plain: Vec<_> = legal.iter().map(|&(p, four, _)| (p, four)).collect();
                prop_assert_eq!(plain, b.four_points(color));
                for (p, _, l) in legal {
                    if let Some(l) = l {
                        prop_assert_eq!(l, b.is_legal_for(p, color), "{} {}", p, color);
                    }
                }
            }
            for p in b.points().filter(|&p| b.is_empty(p)) {
                for color in [Color::Black, Color::White] {
                    let (t, r) = (b.four_at(p, color), b.four_by_runs(p, color));
                    prop_assert_eq!(
                        b.four_and_three(p, color),
                        (t.count > 0, b.threes_at(p, color) > 0),
                        "{} {}", p, color
                    );
                    prop_assert_eq!(t.five, r.five, "{} {}", p, color);
                    if !t.five {
                        prop_assert_eq!(t.count, r.count, "{} {}", p, color);
                        let mut tp = t.points; let mut rp = r.points;
                        tp.sort(); rp.sort();
                        if t.count <= 2 { prop_assert_eq!(tp, rp, "{} {}", p, color); }
                    }
                }
            }
        }
    }

    proptest! {
        /// Without a pattern table (win length other than five), the line-mask answer of
        /// freestyle and gomoku equals run counting on every point, for both colours: the same
        /// five, the same five points in the same order.
        #[test]
        fn masks_agree_with_run_counting(
            exact in any::<bool>(),
            k in 3u32..=9,
            cols in 3u32..=20,
            rows in 3u32..=20,
            cells in proptest::collection::vec(0u8..3, 400),
        ) {
            let rule = if exact { Rule::Gomoku } else { Rule::Freestyle };
            let size = Size::new(cols, rows).unwrap();
            let mut b = Board::new(size, Rules::new(rule, Some(k)).unwrap());
            for (p, c) in size.points().zip(cells) {
                match c {
                    1 => b.put(p, Color::Black).unwrap(),
                    2 => b.put(p, Color::White).unwrap(),
                    _ => {}
                }
            }
            for p in b.points() {
                for color in [Color::Black, Color::White] {
                    if b.stone(p).is_some_and(|c| c != color) {
                        continue;
                    }
                    let (m, r) = (b.four_at(p, color), b.four_by_runs(p, color));
                    prop_assert_eq!(m.five, r.five, "{} {} k={}", p, color, k);
                    if !m.five {
                        prop_assert_eq!(m.count, r.count, "{} {} k={}", p, color, k);
                        prop_assert_eq!(m.points, r.points, "{} {} k={}", p, color, k);
                    }
                }
            }
        }
    }

    proptest! {
        /// The line masks report, for every empty point, the same per-line potentials as
        /// [`Board::potentials`] (capped at 3), on boards of every shape.
        #[test]
        fn support_is_the_potentials(
            cols in 3u32..=20,
            rows in 3u32..=20,
            cells in proptest::collection::vec(0u8..4, 400),
        ) {
            let size = Size::new(cols, rows).unwrap();
            let mut b = Board::new(size, Rules::renju());
            for (p, c) in size.points().zip(cells) {
                match c {
                    1 => b.put(p, Color::Black).unwrap(),
                    2 => b.put(p, Color::White).unwrap(),
                    _ => {}
                }
            }
            for color in [Color::Black, Color::White] {
                let support = b.lines().support(color);
                for x in 0..20u8 {
                    for y in 0..20u8 {
                        let p = Point::new(x, y);
                        let potentials = if size.contains(p) && b.is_empty(p) {
                            b.potentials(p, color)
                        } else {
                            [0; 4]
                        };
                        for level in 1..=3 {
                            let lines = potentials.iter().filter(|&&n| n >= level).count();
                            let l = level as usize - 1;
                            let once = support.once[l][usize::from(x)] >> y & 1 == 1;
                            let twice = support.twice[l][usize::from(x)] >> y & 1 == 1;
                            prop_assert_eq!((once, twice), (lines >= 1, lines >= 2), "{} {} level {}", p, color, level);
                        }
                    }
                }
            }
        }
    }

    fn board(moves: &str, rules: Rules) -> crate::rules::Board {
        parse_position(
            moves,
            &PositionOptions {
                rules,
                to_move: None,
                size: Size::STANDARD,
            },
        )
        .unwrap()
    }

    fn points(f: super::Four) -> Vec<String> {
        f.points.iter().flatten().map(ToString::to_string).collect()
    }

    #[test]
    fn fours_for_both_colours() {
        // Black h8 i8 j8 (and White somewhere else): k8 makes a straight four g8/l8... with h8-k8.
        let b = board("h8 a1 i8 a2 j8 a3", Rules::renju());
        let f = b.four_at("k8".parse().unwrap(), Color::Black);
        assert_eq!((f.five, f.count), (false, 2));
        assert_eq!(points(f), ["g8", "l8"]);
        let w = b.four_at("a4".parse().unwrap(), Color::White);
        assert_eq!((w.five, w.count), (false, 1));
        assert_eq!(points(w), ["a5"]);
        assert!(
            !b.four_at("a5".parse().unwrap(), Color::White).five,
            "a4 is still empty"
        );
        assert_eq!(
            b.five_points(Color::White),
            Vec::<crate::rules::Point>::new()
        );
    }

    #[test]
    fn caro_fours_can_be_stopped_past_their_end() {
        use super::Defence;
        let caro = Rules::new(Rule::Caro, None).unwrap();
        // White h9 h10 h11 h12 with Black on h7: h13 stops both h8 and h13.
        let b = board("h7 h9 a1 h10 a15 h11 a3 h12", caro);
        let h12 = "h12".parse().unwrap();
        assert_eq!(
            b.defence(h12, Color::White),
            Defence::Forced("h13".parse().unwrap())
        );
        // Without the Black stone at h7 it is an open four, and the same under gomoku rules.
        let open = board("a7 h9 a1 h10 a15 h11 a3 h12", caro);
        assert_eq!(open.defence(h12, Color::White), Defence::Unstoppable);
        let gomoku = board(
            "h7 h9 a1 h10 a15 h11 a3 h12",
            Rules::new(Rule::Gomoku, None).unwrap(),
        );
        assert_eq!(gomoku.defence(h12, Color::White), Defence::Unstoppable);
        // A plain caro four h9-h12 with h13 Black: h8 makes five with one end open; h8 or g8?
        // White h9-h12 with Black on h13: h8 makes five, and Black stops it on h8 or just past
        // it on h7 (then both ends would be Black's). Not forced.
        let one = board("h13 h9 a1 h10 a15 h11 a3 h12", caro);
        let both = vec!["h7".parse().unwrap(), "h8".parse().unwrap()];
        assert_eq!(one.defence(h12, Color::White), Defence::Choice(both));
    }

    #[test]
    fn threes_are_counted_per_line() {
        let b = board("h8 a1 i8 a2 h9 a4", Rules::renju());
        assert_eq!(b.threes_at("j8".parse().unwrap(), Color::Black), 1);
        assert_eq!(b.threes_at("h10".parse().unwrap(), Color::Black), 1);
        assert_eq!(b.threes_at("g7".parse().unwrap(), Color::Black), 0);
        assert_eq!(
            b.threes_at("a3".parse().unwrap(), Color::White),
            0,
            "a1 a2 a3 a4 is a four"
        );
    }

    #[test]
    fn potential_counts_stones_in_open_stretches() {
        let b = board("h8 a1 i8 a2 j8 a3", Rules::renju());
        let max = |p: &str, c| {
            b.potentials(p.parse().unwrap(), c)
                .into_iter()
                .max()
                .unwrap()
        };
        assert_eq!(
            b.potentials("k8".parse().unwrap(), Color::Black),
            [3, 0, 0, 0]
        );
        assert_eq!(max("m8", Color::Black), 2);
        assert_eq!(max("n8", Color::Black), 1);
        assert_eq!(max("o8", Color::Black), 0);
        // i9 sees i8 below, h8 on one diagonal and j8 on the other.
        assert_eq!(
            b.potentials("i9".parse().unwrap(), Color::Black),
            [0, 1, 1, 1]
        );
        // White's a1 a2 a3 touch the edge: a4 still has a clear a1-a5 stretch.
        assert_eq!(
            b.potentials("a4".parse().unwrap(), Color::White),
            [0, 3, 0, 0]
        );
        assert_eq!(max("b5", Color::White), 0);
    }

    #[test]
    fn generic_rules_agree_with_tables() {
        // Gomoku with k=5 has a table; k=4 and caro use run counting. Same position, k=4:
        // h8 i8 j8 already need one stone: g8 and k8 complete four.
        let k4 = board("h8 a1 i8 a3 j8", Rules::new(Rule::Gomoku, Some(4)).unwrap());
        let mut fp = k4.five_points(Color::Black);
        fp.sort();
        assert_eq!(
            fp.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["g8", "k8"]
        );
        let caro = board(
            "h8 g8 i8 a3 j8 a5 k8",
            Rules::new(Rule::Caro, None).unwrap(),
        );
        // g8 is White: l8 would make five with one end held by White and the other open.
        assert_eq!(
            caro.five_points(Color::Black)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["l8"]
        );
        let f = caro.four_at("l8".parse().unwrap(), Color::Black);
        assert!(f.five);
    }
}

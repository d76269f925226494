//! A board picture as an SVG document: grid, coordinates on the edges, stones with move
//! numbers, and Black's forbidden points marked.

use std::fmt::Write as _;

use crate::rules::{Board, Color, Forbidden, Point};

const CELL: f64 = 32.0;
const MARGIN: f64 = 40.0;

fn center(p: Point, rows: u8) -> (f64, f64) {
    (
        MARGIN + f64::from(p.x()) * CELL,
        MARGIN + f64::from(rows - 1 - p.y()) * CELL,
    )
}

/// Renders `board` with its forbidden points marked. Stones played as moves carry their move
/// numbers; set-up stones (from a diagram) carry none.
#[must_use]
pub fn render(board: &Board, forbidden: &[(Point, Forbidden)]) -> String {
    let size = board.size();
    let (cols, rows) = (size.cols(), size.rows());
    let width = 2.0 * MARGIN + f64::from(cols - 1) * CELL;
    let height = 2.0 * MARGIN + f64::from(rows - 1) * CELL;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#e8c27a"/>"##);
    let (left, right) = (MARGIN, MARGIN + f64::from(cols - 1) * CELL);
    let (top, bottom) = (MARGIN, MARGIN + f64::from(rows - 1) * CELL);
    for x in 0..cols {
        let cx = MARGIN + f64::from(x) * CELL;
        let _ = writeln!(
            s,
            r#"<line x1="{cx}" y1="{top}" x2="{cx}" y2="{bottom}" stroke="black" stroke-width="1"/>"#
        );
        let letter = (b'A' + x) as char;
        for y in [top - 18.0, bottom + 26.0] {
            let _ = writeln!(
                s,
                r#"<text x="{cx}" y="{y}" font-size="14" text-anchor="middle">{letter}</text>"#
            );
        }
    }
    for y in 0..rows {
        let cy = MARGIN + f64::from(rows - 1 - y) * CELL;
        let _ = writeln!(
            s,
            r#"<line x1="{left}" y1="{cy}" x2="{right}" y2="{cy}" stroke="black" stroke-width="1"/>"#
        );
        let rank = y + 1;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="14" text-anchor="end">{rank}</text>"#,
            left - 16.0,
            cy + 5.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="14" text-anchor="start">{rank}</text>"#,
            right + 16.0,
            cy + 5.0
        );
    }
    let number = |p: Point| board.moves().iter().position(|&m| m == p).map(|i| i + 1);
    for (p, color) in board.stones() {
        let (cx, cy) = center(p, rows);
        let (fill, ink) = match color {
            Color::Black => ("black", "white"),
            Color::White => ("white", "black"),
        };
        let _ = writeln!(
            s,
            r#"<circle class="stone {color}" cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="black" stroke-width="1"/>"#,
            CELL * 0.45
        );
        if let Some(n) = number(p) {
            let _ = writeln!(
                s,
                r#"<text x="{cx}" y="{}" font-size="13" text-anchor="middle" fill="{ink}">{n}</text>"#,
                cy + 4.5
            );
        }
    }
    for &(p, kind) in forbidden {
        let (cx, cy) = center(p, rows);
        let d = CELL * 0.22;
        let _ = writeln!(
            s,
            r##"<g class="forbidden {kind}"><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#c00000" stroke-width="2.5"/><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#c00000" stroke-width="2.5"/><text x="{}" y="{}" font-size="10" fill="#c00000">{}</text></g>"##,
            cx - d,
            cy - d,
            cx + d,
            cy + d,
            cx - d,
            cy + d,
            cx + d,
            cy - d,
            cx + d + 1.0,
            cy - d,
            kind.mark()
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{PositionOptions, parse_position};

    #[test]
    fn numbers_stones_and_marks_forbidden_points() {
        let board =
            parse_position("h9 a1 h10 a2 i8 a3 j8 a4", &PositionOptions::default()).unwrap();
        let forbidden = board.forbidden_points();
        let svg = render(&board, &forbidden);
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("class=\"stone black\"").count(), 4);
        assert_eq!(svg.matches("class=\"stone white\"").count(), 4);
        assert!(svg.contains(">8</text>"), "move numbers");
        assert_eq!(
            svg.matches("class=\"forbidden double-three\"").count(),
            forbidden.len()
        );
        assert!(!forbidden.is_empty());
        assert!(
            svg.contains(">O</text>") && svg.contains(">15</text>"),
            "coordinates"
        );
    }
}

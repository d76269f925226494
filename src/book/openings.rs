//! The 26 standard renju openings (`data/openings/openings.txt`, built into the binary): Black 1
//! at h8, White 2 at h9 (direct openings D1 to D13) or i9 (indirect, I1 to I13), and Black 3.

use crate::rules::Point;

/// The openings file, as bundled.
const OPENINGS: &str = include_str!("../../data/openings/openings.txt");

/// One standard opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `D1` to `D13`, `I1` to `I13`.
    pub code: String,
    /// The Japanese name in romaji, like `Kagetsu`.
    pub name: String,
    /// The informal English name, like `Flower Moon`.
    pub english: String,
    /// Moves 1 to 3.
    pub moves: [Point; 3],
}

impl Opening {
    /// `D4 Kagetsu`, for messages and book root names.
    #[must_use]
    pub fn title(&self) -> String {
        format!("{} {}", self.code, self.name)
    }
}

/// Every opening, D1 to D13 then I1 to I13.
///
/// # Panics
/// Never on the bundled file, which a test reads in full.
#[must_use]
pub fn all() -> Vec<Opening> {
    OPENINGS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let n = fields.len();
            let point = |s: &str| s.parse::<Point>().expect("the bundled openings parse");
            Opening {
                code: fields[0].to_string(),
                name: fields[1].to_string(),
                english: fields[2..n - 3].join(" "),
                moves: [
                    point(fields[n - 3]),
                    point(fields[n - 2]),
                    point(fields[n - 1]),
                ],
            }
        })
        .collect()
}

/// The opening with this code (`d4`, `D4`) or name (`kagetsu`, `Flower Moon`), in any case.
///
/// # Errors
/// A message listing the codes when nothing matches.
pub fn find(key: &str) -> Result<Opening, String> {
    let key = key.trim();
    all()
        .into_iter()
        .find(|o| {
            o.code.eq_ignore_ascii_case(key)
                || o.name.eq_ignore_ascii_case(key)
                || o.english.eq_ignore_ascii_case(key)
        })
        .ok_or_else(|| {
            format!(
                "unknown opening `{key}`: give a code D1 to D13 or I1 to I13, or a name like Kagetsu"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_file_has_the_26_openings() {
        let all = all();
        assert_eq!(all.len(), 26);
        let h8: Point = "h8".parse().unwrap();
        for (i, o) in all.iter().enumerate() {
            let direct = i < 13;
            let code = format!("{}{}", if direct { 'D' } else { 'I' }, i % 13 + 1);
            assert_eq!(o.code, code);
            assert_eq!(o.moves[0], h8);
            let second = if direct { "h9" } else { "i9" };
            assert_eq!(o.moves[1], second.parse().unwrap());
            // Move 3 is within two steps of the centre, on an empty point.
            let (dx, dy) = (i32::from(o.moves[2].x()) - 7, i32::from(o.moves[2].y()) - 7);
            assert!(dx.abs() <= 2 && dy.abs() <= 2, "{}", o.code);
            assert!(o.moves[2] != o.moves[0] && o.moves[2] != o.moves[1]);
        }
    }

    #[test]
    fn openings_are_found_by_code_or_name_in_any_case() {
        assert_eq!(find("d4").unwrap().name, "Kagetsu");
        assert_eq!(find("KAGETSU").unwrap().code, "D4");
        assert_eq!(find("flower moon").unwrap().code, "D4");
        assert_eq!(find("I13").unwrap().name, "Suisei");
        assert!(find("D14").unwrap_err().contains("D1 to D13"));
    }
}

//! The code pages of a library's texts: [`Encoding`], what [`Encoding::Auto`] picks when
//! reading (a guess from the texts) and when writing, and the decoding and encoding of texts.

use std::fmt;
use std::str::FromStr;

use super::{Library, Texts};

/// The code page of a library's texts (comments and board texts). Files do not name theirs:
/// it is the one of the Windows system the author used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Reading: UTF-8 if every text is valid UTF-8 (as ASCII is), else GBK or Shift-JIS,
    /// whichever decodes with fewer errors; when both decode cleanly, the one whose reading has
    /// more everyday characters (GB2312's level-1 hanzi and symbols, JIS X 0208's level-1
    /// kanji, kana and symbols: text in one code page read in the other falls mostly outside);
    /// on a tie, Shift-JIS if its reading has kana and no half-width katakana, else GBK. The
    /// guess is for the whole file, and can go wrong when its texts are very few: a few GBK
    /// characters can be valid UTF-8 by chance (`斜` is `D0 B1`, UTF-8 for `б`).
    /// Cyrillic and Western European libraries need [`Encoding::Cp1251`] or
    /// [`Encoding::Cp1252`] named. Writing: the first of the
    /// library's own [`Library::encoding`] (the one it was read in), GBK, Shift-JIS, CP1252
    /// and CP1251 that holds every text, else UTF-8; ASCII texts are the same in all of them.
    #[default]
    Auto,
    /// UTF-8.
    Utf8,
    /// GBK (Windows code page 936, a superset of GB2312): Chinese libraries.
    Gbk,
    /// Shift-JIS (Windows code page 932): Japanese libraries.
    ShiftJis,
    /// Windows-1251: Russian and other Cyrillic libraries.
    Cp1251,
    /// Windows-1252: Western European libraries, RenLib's own (Swedish) ones among them.
    Cp1252,
}

impl Encoding {
    /// Every encoding, for help texts and tests.
    pub const ALL: [Encoding; 6] = [
        Encoding::Auto,
        Encoding::Utf8,
        Encoding::Gbk,
        Encoding::ShiftJis,
        Encoding::Cp1251,
        Encoding::Cp1252,
    ];

    /// The name [`Encoding::from_str`] reads.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Auto => "auto",
            Encoding::Utf8 => "utf-8",
            Encoding::Gbk => "gbk",
            Encoding::ShiftJis => "shift-jis",
            Encoding::Cp1251 => "cp1251",
            Encoding::Cp1252 => "cp1252",
        }
    }

    /// The codec (`Auto` is resolved before one is needed).
    pub(super) fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::Auto | Encoding::Gbk => encoding_rs::GBK,
            Encoding::ShiftJis => encoding_rs::SHIFT_JIS,
            Encoding::Cp1251 => encoding_rs::WINDOWS_1251,
            Encoding::Cp1252 => encoding_rs::WINDOWS_1252,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;

    /// Reads `auto`, `utf-8`, `gbk`, `shift-jis` or `cp1251`, `cp1252`, and the usual other
    /// names of each (`utf8`, `gb2312`, `cp936`, `sjis`, `cp932`, `windows-1251`, ...).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "auto" => Ok(Encoding::Auto),
            "utf-8" | "utf8" => Ok(Encoding::Utf8),
            "gbk" | "gb2312" | "gb18030" | "cp936" => Ok(Encoding::Gbk),
            "shift-jis" | "shiftjis" | "sjis" | "cp932" => Ok(Encoding::ShiftJis),
            "cp1251" | "windows-1251" => Ok(Encoding::Cp1251),
            "cp1252" | "windows-1252" | "latin1" => Ok(Encoding::Cp1252),
            _ => Err(format!(
                "unknown encoding `{s}`: expected auto, utf-8, gbk, shift-jis, cp1251 or cp1252"
            )),
        }
    }
}

/// The texts of one node as read, before decoding.
#[derive(Default)]
pub(super) struct RawTexts {
    /// The comment's bytes (the one-line part, then byte 8 and the multi-line part).
    pub(super) comment: Option<Vec<u8>>,
    /// An old-style comment, already decoded.
    pub(super) old_comment: Option<String>,
    /// The board text's bytes.
    pub(super) board_text: Option<Vec<u8>>,
}

/// Decodes every node's texts with `encoding` (resolved first if `Auto`), returning the one
/// used.
pub(super) fn decode_texts(
    library: &mut Library,
    raw: Vec<RawTexts>,
    encoding: Encoding,
) -> Encoding {
    let all: Vec<&[u8]> = raw
        .iter()
        .flat_map(|t| [t.comment.as_deref(), t.board_text.as_deref()])
        .flatten()
        .collect();
    let encoding = resolve(encoding, &all);
    let decode = |bytes: &[u8]| -> Option<String> {
        let (text, _) = encoding.codec().decode_without_bom_handling(bytes);
        (!text.is_empty()).then(|| text.into_owned())
    };
    for (node, texts) in library.nodes.iter_mut().zip(raw) {
        let (one_line, multi_line) = match (texts.old_comment, texts.comment) {
            (Some(old), _) => match old.split_once('\u{8}') {
                Some((one, multi)) => (non_empty(one), non_empty(multi)),
                None => (non_empty(&old), None),
            },
            (None, Some(bytes)) => match bytes.iter().position(|&b| b == 8) {
                Some(i) => (decode(&bytes[..i]), decode(&bytes[i + 1..])),
                None => (decode(&bytes), None),
            },
            (None, None) => (None, None),
        };
        let board_text = texts.board_text.as_deref().and_then(decode);
        if one_line.is_some() || multi_line.is_some() || board_text.is_some() {
            *node.texts_mut() = Texts {
                comment: one_line,
                multi_line_comment: multi_line,
                board_text,
            };
        }
    }
    encoding
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

/// The encoding [`Encoding::Auto`] picks for these texts (see there); others stay.
fn resolve(encoding: Encoding, texts: &[&[u8]]) -> Encoding {
    if encoding != Encoding::Auto {
        return encoding;
    }
    if texts.iter().all(|t| std::str::from_utf8(t).is_ok()) {
        return Encoding::Utf8;
    }
    let errors = |codec: &'static encoding_rs::Encoding| {
        texts
            .iter()
            .filter(|t| codec.decode_without_bom_handling(t).1)
            .count()
    };
    let (gbk, sjis) = (errors(encoding_rs::GBK), errors(encoding_rs::SHIFT_JIS));
    if gbk != sjis {
        return if gbk < sjis {
            Encoding::Gbk
        } else {
            Encoding::ShiftJis
        };
    }
    let (gbk, sjis) = (
        common_characters(texts, false),
        common_characters(texts, true),
    );
    if gbk != sjis {
        return if gbk > sjis {
            Encoding::Gbk
        } else {
            Encoding::ShiftJis
        };
    }
    let (mut kana, mut half_width) = (false, false);
    for t in texts {
        let (text, _) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(t);
        kana |= text.chars().any(|c| ('\u{3040}'..='\u{30FF}').contains(&c));
        half_width |= text.chars().any(|c| ('\u{FF61}'..='\u{FF9F}').contains(&c));
    }
    if kana && !half_width {
        Encoding::ShiftJis
    } else {
        Encoding::Gbk
    }
}

/// The two-byte characters of `texts`, read as Shift-JIS (`shift_jis`) or GBK, that are in
/// the everyday part of that code page: in GBK the symbols, kana and level-1 hanzi of GB2312
/// (lead bytes `A1` to `A9` and `B0` to `D7`); in Shift-JIS the symbols, kana and level-1
/// kanji of JIS X 0208 (lead bytes `81` to `84` and `88` to `9F`). Text in the other code
/// page, read in this one, falls mostly outside.
fn common_characters(texts: &[&[u8]], shift_jis: bool) -> usize {
    let mut count = 0;
    for text in texts {
        let mut bytes = text.iter();
        while let Some(&lead) = bytes.next() {
            let double = if shift_jis {
                matches!(lead, 0x81..=0x9F | 0xE0..=0xFC)
            } else {
                lead >= 0x81
            };
            if !double {
                continue;
            }
            bytes.next();
            let common = if shift_jis {
                matches!(lead, 0x81..=0x84 | 0x88..=0x9F)
            } else {
                matches!(lead, 0xA1..=0xA9 | 0xB0..=0xD7)
            };
            count += usize::from(common);
        }
    }
    count
}

/// The code page `encoding` stands for when writing `library` (see [`Encoding::Auto`]).
pub(super) fn writing_encoding(library: &Library, encoding: Encoding) -> Encoding {
    if encoding != Encoding::Auto {
        return encoding;
    }
    let texts: Vec<&str> = library
        .nodes
        .iter()
        .flat_map(|n| [n.comment(), n.multi_line_comment(), n.board_text()])
        .flatten()
        .collect();
    [
        library.encoding,
        Encoding::Gbk,
        Encoding::ShiftJis,
        Encoding::Cp1252,
        Encoding::Cp1251,
    ]
    .into_iter()
    .filter(|&e| e != Encoding::Auto && e != Encoding::Utf8)
    .find(|e| texts.iter().all(|t| !e.codec().encode(t).2))
    .unwrap_or(Encoding::Utf8)
}

/// A text's bytes, without zero bytes.
pub(super) fn encode_text(text: &str, encoding: Encoding) -> Vec<u8> {
    let text = text.replace('\0', "");
    let (bytes, _, _) = encoding.codec().encode(&text);
    bytes.into_owned()
}

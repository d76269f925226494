//! The book's journal (`BOOK.journal`): the whole book as one bincode value behind a magic,
//! a version and a checksum, checked for damage on reading.

use super::{Book, BookError, NO_PARENT};

/// The first 8 bytes of every book journal.
pub const MAGIC: [u8; 8] = *b"RENJU-BK";
/// The journal format version this build writes and reads.
pub const VERSION: u32 = 1;

impl Book {
    /// The journal's bytes: [`MAGIC`], the version (u32, little-endian), a CRC-32 of the
    /// body, then the book as one bincode value (standard configuration).
    ///
    /// # Panics
    /// Never: every field serialises.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let body = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a book serialises");
        let mut bytes = Vec::with_capacity(body.len() + 16);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// Reads a journal written by [`Book::encode`], and sets up the search numbers.
    ///
    /// # Errors
    /// [`BookError::Damaged`] or [`BookError::Version`].
    pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 16 || bytes[..8] != MAGIC {
            return Err(BookError::Damaged(
                "it does not start like a book journal".to_string(),
            ));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let crc = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        let body = &bytes[16..];
        if crc32fast::hash(body) != crc {
            return Err(BookError::Damaged(
                "its checksum does not match (a truncated or changed file)".to_string(),
            ));
        }
        let (mut book, used): (Book, usize) =
            bincode::serde::decode_from_slice(body, bincode::config::standard())
                .map_err(|e| BookError::Damaged(e.to_string()))?;
        if used != body.len() {
            return Err(BookError::Damaged("bytes after the book".to_string()));
        }
        book.validate()?;
        book.recompute();
        Ok(book)
    }

    /// Checks the references of a decoded book, so that no later step can index out of range.
    fn validate(&self) -> Result<(), BookError> {
        let n = self.nodes.len() as u32;
        let bad = |what: String| Err(BookError::Damaged(what));
        for (i, root) in self.roots.iter().enumerate() {
            if root.node >= n || self.nodes[root.node as usize].root != i as u32 {
                return bad(format!("root {i} names no node of its own"));
            }
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if node.root as usize >= self.roots.len() {
                return bad(format!("position {i} is under no root"));
            }
            if node.parent != NO_PARENT && node.parent >= i as u32 {
                return bad(format!("position {i} has a later parent"));
            }
            if node.children.iter().any(|&c| c <= i as u32 || c >= n) {
                return bad(format!("position {i} has a child out of order"));
            }
            if node.play.is_some_and(|p| !self.size.contains(p)) {
                return bad(format!("position {i} plays off the board"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::RoundOptions;
    use crate::book::tests::{VCT_BLACK, board};
    use crate::db::Builder;
    use crate::rules::{Color, Rules, Size};

    #[test]
    fn the_journal_round_trips_and_damage_is_an_error() {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let options = RoundOptions {
            position_nodes: Some(500),
            threads: 1,
            ..RoundOptions::default()
        };
        for _ in 0..5 {
            book.round(&mut db, &options, &pool).unwrap();
        }
        let bytes = book.encode();
        let back = Book::decode(&bytes).unwrap();
        assert_eq!(back.encode(), bytes);
        assert_eq!(back.nodes.len(), book.nodes.len());
        // The numbers are rebuilt on reading.
        assert_eq!(
            (back.nodes[0].pn, back.nodes[0].dn),
            (book.nodes[0].pn, book.nodes[0].dn)
        );

        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(Book::decode(&flipped), Err(BookError::Damaged(_))));
        assert!(matches!(
            Book::decode(&bytes[..bytes.len() / 2]),
            Err(BookError::Damaged(_))
        ));
        let mut newer = bytes.clone();
        newer[8] = 9;
        assert!(matches!(Book::decode(&newer), Err(BookError::Version(9))));
        assert!(Book::decode(b"RENJU-DB and more bytes").is_err());
        for cut in 0..bytes.len().min(64) {
            assert!(Book::decode(&bytes[..cut]).is_err());
        }
    }
}

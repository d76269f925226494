//! The book's journal (`BOOK.journal`): the whole book as one bincode value behind a magic,
//! a version and a checksum, then the defender nodes' certificate proofs, checked for damage
//! on reading.

use std::sync::Arc;

use super::{Book, BookError, NO_PARENT};
use crate::proof::Proof;

/// The first 8 bytes of every book journal.
pub const MAGIC: [u8; 8] = *b"RENJU-BK";
/// The journal format version this build writes.
pub const VERSION: u32 = 3;
/// The oldest version this build reads: version 1 is version 2 without the certificate
/// proofs, and version 2 is version 3 without the status `exhausted` (a new last variant, so
/// the encoding of the others is unchanged).
const OLDEST: u32 = 1;

/// The certificate proofs after the book: each node's index and its proof in the proof format
/// (JSON, as `solve --proof` writes it; bincode does not read the format's tagged nodes).
type PassProofs = Vec<(u32, String)>;

impl Book {
    /// The journal's bytes: [`MAGIC`], the version (u32, little-endian), a CRC-32 of the
    /// body, then the body: the book as one bincode value (standard configuration), and the
    /// nodes' certificate proofs ([`super::BookNode::pass_proof`]) as a second one, a list of
    /// (node, the proof as JSON).
    ///
    /// # Panics
    /// Never: every field serialises.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let config = bincode::config::standard();
        let mut body = bincode::serde::encode_to_vec(self, config).expect("a book serialises");
        let proofs: PassProofs = self
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let proof = n.pass_proof.as_ref()?;
                let json = serde_json::to_string(proof.as_ref()).expect("a proof serialises");
                Some((i as u32, json))
            })
            .collect();
        body.extend(bincode::serde::encode_to_vec(&proofs, config).expect("a list serialises"));
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
        if !(OLDEST..=VERSION).contains(&version) {
            return Err(BookError::Version(version));
        }
        let crc = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        let body = &bytes[16..];
        if crc32fast::hash(body) != crc {
            return Err(BookError::Damaged(
                "its checksum does not match (a truncated or changed file)".to_string(),
            ));
        }
        let config = bincode::config::standard();
        let damaged = |e: bincode::error::DecodeError| BookError::Damaged(e.to_string());
        let (mut book, mut used): (Book, usize) =
            bincode::serde::decode_from_slice(body, config).map_err(damaged)?;
        let proofs = if version >= 2 {
            let (list, more): (PassProofs, usize) =
                bincode::serde::decode_from_slice(&body[used..], config).map_err(damaged)?;
            used += more;
            list
        } else {
            PassProofs::new()
        };
        if used != body.len() {
            return Err(BookError::Damaged("bytes after the book".to_string()));
        }
        book.validate()?;
        for (i, json) in proofs {
            let proof: Proof = serde_json::from_str(&json).map_err(|e| {
                BookError::Damaged(format!("the certificate proof of position {i}: {e}"))
            })?;
            match book.nodes.get_mut(i as usize) {
                Some(node) if node.pass_proof.is_none() => node.pass_proof = Some(Arc::new(proof)),
                _ => {
                    return Err(BookError::Damaged(format!(
                        "a certificate proof for position {i}, which is not one or has one"
                    )));
                }
            }
        }
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
    use crate::book::tests::{one_thread, square_book, vct_book};

    #[test]
    fn the_journal_round_trips_and_damage_is_an_error() {
        let (mut book, mut db) = vct_book();
        let (pool, options) = one_thread(500);
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

    #[test]
    fn certificate_proofs_round_trip_and_a_version_1_journal_still_reads() {
        let (mut book, mut db) = square_book();
        let (pool, options) = one_thread(20_000);
        book.round(&mut db, &options, &pool).unwrap();
        let proof = book.nodes[0]
            .pass_proof
            .clone()
            .expect("the root's certificate");
        let bytes = book.encode();
        let back = Book::decode(&bytes).unwrap();
        assert_eq!(back.nodes[0].pass_proof.as_deref(), Some(proof.as_ref()));
        assert_eq!(back.encode(), bytes);

        // Version 1: the book without the list of proofs after it.
        let config = bincode::config::standard();
        let body = bincode::serde::encode_to_vec(&book, config).unwrap();
        let with_header = |version: u32, body: &[u8]| {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(&version.to_le_bytes());
            bytes.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
            bytes.extend_from_slice(body);
            bytes
        };
        let old = Book::decode(&with_header(1, &body)).unwrap();
        assert_eq!(old.nodes.len(), book.nodes.len());
        assert!(old.nodes.iter().all(|n| n.pass_proof.is_none()));
        // Version 2 needs the list.
        assert!(matches!(
            Book::decode(&with_header(2, &body)),
            Err(BookError::Damaged(_))
        ));
        // A proof for a position the book does not have, or not a proof.
        for list in [
            vec![(
                book.nodes.len() as u32,
                serde_json::to_string(proof.as_ref()).unwrap(),
            )],
            vec![(0, "{}".to_string())],
        ] {
            let mut body = body.clone();
            body.extend(bincode::serde::encode_to_vec(&list, config).unwrap());
            assert!(matches!(
                Book::decode(&with_header(2, &body)),
                Err(BookError::Damaged(_))
            ));
        }
    }
}

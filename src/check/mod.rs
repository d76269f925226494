//! The independent checker's layer (`docs/design.md`): code that verifies what the solver
//! claims while trusting none of it. It never uses the fast pattern tables, the threat search
//! or the proof-number search.
//!
//! [`verify`] checks a whole solution database (`renju check`). It reads the file through the
//! database layer, and does the rest itself: [`rules`] is the checker's own small rules code
//! (the tests use it as the reference for the fast rules core). [`replay`] builds on it to
//! replay VCF lines (proof leaves and certificates) under every rule set, working out the
//! defender's forced replies itself. [`zone`] holds the points a certificate's verification
//! depended on, so that a reply outside them is answered without a replay
//! (`docs/certificates.md`).

pub mod replay;
pub mod rules;
pub mod verify;
pub mod zone;

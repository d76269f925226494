//! The independent checker's layer (`docs/design.md`): code that verifies what the solver
//! claims while trusting none of it. It never uses the fast pattern tables, the threat search
//! or the proof-number search.
//!
//! So far it holds [`rules`], the checker's own small rules code; the tests use it as the
//! reference for the fast rules core.

pub mod rules;

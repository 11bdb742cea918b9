//! fairy: chess variants from declarative rule files.
//!
//! The stages, each owning one representation: [`syntax`] reads text into a spanned syntax
//! tree; [`check`] resolves names and reports every mistake; later stages compile the checked
//! tree into tables and run games on them. [`consistency`] walks games checking that the engine
//! agrees with itself, for the property tests and the fuzzer.

pub mod ai;
pub mod check;
pub mod compile;
pub mod consistency;
pub mod diagnostic;
pub mod engine;
pub mod geometry;
pub mod limits;
pub mod notation;
pub mod pipeline;
pub mod random;
pub mod source;
pub mod syntax;
pub mod testing;

//! fairy: chess variants from declarative rule files.
//!
//! The stages, each owning one representation and handing the next a finished one:
//! [`syntax`] reads text into a spanned syntax tree; [`check`] reports every mistake and
//! resolves a valid file into [`check::Checked`]; [`compile`] builds a [`compile::Ruleset`] of
//! flat tables from it; [`engine`] judges setups into positions and plays them; [`notation`]
//! reads and writes positions and moves as text; [`ai`] is the computer player.
//! [`pipeline`] is the one way through the stages, which every caller uses; [`testing`] runs a
//! rule file's tests, and [`consistency`] walks games checking that the engine agrees with
//! itself. `tests/layers.rs` keeps the line: no module uses a later stage.

pub mod ai;
pub mod bitboard;
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

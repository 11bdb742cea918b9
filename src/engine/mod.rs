//! The engine: positions, legal turns, make/unmake, perft. It works from a compiled
//! [`Ruleset`](crate::compile::Ruleset) alone.

mod movegen;
pub mod outcome;
pub mod perft;
mod pins;
pub mod position;
pub mod turn;

pub use position::Position;
pub use turn::{Part, PartKind, Turn};

//! The engine: positions, turn programs, legality, make/unmake, the end of the game, perft.
//! It works from a compiled [`Ruleset`](crate::compile::Ruleset) alone.

mod counters;
mod elimination;
mod legality;
mod movegen;
pub mod outcome;
pub mod perft;
mod pins;
pub mod position;
mod probe;
mod steps;
pub mod turn;

pub use position::Position;
pub use turn::{Part, PartKind, Turn};

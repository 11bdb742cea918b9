//! The engine: setups judged into positions, turn programs, legality, make/unmake, the end of
//! the game, perft.
//! It works from a compiled [`Ruleset`](crate::compile::Ruleset) alone.

mod counters;
mod elimination;
mod legality;
mod movegen;
pub mod outcome;
pub mod perft;
mod pins;
pub mod position;
pub mod probe;
pub mod setup;
mod steps;
pub mod turn;
pub mod validity;

pub use position::Position;
pub use setup::Setup;
pub use turn::{Part, PartKind, Turn};
pub use validity::{Field, PositionError, PositionRule};

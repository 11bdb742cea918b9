//! The engine: setups judged into positions, turn programs, legality, make/unmake, the end of
//! the game, perft.
//! It works from a compiled [`Ruleset`](crate::compile::Ruleset) alone.

/// Evaluates `$body` with `$B` the bitboard type of the ruleset's board width, so that code
/// generic over [`Bitboard`](crate::bitboard::Bitboard) runs at the narrowest width the board
/// fits.
macro_rules! at_width {
    ($rules:expr, $B:ident => $body:expr) => {
        match $rules.bits.words() {
            1 => {
                type $B = u64;
                $body
            }
            2 => {
                type $B = u128;
                $body
            }
            _ => {
                type $B = $crate::bitboard::Wide;
                $body
            }
        }
    };
}

mod attacks;
pub mod cost;
mod count;
mod counters;
mod elimination;
mod exchange;
mod legality;
mod movegen;
pub mod outcome;
pub mod perft;
mod pins;
pub mod position;
pub mod probe;
pub mod refusal;
mod removal;
mod royal_threat;
pub mod setup;
mod standoff;
mod steps;
mod surviving;
mod targets;
pub mod turn;
pub mod validity;

pub use exchange::ExchangeValues;
pub use position::Position;
pub use setup::Setup;
pub use turn::{Part, PartKind, Turn};
pub use validity::{Field, PositionError, PositionRule};

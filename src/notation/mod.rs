//! Notation: positions as FEN and turns as coordinate text, read and written.

pub use diagram::{Marks, checking_pieces, diagram, marked_diagram, square_text};

mod diagram;
pub mod fen;
pub mod moves;

/// A mistake in a position or move text, located by byte range within it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub message: String,
    pub start: usize,
    pub end: usize,
}

impl NotationError {
    pub fn new(message: impl Into<String>, start: usize, end: usize) -> Self {
        NotationError {
            message: message.into(),
            start,
            end: end.max(start),
        }
    }
}

impl std::fmt::Display for NotationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NotationError {}

//! Notation: positions as FEN and turns as coordinate text, read and written.

pub use describe::{lent_by, turn_words};
pub use diagram::{
    Marks, View, checking_pieces, diagram, marked_diagram, piece_diagram, square_text,
};

use crate::limits::MAX_QUOTED_CHARS;
use crate::source::{head, printable};

pub mod betza;
mod describe;
mod diagram;
pub mod fen;
pub mod moves;
pub mod protocol;
mod refusal;
pub mod san;

/// `text` in backquotes, as messages quote the input they are about: cut after
/// [`MAX_QUOTED_CHARS`] characters, with `…` for the rest, and control characters shown as `?`
/// so that no terminal sees an escape sequence.
pub fn quoted(text: &str) -> String {
    format!("`{}`", printable(&head(text, MAX_QUOTED_CHARS)))
}

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

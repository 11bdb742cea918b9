//! A turn as a short list of parts: a move, a drop, a removal, an arrow. Making a turn applies
//! its parts in order; unmaking undoes them in reverse.

use crate::compile::{Code, NO_SQUARE, Sq};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartKind {
    /// A piece moves from `from` to `to`, capturing what stands there; `piece` is what lands.
    Move,
    /// As `Move`, and the piece that lands is a promotion of the one that left.
    Promote,
    /// `piece` comes from the mover's hand to `to`.
    Drop,
    /// The piece on `from` is captured in place (en passant, or a removal).
    Remove,
    /// `to` becomes blocked (an arrow lands).
    Block,
    /// The blocked square `to` becomes empty again.
    Unblock,
    /// The pie choice: the two players exchange colours (`piece` 1) or keep them (0).
    Choice,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Part {
    pub kind: PartKind,
    pub piece: Code,
    pub from: Sq,
    pub to: Sq,
}

const NO_PART: Part = Part {
    kind: PartKind::Block,
    piece: 0,
    from: NO_SQUARE,
    to: NO_SQUARE,
};

/// At most this many parts make one turn.
pub const MAX_PARTS: usize = 3;

/// One whole turn: one node of perft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    parts: [Part; MAX_PARTS],
    len: u8,
    /// Whether any part captures.
    pub captures: bool,
    /// The square the moving piece passed, open to en passant on the next turn.
    pub passed: Sq,
}

impl Turn {
    pub fn new(first: Part) -> Self {
        Turn {
            parts: [first, NO_PART, NO_PART],
            len: 1,
            captures: false,
            passed: NO_SQUARE,
        }
    }

    pub fn with(mut self, part: Part) -> Self {
        self.parts[self.len as usize] = part;
        self.len += 1;
        self
    }

    pub fn parts(&self) -> &[Part] {
        &self.parts[..self.len as usize]
    }

    /// The first part: the move or drop that the turn is about.
    pub fn main(&self) -> &Part {
        &self.parts[0]
    }
}

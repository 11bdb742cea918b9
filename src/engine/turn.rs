//! A turn as a short list of parts: a placement, a move, an arrow, a removal. Making a turn
//! applies its parts in order; the position's journal undoes them.

use crate::compile::{Code, NO_SQUARE, Sq};
use crate::limits::MAX_PARTS;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PartKind {
    /// A piece moves from `from` to `to`, capturing what stands there; `piece` is what lands.
    Move,
    /// As `Move`, and the piece that lands is a promotion of the one that left.
    Promote,
    /// A castling partner moves along with the royal piece: part of the move, not written.
    Partner,
    /// `piece` comes from the mover's hand to `to`.
    Drop,
    /// As `Drop`, onto the gate the turn's move just left; the piece does not shield the
    /// mover's royal pieces in that turn.
    Gate,
    /// The piece on `from` is captured by the move that lands on `to` (en passant): part of
    /// the move, not written.
    Take,
    /// The piece on `from` is taken off the board by the player's choice, to no hand.
    Remove,
    /// `to` becomes blocked by an arrow shot from `from`.
    Block,
    /// The blocked square `to` becomes empty again.
    Unblock,
    /// The pie choice: the two players exchange colours (`piece` 1) or keep them (0).
    Choice,
    /// The player does nothing.
    Pass,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Part {
    pub kind: PartKind,
    pub piece: Code,
    pub from: Sq,
    pub to: Sq,
}

const NO_PART: Part = Part {
    kind: PartKind::Pass,
    piece: 0,
    from: NO_SQUARE,
    to: NO_SQUARE,
};

/// One whole turn: one node of perft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    parts: [Part; MAX_PARTS],
    len: u8,
    /// Whether any part captures.
    pub captures: bool,
    /// The square the moving piece passed, open to en passant on the next turn.
    pub passed: Sq,
    /// The tag of the turn's last move, by number (0 for none), for the steps after it.
    pub tag: u16,
}

impl Turn {
    /// A turn with no parts yet, for a program to build on.
    pub const EMPTY: Turn = Turn {
        parts: [NO_PART; MAX_PARTS],
        len: 0,
        captures: false,
        passed: NO_SQUARE,
        tag: 0,
    };

    pub fn new(first: Part) -> Self {
        Turn::EMPTY.with(first)
    }

    pub fn with(mut self, part: Part) -> Self {
        self.add(part);
        self
    }

    /// Adds `part` where the turn stands: in a list, this spares the copy of a turn just
    /// written part by part, which the processor cannot forward from its stores.
    pub fn add(&mut self, part: Part) {
        self.parts[self.len as usize] = part;
        self.len += 1;
    }

    pub fn parts(&self) -> &[Part] {
        &self.parts[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every square the turn touches: where pieces left and arrived, arrows flew, squares opened.
    pub fn squares(&self) -> impl Iterator<Item = Sq> + '_ {
        self.parts()
            .iter()
            .flat_map(|part| [part.from, part.to])
            .filter(|&sq| sq != NO_SQUARE)
    }

    /// The first part: the move or drop that the turn is about.
    pub fn main(&self) -> &Part {
        &self.parts[0]
    }

    /// Whether the turn only passes.
    pub fn is_pass(&self) -> bool {
        self.parts().iter().all(|p| p.kind == PartKind::Pass)
    }

    /// The turn without its parts of `kind`.
    pub fn without(&self, kind: PartKind) -> Turn {
        let mut kept = Turn {
            parts: Turn::EMPTY.parts,
            len: 0,
            ..*self
        };
        for part in self.parts().iter().filter(|p| p.kind != kind) {
            kept = kept.with(*part);
        }
        kept
    }

    /// The last part that moves a piece of the player's own choosing.
    pub fn last_move(&self) -> Option<&Part> {
        self.parts()
            .iter()
            .rev()
            .find(|p| matches!(p.kind, PartKind::Move | PartKind::Promote))
    }
}

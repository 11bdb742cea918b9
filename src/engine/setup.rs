//! A position as written down, before it is judged: what a position's text gives, or the rule
//! file's `setup` items. [`Position::from_setup`](super::Position::from_setup) makes a
//! position of it.

use crate::compile::{Code, Ruleset, Sq};

/// A position as written down, not yet judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// A code per square: a piece, [`EMPTY`] or [`BLOCKED`].
    pub board: Vec<Code>,
    /// `hands[player * kinds + kind]`.
    pub hands: Vec<u8>,
    /// The player to move; `None` for whoever moves first in the phase being played.
    pub to_move: Option<usize>,
    /// The players still in the game, as bits.
    pub alive: u32,
    /// The castling rights, as bits of the ruleset's rights.
    pub castling: u32,
    /// The square a piece passed on the last turn, and where that piece stands when given (the
    /// two in either order).
    pub en_passant: Option<(Sq, Option<Sq>)>,
    /// Plies since the last capture or other event that resets it.
    pub halfmove: u32,
    pub fullmove: u32,
    /// The phase being played (the number of phases once the last has ended); `None` for the
    /// first phase that is not already over.
    pub phase: Option<u8>,
    /// Each player's turns played in the phase.
    pub phase_turns: Vec<u32>,
    /// The players have exchanged colours by the pie choice.
    pub swapped: bool,
    /// `counters[player * counters + counter]`.
    pub counters: Vec<u16>,
    /// The open gates: squares whose piece has not moved and may let one from hand in as it
    /// leaves.
    pub gates: Vec<Sq>,
}

impl Setup {
    /// The rule file's start position.
    pub fn start(rules: &Ruleset) -> Setup {
        let players = rules.players.count();
        Setup {
            board: rules.start.board.clone(),
            hands: rules.start.hands.clone(),
            to_move: None,
            alive: all_players(players),
            castling: rules.castling.initial,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
            phase: None,
            phase_turns: vec![0; players],
            swapped: false,
            counters: vec![0; players * rules.turns.counters.len()],
            gates: rules.start.gates.clone(),
        }
    }
}

/// Every player, as bits.
fn all_players(players: usize) -> u32 {
    (1u32 << players) - 1
}

//! The start position the `setup` items give.

use super::geometry::Geometry;
use super::pieces::PieceTables;
use super::players::Players;
use super::turns::TurnTables;
use super::zones::ZoneSets;
use super::{BLOCKED, Code, EMPTY, Sq};
use crate::check::Checked;

/// The position a game starts from; its castling rights are those whose pieces stand there
/// ([`Castling::initial`](super::Castling::initial)).
#[derive(Clone, Debug)]
pub struct Start {
    /// A piece code per square.
    pub board: Vec<Code>,
    /// `hands[player * kinds + kind]`.
    pub hands: Vec<u8>,
    /// The gates: squares whose first piece may let one from hand in as it leaves.
    pub gates: Vec<Sq>,
}

impl Start {
    pub fn new(
        checked: &Checked,
        geometry: &Geometry,
        pieces: &PieceTables,
        players: &Players,
    ) -> Start {
        let mut board = vec![EMPTY; geometry.squares()];
        let kinds = pieces.kinds.len();
        let mut hands = vec![0; players.count() * kinds];
        // A declared piece is the kind of the same index: the declared forms come first.
        for &(cell, player, piece) in &checked.setup.placed {
            board[geometry.square(cell) as usize] = pieces.code(piece.0, player.0);
        }
        for &(player, piece) in &checked.setup.in_hand {
            // A piece in hand is always what it goes to hand as.
            let kind = pieces.kinds[piece.0].demotes_to as usize;
            hands[player.0 * kinds + kind] += 1;
        }
        Start {
            board,
            hands,
            gates: Vec::new(),
        }
    }

    /// Opens a gate on each square of the start position whose piece stands in a zone of a
    /// gate step (`None`: anywhere) for its player.
    pub fn open_gates(&mut self, zones: &[Option<u16>], sets: &ZoneSets, pieces: &PieceTables) {
        self.gates = (self.board.iter().enumerate())
            .filter(|&(_, &code)| code != EMPTY && code != BLOCKED)
            .map(|(sq, &code)| (sq as Sq, pieces.split(code).1))
            .filter(|&(sq, player)| TurnTables::gate_square(zones, sets, player, sq))
            .map(|(sq, _)| sq)
            .collect();
    }
}

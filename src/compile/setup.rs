//! The start position the `setup` items give, and the castling rights it implies.

use super::castling::Castling;
use super::geometry::Geometry;
use super::pieces::PieceTables;
use super::players::Players;
use super::support::Unsupported;
use super::{Code, EMPTY};
use crate::check::Checked;

/// The position a game starts from.
#[derive(Clone, Debug)]
pub struct Start {
    /// A piece code per square.
    pub board: Vec<Code>,
    /// `hands[player * kinds + kind]`.
    pub hands: Vec<u8>,
    /// Every castling right the start position gives.
    pub castling: u32,
}

impl Start {
    /// The start position, and the castling its pieces have.
    pub fn new(
        checked: &Checked,
        geometry: &mut Geometry,
        pieces: &PieceTables,
        players: &Players,
    ) -> Result<(Start, Castling), Unsupported> {
        let mut board = vec![EMPTY; geometry.squares()];
        let kinds = pieces.kinds.len();
        let mut hands = vec![0; players.count() * kinds];
        // A declared piece is the kind of the same index: the declared forms come first.
        for &((file, rank), player, piece) in &checked.setup.placed {
            let sq = geometry.at(file as i32, rank as i32);
            board[sq as usize] = pieces.code(piece.0, player.0);
        }
        for &(player, piece) in &checked.setup.in_hand {
            // A piece in hand is always what it goes to hand as.
            let kind = pieces.kinds[piece.0].demotes_to as usize;
            hands[player.0 * kinds + kind] += 1;
        }
        let castling = Castling::new(checked, geometry, pieces, players, &board)?;
        let start = Start {
            board,
            hands,
            castling: castling.all(),
        };
        Ok((start, castling))
    }
}

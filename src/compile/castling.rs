//! Castling: the rights the start position gives (a royal piece and a partner facing each
//! other on their start squares), and castling judged on the board as it stands for rules a
//! right cannot express.

use super::geometry::Geometry;
use super::pieces::{PieceTables, kinds_of};
use super::players::Players;
use super::support::Unsupported;
use super::{Code, NO_SQUARE, Sq};
use crate::check::Feature;
use crate::check::checked::{Checked, PieceId};
use crate::diagnostic::Span;
use crate::geometry::{absolute, images};
use crate::limits::MAX_CASTLING_RIGHTS;

#[derive(Clone, Debug, Default)]
pub struct Castling {
    /// The rights, each a bit of a position's castling rights.
    pub rights: Vec<CastleRight>,
    /// For each square, the rights lost when a piece leaves or enters it.
    pub clear: Vec<u32>,
    /// For each square, the rights a piece dropped there may gain (where the setup gives
    /// castling homes); empty when no right is ever gained.
    pub earned: Vec<u32>,
    /// The rights whose pieces stand on their squares at the start.
    pub initial: u32,
    /// Castling without rights.
    pub free: Vec<FreeCastle>,
}

/// Castling for one player: the royal piece and its partner on their start squares.
#[derive(Clone, Debug)]
pub struct CastleRight {
    pub player: usize,
    /// The royal piece and its partner, as codes.
    pub king: Code,
    pub rook: Code,
    pub king_from: Sq,
    pub king_to: Sq,
    pub rook_from: Sq,
    pub rook_to: Sq,
    /// Squares that must be empty (other than the two pieces).
    pub empty: Vec<Sq>,
    /// Squares the royal piece stands on or crosses, which must not be attacked when `safe`.
    pub safe_path: Vec<Sq>,
    pub safe: bool,
    /// East of the royal piece, as FEN's `K`; otherwise `Q`.
    pub kingside: bool,
}

/// Castling that needs no rights: the royal piece moves `distance` squares along a line of
/// empty squares towards the first piece beyond, which must be a partner, and the partner
/// lands on the last square the royal piece crossed.
#[derive(Clone, Debug)]
pub struct FreeCastle {
    pub kind: usize,
    /// The kinds that may be the partner.
    pub partners: u64,
    /// The lines it may castle along, per player, as vectors.
    pub vectors: Vec<Vec<u16>>,
    pub distance: u32,
    /// A partner of either colour will do.
    pub any_colour: bool,
    /// Both pieces must not have moved yet.
    pub unmoved: bool,
    /// The royal piece may not start on, cross or land on an attacked square.
    pub safe: bool,
}

/// A castle clause of a piece, for one kind.
struct CastleRule {
    span: Span,
    kind: usize,
    partner: usize,
    /// Directions in the player's frame.
    vectors: Vec<(i64, i64)>,
    distance: u32,
    safe: bool,
    any_colour: bool,
    unmoved: bool,
}

impl Castling {
    /// The castling of the rule file, given its start position `start`: the rights of the
    /// pieces there and of those the castling homes would hold.
    pub fn new(
        checked: &Checked,
        geometry: &mut Geometry,
        pieces: &PieceTables,
        players: &Players,
        start: &[Code],
    ) -> Result<Castling, Unsupported> {
        let mut board = start.to_vec();
        let homes = &checked.setup.castling_homes;
        for &(cell, player, piece) in homes {
            board[geometry.square(cell) as usize] = pieces.code(piece.0, player.0);
        }
        let board = &board[..];
        let rules = castle_rules(checked);
        let (by_rights, free): (Vec<&CastleRule>, Vec<&CastleRule>) = rules
            .iter()
            .partition(|rule| rule.unmoved && !rule.any_colour);
        let free: Vec<FreeCastle> = free
            .into_iter()
            .map(|rule| free_castle(checked, geometry, players, rule))
            .collect();
        let mut rights = Vec::new();
        for &rule in &by_rights {
            for player in 0..players.count() {
                let king = pieces.code(rule.kind, player);
                let rook = pieces.code(rule.partner, player);
                let on_start = |s: &Sq| board[*s as usize] == king;
                for king_from in (0..board.len() as Sq).filter(on_start) {
                    for &v in &rule.vectors {
                        let line = absolute(players.forward[player], v);
                        let found =
                            right_along(geometry, board, rule, player, king_from, line, rook);
                        if let Some(right) = found {
                            add_right(&mut rights, right);
                        }
                    }
                }
            }
        }
        if rights.len() > MAX_CASTLING_RIGHTS {
            let first = by_rights.first().map(|rule| rule.span).unwrap_or_default();
            return Err(Unsupported(vec![(Feature::ManyCastlingRights, first)]));
        }
        let mut clear = vec![0; board.len()];
        for (bit, right) in rights.iter().enumerate() {
            clear[right.king_from as usize] |= 1 << bit;
            clear[right.rook_from as usize] |= 1 << bit;
        }
        let mut earned = Vec::new();
        let home_squares: Vec<Sq> = (homes.iter())
            .map(|&(cell, _, _)| geometry.square(cell))
            .collect();
        for (bit, right) in rights.iter().enumerate() {
            let squares = [right.king_from, right.rook_from];
            if squares.iter().any(|sq| home_squares.contains(sq)) {
                earned.resize(board.len(), 0);
                for sq in squares {
                    earned[sq as usize] |= 1 << bit;
                }
            }
        }
        let initial = (rights.iter().enumerate())
            .filter(|(_, right)| right.stands(start))
            .fold(0, |bits, (bit, _)| bits | 1 << bit);
        Ok(Castling {
            rights,
            clear,
            earned,
            initial,
            free,
        })
    }

    /// The rights of the same player and the same two pieces as right `bit`, as bits: they are
    /// gained and lost together, and written as one.
    pub fn same_pieces(&self, bit: usize) -> u32 {
        let right = &self.rights[bit];
        let key = (right.player, right.king_from, right.rook_from);
        (self.rights.iter().enumerate())
            .filter(|(_, r)| (r.player, r.king_from, r.rook_from) == key)
            .fold(0, |bits, (bit, _)| bits | 1 << bit)
    }

    /// Every right, as bits.
    pub fn all(&self) -> u32 {
        u32::MAX
            .checked_shr(32 - self.rights.len() as u32)
            .unwrap_or(0)
    }
}

impl CastleRight {
    /// Whether both pieces stand on their squares of this right on `board`.
    pub fn stands(&self, board: &[Code]) -> bool {
        board[self.king_from as usize] == self.king && board[self.rook_from as usize] == self.rook
    }
}

/// Every castle clause, by kind.
fn castle_rules(checked: &Checked) -> Vec<CastleRule> {
    let mut out = Vec::new();
    for (kind, piece) in checked.pieces.iter().enumerate() {
        for castle in &piece.castles {
            let vectors = images(0, 1)
                .into_iter()
                .filter(|&v| castle.lines.selects(v))
                .collect();
            out.push(CastleRule {
                span: castle.span,
                kind,
                partner: castle.partner.0,
                vectors,
                distance: castle.distance,
                safe: castle.safe,
                any_colour: castle.any_colour,
                unmoved: castle.unmoved,
            });
        }
    }
    out
}

/// Adds a castling right, unless two clauses give the same move (`castle sideways 2` and
/// `castle right 2`): then it is one right, safe only if both clauses ask for safety.
fn add_right(rights: &mut Vec<CastleRight>, right: CastleRight) {
    let same = |r: &&mut CastleRight| {
        (r.player, r.king_from, r.king_to, r.rook_from, r.rook_to)
            == (
                right.player,
                right.king_from,
                right.king_to,
                right.rook_from,
                right.rook_to,
            )
    };
    match rights.iter_mut().find(same) {
        Some(existing) => existing.safe &= right.safe,
        None => rights.push(right),
    }
}

/// Castling checked on the board as it stands, for rules that a right cannot express: no
/// history condition, or a partner of either colour.
fn free_castle(
    checked: &Checked,
    geometry: &mut Geometry,
    players: &Players,
    rule: &CastleRule,
) -> FreeCastle {
    let vectors = players
        .forward
        .iter()
        .map(|&forward| {
            rule.vectors
                .iter()
                .map(|&v| geometry.vector(absolute(forward, v)))
                .collect()
        })
        .collect();
    FreeCastle {
        kind: rule.kind,
        partners: kinds_of(&checked.forms, &[PieceId(rule.partner)]),
        vectors,
        distance: rule.distance,
        any_colour: rule.any_colour,
        unmoved: rule.unmoved,
        safe: rule.safe,
    }
}

/// The right of the royal piece on `king_from` along a line to the first partner beyond its
/// landing square, if the line has one.
fn right_along(
    geometry: &Geometry,
    board: &[Code],
    rule: &CastleRule,
    player: usize,
    king_from: Sq,
    (dx, dy): (i32, i32),
    rook: Code,
) -> Option<CastleRight> {
    let (kf, kr) = geometry.coords[king_from as usize];
    let at = |n: i32| geometry.at(kf as i32 + dx * n, kr as i32 + dy * n);
    let distance = rule.distance as i32;
    let rook_distance = (distance + 1..)
        .take_while(|&n| at(n) != NO_SQUARE)
        .find(|&n| board[at(n) as usize] == rook)?;
    let king_to = at(distance);
    let rook_to = at(distance - 1);
    // A hole between the two pieces makes a castling that can never happen.
    if (1..rook_distance).any(|n| at(n) == NO_SQUARE) {
        return None;
    }
    let mut empty: Vec<Sq> = (1..rook_distance).map(at).collect();
    empty.extend([king_to, rook_to]);
    empty.sort_unstable();
    empty.dedup();
    Some(CastleRight {
        player,
        king: board[king_from as usize],
        rook,
        king_from,
        king_to,
        rook_from: at(rook_distance),
        rook_to,
        empty,
        safe_path: (0..=distance).map(at).collect(),
        safe: rule.safe,
        kingside: dx > 0 || (dx == 0 && dy > 0),
    })
}

//! The start position and the castling rights it implies.

use super::pieces::{CastleRule, kinds_of};
use super::support::Unsupported;
use super::{CastleRight, EMPTY, FreeCastle, NO_SQUARE, Ruleset, Sq};
use crate::check::Feature;
use crate::check::checked::{self, Checked};
use crate::geometry::absolute;
use crate::limits::MAX_CASTLING_RIGHTS;

pub fn place(
    checked: &Checked,
    ruleset: &mut Ruleset,
    castle_rules: &[CastleRule],
) -> Result<(), Unsupported> {
    let squares = ruleset.geometry.squares();
    ruleset.start_board = vec![EMPTY; squares];
    ruleset.start_hands = vec![0; ruleset.players() * ruleset.kinds.len()];
    let setup = &checked.setup;
    // A declared piece is the kind of the same index: the declared forms come first.
    for &((file, rank), player, piece) in &setup.placed {
        let sq = ruleset.geometry.at(file as i32, rank as i32);
        ruleset.start_board[sq as usize] = ruleset.code(piece.0, player.0);
    }
    for &(player, piece) in &setup.in_hand {
        // A piece in hand is always what it goes to hand as.
        let kind = ruleset.kinds[piece.0].demotes_to as usize;
        ruleset.start_hands[player.0 * ruleset.kinds.len() + kind] += 1;
    }
    castling(checked, ruleset, castle_rules)
}

/// One right per royal piece and partner in the start position that face each other along a
/// castling direction, the partner beyond the royal piece's landing square.
fn castling(
    checked: &Checked,
    ruleset: &mut Ruleset,
    rules: &[CastleRule],
) -> Result<(), Unsupported> {
    let squares = ruleset.geometry.squares();
    let (by_rights, free): (Vec<&CastleRule>, Vec<&CastleRule>) = rules
        .iter()
        .partition(|rule| rule.unmoved && !rule.any_colour);
    ruleset.free_castles = free
        .into_iter()
        .map(|r| free_castle(checked, ruleset, r))
        .collect();
    for &rule in &by_rights {
        for player in 0..ruleset.players() {
            let king = ruleset.code(rule.kind, player);
            let rook = ruleset.code(rule.partner, player);
            for king_from in (0..squares as Sq).filter(|&s| ruleset.start_board[s as usize] == king)
            {
                for &v in &rule.vectors {
                    let v = absolute(ruleset.forward[player], v);
                    if let Some(right) = right_along(ruleset, rule, player, king_from, v, rook) {
                        add_right(&mut ruleset.castles, right);
                    }
                }
            }
        }
    }
    ruleset.castle_clear = vec![0; squares];
    if ruleset.castles.len() > MAX_CASTLING_RIGHTS {
        let first = by_rights.first().map(|rule| rule.span).unwrap_or_default();
        return Err(Unsupported(vec![(Feature::ManyCastlingRights, first)]));
    }
    for (bit, right) in ruleset.castles.iter().enumerate() {
        ruleset.castle_clear[right.king_from as usize] |= 1 << bit;
        ruleset.castle_clear[right.rook_from as usize] |= 1 << bit;
    }
    ruleset.start_castling = u32::MAX
        .checked_shr(32 - ruleset.castles.len() as u32)
        .unwrap_or(0);
    Ok(())
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
fn free_castle(checked: &Checked, ruleset: &mut Ruleset, rule: &CastleRule) -> FreeCastle {
    let vectors = (0..ruleset.players())
        .map(|player| {
            rule.vectors
                .iter()
                .map(|&v| {
                    let v = absolute(ruleset.forward[player], v);
                    ruleset.geometry.vector(v)
                })
                .collect()
        })
        .collect();
    FreeCastle {
        kind: rule.kind,
        partners: kinds_of(&checked.forms, &[checked::PieceId(rule.partner)]),
        vectors,
        distance: rule.distance,
        any_colour: rule.any_colour,
        unmoved: rule.unmoved,
        safe: rule.safe,
    }
}

fn right_along(
    ruleset: &Ruleset,
    rule: &CastleRule,
    player: usize,
    king_from: Sq,
    (dx, dy): (i32, i32),
    rook: u8,
) -> Option<CastleRight> {
    let geometry = &ruleset.geometry;
    let (kf, kr) = geometry.coords[king_from as usize];
    let at = |n: i32| geometry.at(kf as i32 + dx * n, kr as i32 + dy * n);
    let distance = rule.distance as i32;
    let rook_distance = (distance + 1..)
        .take_while(|&n| at(n) != NO_SQUARE)
        .find(|&n| ruleset.start_board[at(n) as usize] == rook)?;
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

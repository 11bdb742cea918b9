//! The start position and the castling rights it implies.

use super::pieces::CastleRule;
use super::{CastleRight, EMPTY, FreeCastle, NO_SQUARE, Ruleset, Sq, Unsupported};
use crate::check::support::Feature;
use crate::geometry::absolute;
use crate::syntax::ast::RuleFile;

pub fn place(
    file: &RuleFile,
    ruleset: &mut Ruleset,
    castle_rules: &[CastleRule],
) -> Result<(), Unsupported> {
    let squares = ruleset.geometry.squares();
    ruleset.start_board = vec![EMPTY; squares];
    ruleset.start_hands = vec![0; ruleset.players() * ruleset.kinds.len()];
    for setup in file.setups() {
        let player = ruleset
            .player_names
            .iter()
            .position(|n| *n == setup.player.value)
            .expect("the checker resolved every player");
        for placement in &setup.placements {
            let kind = kind_index(ruleset, &placement.piece.value);
            for item in &placement.squares {
                let to = item.to.unwrap_or(item.from);
                for rank in item.from.rank.min(to.rank)..=item.from.rank.max(to.rank) {
                    for f in item.from.file.min(to.file)..=item.from.file.max(to.file) {
                        let sq = ruleset.geometry.at(f as i32, rank as i32);
                        if sq != NO_SQUARE {
                            ruleset.start_board[sq as usize] = ruleset.code(kind, player);
                        }
                    }
                }
            }
        }
        for piece in &setup.hand {
            // A piece in hand is always what it goes to hand as.
            let kind = ruleset.kinds[kind_index(ruleset, &piece.value)].demotes_to as usize;
            ruleset.start_hands[player * ruleset.kinds.len() + kind] += 1;
        }
    }
    castling(ruleset, castle_rules)
}

fn kind_index(ruleset: &Ruleset, name: &str) -> usize {
    ruleset
        .kinds
        .iter()
        .position(|k| k.name == name)
        .expect("the checker resolved every piece name")
}

/// One right per royal piece and partner in the start position that face each other along a
/// castling direction, the partner beyond the royal piece's landing square.
fn castling(ruleset: &mut Ruleset, rules: &[CastleRule]) -> Result<(), Unsupported> {
    let squares = ruleset.geometry.squares();
    let (by_rights, free): (Vec<&CastleRule>, Vec<&CastleRule>) = rules
        .iter()
        .partition(|rule| rule.unmoved && !rule.any_colour);
    ruleset.free_castles = free.into_iter().map(|r| free_castle(ruleset, r)).collect();
    for rule in by_rights {
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
        return Err(Unsupported(vec![Feature::ManyCastlingRights]));
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
fn free_castle(ruleset: &mut Ruleset, rule: &CastleRule) -> FreeCastle {
    let partner = ruleset.kinds[rule.partner].name.clone();
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
        partners: super::turns::kinds_named(&ruleset.kinds, [partner.as_str()]),
        vectors,
        distance: rule.distance,
        any_colour: rule.any_colour,
        unmoved: rule.unmoved,
        safe: rule.safe,
    }
}

/// Castling rights are bits of a `u32`.
const MAX_CASTLING_RIGHTS: usize = 32;

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

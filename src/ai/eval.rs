//! An evaluation derived from the rule file alone. A piece is worth what it reaches: each
//! kind's value is its average number of moves over the squares of an otherwise empty board,
//! and each square adds what the piece reaches from there beyond that average. Pieces in hand
//! count at their value. The file's own endings shape the rest: where having no moves or no
//! pieces wins, material is a burden; where a piece must not be immobilized, its freedom is
//! counted, and so is every piece's where having no move loses and there is no royal piece
//! (the game is then about room to move); a royal piece attacked by the next player costs.

use crate::compile::{EndCondition, Outcome, Ruleset, Sq};
use crate::engine::probe::ProbeBoard;
use crate::engine::{Position, Turn};

/// Worth of one move of average reach, and of one more move from a square.
const PER_MOVE: i32 = 25;
const PER_SQUARE_MOVE: i32 = 4;
/// The worth of a piece that reaches nothing (a piece still counts for something).
const BASE: i32 = 50;
const CHECKED: i32 = 60;
const PER_FREE_MOVE: i32 = 20;

pub struct Evaluator {
    /// `table[(kind * players + player) * squares + sq]`: the piece's worth on that square.
    table: Vec<i32>,
    /// The worth of a kind in hand.
    in_hand: Vec<i32>,
    /// The worth of each kind, for ordering captures.
    pub values: Vec<i32>,
    /// -1 where having fewer pieces wins.
    sign: i32,
    /// Kinds whose moves count: their immobility loses the game.
    guarded: u64,
    squares: usize,
    players: usize,
}

impl Evaluator {
    pub fn new(rules: &Ruleset) -> Self {
        let players = rules.players.count();
        let squares = rules.geometry.squares();
        let kinds = rules.pieces.kinds.len();
        let mut table = vec![0; kinds * players * squares];
        let mut values = vec![0; kinds];
        let mut empty = ProbeBoard::empty(rules);
        for kind in 0..kinds {
            for player in 0..players {
                let reach: Vec<i32> = (0..squares)
                    .map(|sq| empty.reach(rules.pieces.code(kind, player), sq as Sq) as i32)
                    .collect();
                let average = reach.iter().sum::<i32>() / reach.len().max(1) as i32;
                let value = match rules.pieces.kinds[kind].royal {
                    true => 0,
                    false => BASE + PER_MOVE * average,
                };
                if player == 0 {
                    values[kind] = value;
                }
                for (sq, &r) in reach.iter().enumerate() {
                    table[(kind * players + player) * squares + sq] =
                        value + PER_SQUARE_MOVE * (r - average);
                }
            }
        }
        let in_hand = (0..kinds)
            .map(|k| values[rules.pieces.kinds[k].demotes_to as usize])
            .collect();
        let burden = rules.endings.rules.iter().any(|&(outcome, condition)| {
            outcome == Outcome::Win
                && matches!(
                    condition,
                    EndCondition::NoMoves
                        | EndCondition::NoMovesCounted { .. }
                        | EndCondition::Extinct
                        | EndCondition::Stalemated
                        | EndCondition::Bare { .. }
                )
        });
        let loses_by = |wanted: &dyn Fn(&EndCondition) -> Option<u64>| {
            rules
                .endings
                .rules
                .iter()
                .filter(|(outcome, _)| *outcome == Outcome::Lose)
                .filter_map(|(_, condition)| wanted(condition))
                .fold(0, |bits, kinds| bits | kinds)
        };
        let every_kind = 1u64
            .checked_shl(kinds as u32)
            .map_or(u64::MAX, |bit| bit - 1);
        // Without a royal piece to checkmate, running out of moves is the whole game: every
        // piece's freedom counts, as the immobilized kinds' always does.
        let no_moves_loses =
            loses_by(&|c| matches!(c, EndCondition::NoMoves).then_some(every_kind));
        let guarded = loses_by(&|c| match c {
            EndCondition::Immobilized(kinds) => Some(*kinds),
            _ => None,
        }) | if rules.derived.royal {
            0
        } else {
            no_moves_loses
        };
        Evaluator {
            table,
            in_hand,
            values,
            sign: if burden { -1 } else { 1 },
            guarded,
            squares,
            players,
        }
    }

    /// The position's worth to `player`: their own minus the average of the others still in.
    pub fn score(&self, position: &Position<'_>, player: usize, scratch: &mut Vec<Turn>) -> i32 {
        let mut worth = vec![0i32; self.players];
        let rules = position.rules();
        for (sq, &code) in position.board().iter().enumerate() {
            if let Some((kind, owner)) = position.piece(code) {
                worth[owner] += self.table[(kind * self.players + owner) * self.squares + sq];
            }
        }
        let kinds = rules.pieces.kinds.len();
        for (slot, &count) in position.hands().iter().enumerate() {
            worth[slot / kinds] += self.in_hand[slot % kinds] * i32::from(count);
        }
        for (p, w) in worth.iter_mut().enumerate() {
            *w *= self.sign;
            if self.guarded != 0 {
                *w += PER_FREE_MOVE * position.mobility(p, self.guarded, scratch) as i32;
            }
        }
        let mover = position.to_move();
        if rules.derived.royal && position.in_check() {
            worth[mover] -= CHECKED;
        }
        let others: Vec<i32> = (0..self.players)
            .filter(|&p| p != player && position.alive() & (1 << p) != 0)
            .map(|p| worth[p])
            .collect();
        let against = match others.len() {
            0 => 0,
            n => others.iter().sum::<i32>() / n as i32,
        };
        worth[player] - against
    }
}

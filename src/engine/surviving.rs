//! The turns of a position where legality is judged by the replies, every turn one move:
//! the quiet moves proven by [`Position::quiet_proof`] without judging each, the others built
//! (with the removals the triggers they set off make) and judged as generation would. The
//! same walk counts them, for perft's last ply, and lists them, for the plies above it, where
//! generating them step by step costs several times as much.

use super::position::Position;
use super::removal::TurnShape;
use super::steps::Request;
use super::turn::{Part, PartKind, Turn};
use crate::bitboard::Bitboard;
use crate::compile::turns::Action;
use crate::compile::{Code, NO_SQUARE, Sq};

/// Where the walk puts the turns it finds legal.
pub(super) trait Survivors {
    /// Whether the turns are listed, and so must be built as generation builds them.
    const LISTS: bool;

    fn add(&mut self, turn: Turn);

    /// Adds a turn of `turn_to(to)` for each square `to` of `targets`.
    fn add_each<B: Bitboard>(&mut self, targets: B, turn_to: impl Fn(Sq) -> Turn);
}

/// The legal turns, counted.
pub(super) struct Counted(pub u64);

impl Survivors for Counted {
    const LISTS: bool = false;

    #[inline(always)]
    fn add(&mut self, _: Turn) {
        self.0 += 1;
    }

    #[inline(always)]
    fn add_each<B: Bitboard>(&mut self, targets: B, _: impl Fn(Sq) -> Turn) {
        self.0 += u64::from(targets.count());
    }
}

/// The legal turns, listed in the walk's order (kind by kind), not generation's.
impl Survivors for Vec<Turn> {
    const LISTS: bool = true;

    #[inline(always)]
    fn add(&mut self, turn: Turn) {
        self.push(turn);
    }

    #[inline(always)]
    fn add_each<B: Bitboard>(&mut self, targets: B, turn_to: impl Fn(Sq) -> Turn) {
        self.extend(targets.squares().map(turn_to));
    }
}

/// The move of `code` from `from` to `to` as generation builds it, a single move that passes
/// no square open to en passant.
fn plain_move(code: Code, from: Sq, to: Sq, captures: bool, tag: u16) -> Turn {
    let mut turn = Turn::new(Part {
        kind: PartKind::Move,
        piece: code,
        from,
        to,
    });
    turn.captures = captures;
    turn.passed = NO_SQUARE;
    turn.tag = tag;
    turn
}

impl Position<'_> {
    /// The legal turns of the player to move into `out` (cleared first), in an order of their
    /// own, where [`Position::count_unbuilt`] would count them by their replies; false, with
    /// `out` left empty, where the position needs them generated. For perft, which counts
    /// below each turn and cares for no order.
    pub(super) fn list_surviving(&mut self, out: &mut Vec<Turn>) -> bool {
        out.clear();
        let fast = self.ready.is_none() && self.ep == NO_SQUARE;
        if !fast || at_width!(self.rules, B => self.surviving::<B, _>(out)).is_none() {
            return false;
        }
        self.finish_moves_listed(out);
        true
    }

    /// The legal turns of the player to move into `survivors`, or `None` (having added none)
    /// where the position needs them generated: every turn one move (no placement possible
    /// before it). Never inlined: its frame would weigh on every count by the other ways.
    #[inline(never)]
    pub(super) fn surviving<B: Bitboard, S: Survivors>(&mut self, survivors: &mut S) -> Option<()> {
        let player = self.to_move;
        let plans = self.plans_of(player)?;
        let [plan] = plans else {
            return None;
        };
        if !matches!(plan.steps.last()?.action, Action::Move { .. }) {
            return None;
        }
        let TurnShape {
            kinds,
            placement: None,
        } = self.turn_shape(plans, player)?
        else {
            return None;
        };
        let proof = self.quiet_proof::<B>(player)?;
        let rules = self.rules;
        let sides = self.sides::<B>(player);
        let limited = rules.derived.counter_limits && self.limits_may_bite(player);
        // A move next to no enemy piece along a custodian line captures none by custodian
        // capture.
        let flanking = match rules.captures.custodian.is_empty() {
            true => B::NONE,
            false => (sides.enemies.squares()).fold(B::NONE, |set, enemy| {
                set | rules
                    .bits
                    .flanking::<B>(rules.players.count(), player, enemy)
            }),
        };
        // The moves not judged as they are found, finished and judged together at the end.
        let mut built = self.scratch.pop().unwrap_or_default();
        built.clear();
        let moved_kinds = (0..rules.pieces.kinds.len()).filter(|kind| kinds & (1 << kind) != 0);
        // Piece by piece, one kind after another: what is alike for a kind is found once.
        for kind in moved_kinds {
            let code = rules.pieces.code(kind, player);
            let pieces = self.code_set::<B>(code);
            if pieces.is_empty() {
                continue;
            }
            let sorted = &rules.bits.sorted[code as usize];
            // Listed as generation builds them: where the piece's rules are read together,
            // with their one tag; else rule by rule, each rule's move with its own.
            let tag = match sorted.merged_tag {
                _ if rules.pieces.overlapping[code as usize] => None,
                Some(tag) => Some(tag),
                None if S::LISTS => None,
                None => Some(0),
            };
            let Some(tag) = tag else {
                for from in pieces.squares() {
                    self.piece_turns_in(from, code, player, &Turn::EMPTY, &sides, &mut built);
                }
                continue;
            };
            let judged = match limited {
                true => B::NONE,
                false => proof.quiet_landings(kind) & !flanking,
            };
            let only_steps = sorted.only_steps();
            for from in pieces.squares() {
                let (empty, enemies) = match only_steps {
                    Some(block) => self.step_targets(block, from, &sides),
                    None => self.piece_targets(from, code, player, &sides),
                };
                let quiet_to = |to| plain_move(code, from, to, false, tag);
                let mut one_by_one = empty | enemies;
                if proof.judges_from(from) {
                    let quiet = empty & judged;
                    if proof.quiet_moves_legal() {
                        survivors.add_each(quiet, quiet_to);
                    }
                    one_by_one &= !quiet;
                } else {
                    let proven = self.royal_moves_proven(&proof, from, empty & judged);
                    survivors.add_each(proven, quiet_to);
                    one_by_one &= !proven;
                }
                for to in one_by_one.squares() {
                    let captures = sides.enemies.has(to) || self.flanks_from(to, from, &sides);
                    let turn = plain_move(code, from, to, captures, tag);
                    if limited && !self.within_limits(&turn, player) {
                        continue;
                    }
                    match (!captures)
                        .then(|| self.quiet_move(&proof, turn.main(), player))
                        .flatten()
                    {
                        Some(true) => survivors.add(turn),
                        Some(false) => {}
                        None => built.push(turn),
                    }
                }
            }
        }
        self.add_finished(player, &built, survivors);
        self.scratch.push(built);
        Some(())
    }

    /// Adds those of the moves `built` of `player`, finished by the triggers they set off,
    /// that are legal.
    fn add_finished(&mut self, player: usize, built: &[Turn], survivors: &mut impl Survivors) {
        if built.is_empty() {
            return;
        }
        let request = Request {
            start: self.journal_len(),
            ..Request::every_turn(player, self.rules)
        };
        let mut finished = self.scratch.pop().unwrap_or_default();
        finished.clear();
        for turn in built {
            self.carry_on(request, turn, 0, true, &[], &mut finished);
        }
        for turn in &finished {
            if self.within_limits(turn, player) && self.survives_replies(turn, player) {
                survivors.add(*turn);
            }
        }
        self.scratch.push(finished);
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::compiled;
    use crate::engine::{Position, Turn};

    /// Sorted, so that lists in different orders compare.
    fn sorted(mut turns: Vec<Turn>) -> Vec<String> {
        let mut texts: Vec<String> = turns.drain(..).map(|t| format!("{t:?}")).collect();
        texts.sort();
        texts
    }

    /// Below `position`, to `depth` plies, the turns listed by the replies' reading are the
    /// legal turns, built alike, wherever they can be listed so; returns how many positions
    /// listed them.
    fn listed_as_generated(position: &mut Position<'_>, depth: usize) -> usize {
        let mut listed = Vec::new();
        let mut generated = Vec::new();
        position.legal_turns(&mut generated);
        let mut compared = 0;
        if position.list_surviving(&mut listed) {
            assert_eq!(sorted(listed), sorted(generated.clone()));
            compared += 1;
        }
        if depth > 0 {
            for turn in &generated {
                position.make(turn);
                compared += listed_as_generated(position, depth - 1);
                position.unmake();
            }
        }
        compared
    }

    /// Amphora's turns, from the start and along sixty random games: the engine's own
    /// layer, so no position is read from text here.
    #[test]
    fn turns_listed_by_the_replies_are_the_legal_turns() {
        let rules = compiled(include_str!("../../rules/amphora.rules"));
        let mut start = Position::start(&rules);
        assert!(listed_as_generated(&mut start, 4) > 500);
        let mut random = crate::random::Random::new(0xA5F0);
        let mut compared = 0;
        for _ in 0..60 {
            let mut position = Position::start(&rules);
            let mut turns = Vec::new();
            for _ in 0..80 {
                compared += listed_as_generated(&mut position, 1);
                position.legal_turns(&mut turns);
                if turns.is_empty() {
                    break;
                }
                position.make(&turns[random.below(turns.len())]);
            }
        }
        assert!(compared > 3000, "{compared}");
    }
}

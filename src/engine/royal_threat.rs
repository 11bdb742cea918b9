//! Whether a player could remove a royal piece in one turn at all: an over-estimate read from
//! the attack tables and the shape of the turn, so that the rules that judge a turn by the
//! opponent's replies (`royal-captured`, a counter on `checked`) generate those replies only
//! when a royal piece is within reach of some capture method. Replacement capture is read from
//! the attack sets; custodian capture needs a partner beside the royal piece; a removal (by a
//! trigger or a step) needs a group that would select a royal kind. Anything the estimate does
//! not follow (lent moves, several moves in one turn, a step that changes the board before
//! the move) counts as a threat, and the replies are generated as before.

use super::position::Position;
use crate::bitboard::Bitboard;
use crate::compile::turns::{Action, Plan, Step};
use crate::compile::{NO_SQUARE, Sq};

impl Position<'_> {
    /// Whether `by` might remove a royal piece of `victim` with one turn of `plans` (with one
    /// plain move when `plans` is `None`). `false` is a proof that they cannot; `true` says
    /// only that the replies must be generated to know.
    pub(super) fn may_remove_royal(
        &self,
        victim: usize,
        by: usize,
        plans: Option<&[Plan]>,
    ) -> bool {
        !self.rules.derived.threats_estimable
            || at_width!(self.rules, B => self.may_remove_royal_in::<B>(victim, by, plans))
    }

    fn may_remove_royal_in<B: Bitboard>(
        &self,
        victim: usize,
        by: usize,
        plans: Option<&[Plan]>,
    ) -> bool {
        let rules = self.rules;
        let present = std::cell::OnceCell::new();
        let removes = |steps: &[Step]| {
            steps.iter().any(|step| {
                let present = *present.get_or_init(|| self.enemy_kinds::<B>(by));
                self.may_remove_royal_kind(step, present)
            })
        };
        // With no royal piece on the board, every reply "removes" it: leave that to the replies.
        let royals = self.royal_set::<B>(victim);
        let attacked = || {
            royals.is_empty()
                || royals
                    .squares()
                    .any(|royal| self.may_capture_royal_on::<B>(royal, by))
        };
        let by_plan = || {
            plans
                .into_iter()
                .flatten()
                .any(|plan| self.may_change_before_move(&plan.steps, by) || removes(&plan.steps))
        };
        let by_trigger = || {
            (rules.turns.triggers.iter().enumerate()).any(|(index, t)| {
                t.plans.iter().any(|plan| removes(&plan.steps)) && self.may_enter::<B>(by, index)
            })
        };
        attacked() || by_plan() || by_trigger()
    }

    /// Whether a piece of `by` attacks the royal piece on `royal`, flanks it with a partner
    /// for custodian capture, or could take it en passant.
    fn may_capture_royal_on<B: Bitboard>(&self, royal: Sq, by: usize) -> bool {
        let rules = self.rules;
        let partner = |&line: &u16| {
            let beside = rules.geometry.step(line, royal);
            beside != NO_SQUARE && self.player_set::<B>(by).has(beside)
        };
        self.attacked_in(royal, by, self.occupied::<B>(), !B::NONE)
            || rules
                .captures
                .custodian
                .get(by)
                .is_some_and(|lines| lines.iter().any(partner))
            || self.ep_victim == royal
    }

    /// Whether a turn of `steps` may change the board before (or besides) its one move in a
    /// way the attack tables do not follow: a second move, or any step before the move other
    /// than a drop that cannot happen now.
    fn may_change_before_move(&self, steps: &[Step], by: usize) -> bool {
        let moves = steps
            .iter()
            .filter(|s| matches!(s.action, Action::Move { .. }))
            .count();
        let first_move = steps
            .iter()
            .position(|s| matches!(s.action, Action::Move { .. }));
        moves > 1
            || steps[..first_move.unwrap_or(0)]
                .iter()
                .any(|step| !self.impossible_drop(step, by))
    }

    /// Whether `step` is a drop that `by` cannot make now: its condition's counter is zero, or
    /// no piece it may drop is in hand.
    pub(super) fn impossible_drop(&self, step: &Step, by: usize) -> bool {
        if !matches!(step.action, Action::Drop { .. }) {
            return false;
        }
        self.barred(step, by) || self.nothing_to_drop(step, by)
    }

    /// Whether `step` waits on a counter of `by`'s that stands at zero.
    pub(super) fn barred(&self, step: &Step, by: usize) -> bool {
        step.condition
            .is_some_and(|c| self.counter(by, c as usize) == 0)
    }

    /// Whether `step` is a drop of pieces `by` has none of in hand.
    pub(super) fn nothing_to_drop(&self, step: &Step, by: usize) -> bool {
        let Action::Drop { pieces, .. } = step.action else {
            return false;
        };
        pieces & self.droppable(by) == 0
    }

    /// Whether `step` removes an enemy piece from a group that, with the enemies' kinds on the
    /// board being `present`, may hold a royal kind.
    fn may_remove_royal_kind(&self, step: &Step, present: u64) -> bool {
        let Action::Remove {
            enemy: true,
            ref groups,
        } = step.action
        else {
            return false;
        };
        groups
            .iter()
            .find(|(select, _)| present & select != 0)
            .is_some_and(|&(_, removable)| removable & self.rules.derived.royal_kinds != 0)
    }

    /// Whether a piece of `by` that sets off trigger `index`, standing outside its zone, reaches
    /// into it by some rule of its own.
    fn may_enter<B: Bitboard>(&self, by: usize, index: usize) -> bool {
        let rules = self.rules;
        let trigger = &rules.turns.triggers[index];
        let approach = rules.bits.approach::<B>(index, rules.players.count(), by);
        let near = self.kinds_set::<B>(by, trigger.pieces) & approach;
        if near.is_empty() {
            return false;
        }
        let zone = rules.zones.squares::<B>(trigger.zone, by);
        let sides = self.sides::<B>(by);
        near.squares().any(|from| {
            let code = self.board[from as usize];
            self.rules.pieces.programs[code as usize]
                .iter()
                .any(|rule| {
                    let (empty, enemies) = self.rule_targets(rule, from, &sides);
                    ((empty | enemies) & zone).any()
                })
        })
    }

    /// The kinds the players other than `by` have on the board, as a mask.
    fn enemy_kinds<B: Bitboard>(&self, by: usize) -> u64 {
        let rules = self.rules;
        let enemies = self.occupied::<B>() & !self.player_set::<B>(by);
        (0..rules.pieces.kinds.len())
            .filter(|&kind| {
                (0..rules.players.count())
                    .filter(|&player| player != by)
                    .any(|player| {
                        (self.code_set::<B>(rules.pieces.code(kind, player)) & enemies).any()
                    })
            })
            .fold(0, |mask, kind| mask | 1 << kind)
    }
}

impl Position<'_> {
    /// Checks the estimate against the replies themselves, after each turn the player to move
    /// could make: where it says no reply can remove a royal piece, none does. For the
    /// consistency walk; an error names the first turn where they disagree.
    pub fn check_royal_threat_estimate(&mut self) -> Result<(), String> {
        let player = self.to_move;
        let Some(plans) = self.plans_of(player).filter(|_| self.rules.derived.royal) else {
            return Ok(());
        };
        let mut turns = Vec::new();
        self.pseudo_turns(player, plans, &mut turns);
        for turn in &turns {
            self.make_as(turn, player);
            let opponent = self.to_move;
            let disagrees = match self.plans_of(opponent) {
                Some(replies) if !self.may_remove_royal(player, opponent, Some(replies)) => {
                    let mut all = Vec::new();
                    self.pseudo_turns(opponent, replies, &mut all);
                    all.iter().any(|r| self.takes_royal(r, opponent, player))
                }
                _ => false,
            };
            let missed_check = !self.may_remove_royal(player, opponent, None)
                && !self.threats(player, opponent, 1).is_empty();
            self.unmake();
            if disagrees || missed_check {
                return Err(format!(
                    "after {turn:?} a reply removes a royal piece, though the estimate says none can"
                ));
            }
        }
        Ok(())
    }
}

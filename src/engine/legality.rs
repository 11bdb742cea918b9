//! Legality: which of the turns a program makes leave the mover's royal pieces safe, by the
//! strategy the ruleset chose once (none needed, pins, or make and test), and the drop limits
//! that depend on the position a drop leaves.

use super::position::Position;
use super::turn::{PartKind, Turn};
use crate::compile::{Legality, NO_SQUARE, Sq};

impl Position<'_> {
    /// Removes from `out` the turns of `player` that leave a royal piece capturable. When the
    /// royal piece is not attacked, a plain move of another piece is proven legal by the pins
    /// alone.
    pub(super) fn keep_legal(&mut self, player: usize, out: &mut Vec<Turn>) {
        let rules = self.rules;
        match rules.derived.legality {
            Legality::Free => return,
            Legality::Reply => {
                out.retain(|turn| self.survives_replies(turn, player));
                return;
            }
            Legality::Pins | Legality::MakeAndTest => {}
        }
        let royal = self.single_royal(player);
        let attacker = self.next_player(player);
        let quiet = rules.derived.legality == Legality::Pins
            && royal != NO_SQUARE
            && !self.attacked(royal, attacker);
        let mut pins = std::mem::take(&mut self.pins);
        if quiet {
            pins.compute(self, royal, player, attacker);
        }
        out.retain(|turn| {
            let main = turn.main();
            let single = quiet && turn.len() == 1;
            match main.kind {
                PartKind::Move | PartKind::Promote if single && main.from != royal => {
                    pins.allows(main.from, main.to)
                }
                // A drop only adds a piece, so it cannot expose the royal piece.
                PartKind::Drop
                    if single
                        && !rules.pieces.kinds[rules.pieces.split(main.piece).0]
                            .drops
                            .no_mate =>
                {
                    true
                }
                _ => self.is_legal(turn, player),
            }
        });
        self.pins = pins;
    }

    /// Whether, after `turn`, no turn the next player could make removes a royal piece of
    /// `player`. Their turns are judged without regard to their own royal piece: a turn that
    /// removes a royal piece ends the game before anything else matters.
    fn survives_replies(&mut self, turn: &Turn, player: usize) -> bool {
        self.make_as(turn, player);
        let opponent = self.to_move;
        let mut replies = self.scratch.pop().unwrap_or_default();
        replies.clear();
        if let Some(plans) = self.plans_of(opponent) {
            self.pseudo_turns(opponent, plans, &mut replies);
        }
        let safe = !replies
            .iter()
            .any(|reply| self.removes_royal(reply, opponent, player));
        self.scratch.push(replies);
        self.unmake();
        safe
    }

    /// Whether `by` making `reply` removes a royal piece of `victim`, the reply being a turn
    /// `by` may make (within the limits of their counters).
    fn removes_royal(&mut self, reply: &Turn, by: usize, victim: usize) -> bool {
        self.takes_royal(reply, by, victim)
            && (!self.rules.derived.counter_limits || self.within_limits(reply, by))
    }

    /// Whether the parts of `reply`, made by `by`, take `victim`'s last royal piece off the
    /// board (by any capture: replacement, custodian, a trigger's removal).
    pub(super) fn takes_royal(&mut self, reply: &Turn, by: usize, victim: usize) -> bool {
        let mark = self.mark();
        for part in reply.parts() {
            self.apply(part, by);
        }
        let taken = !self.has_royal(victim);
        self.rewind(mark);
        taken
    }

    /// Royal safety, and the drop limits that depend on the resulting position.
    fn is_legal(&mut self, turn: &Turn, mover: usize) -> bool {
        self.make_as(turn, mover);
        let mut legal = !self.royal_in_danger(mover);
        if legal && turn.main().kind == PartKind::Drop {
            legal = !self.drop_mates(turn);
        }
        self.unmake();
        legal
    }

    /// Whether `player`'s royal piece can be captured by the player who moves after it.
    pub fn royal_in_danger(&self, player: usize) -> bool {
        self.royal_attacked_by(player, self.next_player(player))
    }

    /// Whether `by` attacks a royal piece of `player`.
    pub(super) fn royal_attacked_by(&self, player: usize, by: usize) -> bool {
        self.any_royal(player, |sq| self.attacked(sq, by))
    }

    /// Calls `test` on each royal piece of `player` until it returns true.
    fn any_royal(&self, player: usize, test: impl Fn(Sq) -> bool) -> bool {
        if !self.royal_overflow {
            let tracked = self.royals.get(player).copied().unwrap_or(NO_SQUARE);
            return tracked != NO_SQUARE && test(tracked);
        }
        (0..self.board.len() as Sq).any(|sq| {
            self.piece(self.board[sq as usize])
                .is_some_and(|(kind, p)| p == player && self.rules.pieces.kinds[kind].royal)
                && test(sq)
        })
    }

    /// Whether `player` has a royal piece on the board.
    pub fn has_royal(&self, player: usize) -> bool {
        self.any_royal(player, |_| true)
    }

    /// The square of `player`'s one royal piece, or none if it has none or several.
    fn single_royal(&self, player: usize) -> Sq {
        match self.royal_overflow {
            true => NO_SQUARE,
            false => self.royals.get(player).copied().unwrap_or(NO_SQUARE),
        }
    }

    /// Keeps the square open to en passant only if the player to move can take there legally:
    /// a right that cannot be used does not make a position different. The legal turns found
    /// serve the turn's first generation.
    pub(super) fn confirm_en_passant(&mut self) {
        if self.ep == NO_SQUARE {
            return;
        }
        let mut turns = self.scratch.pop().unwrap_or_default();
        self.generate_legal(&mut turns);
        let victim = self.ep_victim;
        let usable = turns.iter().any(|turn| {
            turn.parts()
                .iter()
                .any(|p| p.kind == PartKind::Take && p.from == victim)
        });
        if !usable {
            self.close_en_passant();
        }
        self.ready = Some((self.depth(), turns));
    }

    /// Whether the player to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_in_danger(self.to_move)
    }

    /// A drop of a `no-mate` piece that leaves the opponent without a legal turn while in
    /// check. Called with the drop made.
    fn drop_mates(&mut self, turn: &Turn) -> bool {
        let (kind, _) = self.rules.pieces.split(turn.main().piece);
        if !self.rules.pieces.kinds[kind].drops.no_mate || !self.in_check() {
            return false;
        }
        let mut replies = Vec::new();
        self.generate_legal(&mut replies);
        replies.is_empty()
    }
}

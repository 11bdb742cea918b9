//! The end of the game, judged at the start of each turn: the rule file's end rules, tried in
//! order for the player to move, given that player's legal turns.

use super::Position;
use super::steps::Request;
use super::turn::Turn;
use crate::bitboard::Bitboard;
use crate::compile::turns::Plan;
use crate::compile::{EndCondition, Outcome};

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The players whose bits are set win.
    Win {
        players: u32,
        reason: String,
        cause: Cause,
    },
    /// The players whose bits are set share a draw.
    Draw {
        players: u32,
        reason: String,
        cause: Cause,
    },
}

/// What ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// An end rule of the file held.
    Rule(EndCondition),
    /// The last phase of the game is over.
    LastPhaseEnded,
    /// The player to move has no legal turn, and no end rule decides what that means.
    Undecided,
    /// Every other player is out of the game.
    OthersOut,
}

impl std::fmt::Display for Cause {
    /// The end rule's keyword, or a few words for the other causes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Cause::Rule(condition) => condition.keyword(),
            Cause::LastPhaseEnded => "last phase ended",
            Cause::Undecided => "no move, undecided",
            Cause::OthersOut => "others out",
        })
    }
}

impl<'r> Position<'r> {
    /// The ending, if the game is over before the player to move moves.
    pub fn ending(&mut self) -> Option<Ending> {
        let mut turns = self.scratch.pop().unwrap_or_default();
        self.generate_legal(&mut turns);
        let ending = self.ending_given(&turns);
        self.scratch.push(turns);
        ending
    }

    /// The ending, given the legal turns of the player to move.
    pub(super) fn ending_given(&mut self, turns: &[Turn]) -> Option<Ending> {
        if self.current_phase().is_none() {
            let reason = "the last phase of the game has ended".to_string();
            return Some(self.draw(reason, Cause::LastPhaseEnded));
        }
        if self.rules.derived.eliminates && self.players_in() <= 1 {
            let (reason, cause) = self.last_out_reason();
            return Some(Ending::Win {
                players: self.alive,
                reason,
                cause,
            });
        }
        let rules = self.rules;
        for &(outcome, condition) in &rules.endings.rules {
            // Where players are taken out, `lose` rules were applied as the turn started.
            if rules.derived.eliminates && outcome == Outcome::Lose {
                continue;
            }
            if self.holds(condition, turns) {
                return Some(self.decide(outcome, condition));
            }
        }
        turns.is_empty().then(|| {
            let reason = format!(
                "{} has no move, and no end rule decides this",
                rules.players.names[self.to_move]
            );
            self.draw(reason, Cause::Undecided)
        })
    }

    /// Whether an end rule ends the game although the player to move has `turns` (not empty).
    pub(super) fn ends_early(&mut self, turns: &[Turn]) -> bool {
        let rules = self.rules;
        (rules.derived.eliminates && self.players_in() <= 1)
            || rules
                .derived
                .early_ends
                .iter()
                .any(|&condition| self.holds(condition, turns))
    }

    /// Whether an end condition holds for the player to move, who has `turns`.
    pub(super) fn holds(&mut self, condition: EndCondition, turns: &[Turn]) -> bool {
        let stuck = turns.is_empty();
        match condition {
            EndCondition::Checkmated => stuck && self.in_check(),
            EndCondition::Stalemated => stuck && !self.in_check(),
            EndCondition::NoMoves => stuck,
            EndCondition::Extinct => self.has_no_pieces(self.to_move),
            EndCondition::RoyalCaptured => !self.has_royal(self.to_move),
            EndCondition::Repeated(n) => self.occurrences() >= n,
            EndCondition::Quiet { plies, .. } => self.halfmove >= plies,
            EndCondition::Immobilized(kinds) => self.immobilized(kinds, turns),
            EndCondition::Exposed => self.exposed_players(self.to_move) != 0,
            EndCondition::Reaches { kinds, zone } => self.goal_reached(kinds, zone) != 0,
        }
    }

    /// Why `player` lost or the game ended by `condition`, judged with `by` to move.
    fn reason(&self, condition: EndCondition, player: usize, by: usize) -> String {
        let rules = self.rules;
        let name = &rules.players.names[player];
        match condition {
            EndCondition::Checkmated => format!("{name} is checkmated"),
            EndCondition::Stalemated => format!("{name} is stalemated"),
            EndCondition::NoMoves => format!("{name} has no move"),
            EndCondition::Extinct => format!("{name} has no pieces"),
            EndCondition::RoyalCaptured => format!("{name}'s royal piece was captured"),
            EndCondition::Repeated(n) => format!("the position occurred {n} times"),
            EndCondition::Quiet { plies: n, .. } => {
                format!("{n} plies passed without a capture or a counted move")
            }
            EndCondition::Immobilized(kinds) => {
                let piece = &rules.pieces.kinds[kinds.trailing_zeros() as usize].name;
                format!("{name}'s {piece} cannot move, and no action this turn frees it")
            }
            EndCondition::Exposed => format!(
                "{name} is checkmated: {} attacks their royal piece",
                rules.players.names[by]
            ),
            EndCondition::Reaches { kinds, .. } => {
                let piece = &rules.pieces.kinds[kinds.trailing_zeros() as usize].name;
                format!("{name}'s {piece} reached its goal")
            }
        }
    }

    /// How the last player taken out left the game, and by which rule.
    fn last_out_reason(&self) -> (String, Cause) {
        match self.last_out {
            Some(out) => {
                let condition = self.rules.endings.rules[out.rule as usize].1;
                let reason = self.reason(condition, out.player as usize, out.by as usize);
                (reason, Cause::Rule(condition))
            }
            None => (
                "every other player is out of the game".to_string(),
                Cause::OthersOut,
            ),
        }
    }

    /// The ending an end rule that holds for the player to move gives. The rule is about the
    /// player to move, except `exposed`, which is about the players they attack.
    fn decide(&self, outcome: Outcome, condition: EndCondition) -> Ending {
        let mover = self.to_move;
        let (subjects, subject) = match condition {
            EndCondition::Exposed => {
                let exposed = self.exposed_players(mover);
                (exposed, exposed.trailing_zeros() as usize)
            }
            EndCondition::Reaches { kinds, zone } => {
                let reached = self.goal_reached(kinds, zone);
                (reached, reached.trailing_zeros() as usize)
            }
            _ => (1 << mover, mover),
        };
        let reason = self.reason(condition, subject, mover);
        let cause = Cause::Rule(condition);
        match outcome {
            Outcome::Win => Ending::Win {
                players: subjects,
                reason,
                cause,
            },
            Outcome::Lose => Ending::Win {
                players: self.alive & !subjects,
                reason,
                cause,
            },
            Outcome::Draw => self.draw(reason, cause),
        }
    }

    /// The players other than the one to move with a piece of `kinds` in `zone`, as bits.
    fn goal_reached(&self, kinds: u64, zone: u16) -> u32 {
        let rules = self.rules;
        at_width!(rules, B => (0..rules.players.count())
            .filter(|&p| p != self.to_move && self.alive & (1 << p) != 0)
            .filter(|&p| (self.kinds_set::<B>(p, kinds) & rules.zones.squares::<B>(zone, p)).any())
            .fold(0, |players, p| players | 1 << p))
    }

    /// A draw shared by the players still in.
    fn draw(&self, reason: String, cause: Cause) -> Ending {
        Ending::Draw {
            players: self.alive,
            reason,
            cause,
        }
    }

    /// Whether `player` has no piece on the board or in hand.
    pub fn has_no_pieces(&self, player: usize) -> bool {
        let on_board = self
            .board
            .iter()
            .any(|&c| self.piece(c).is_some_and(|(_, p)| p == player));
        let kinds = self.rules.pieces.kinds.len();
        let in_hand = self.hands[player * kinds..(player + 1) * kinds]
            .iter()
            .any(|&n| n > 0);
        !on_board && !in_hand
    }

    /// Whether no piece of `kinds` of the player to move has a complete ordinary turn now,
    /// and none of the player's `turns` would give one such a turn. Judged only in phases
    /// whose ordinary turn moves pieces.
    fn immobilized(&mut self, kinds: u64, turns: &[Turn]) -> bool {
        let Some(phase) = self.current_phase().filter(|p| p.moves) else {
            return false;
        };
        let player = self.to_move;
        let plans = phase.ordinary.as_slice();
        if self.can_move(player, kinds, plans) {
            return false;
        }
        !turns.iter().any(|turn| {
            self.make(turn);
            let freed = self.can_move(player, kinds, plans);
            self.unmake();
            freed
        })
    }

    /// Whether a piece of `kinds` of `player` has a complete turn by `plans`.
    fn can_move(&mut self, player: usize, kinds: u64, plans: &'r [Plan]) -> bool {
        let mut found = self.scratch.pop().unwrap_or_default();
        let request = Request {
            player,
            movers: kinds,
            enough: 1,
        };
        self.generate(request, plans, &mut found);
        let any = !found.is_empty();
        self.scratch.push(found);
        any
    }
}

impl Ending {
    /// What ended the game.
    pub fn cause(&self) -> Cause {
        match self {
            Ending::Win { cause, .. } | Ending::Draw { cause, .. } => *cause,
        }
    }

    /// The players who won, or who share the draw.
    pub fn players(&self) -> u32 {
        match self {
            Ending::Win { players, .. } | Ending::Draw { players, .. } => *players,
        }
    }

    pub fn describe(&self, names: &[String]) -> String {
        let named = |players: u32| {
            let chosen: Vec<&str> = names
                .iter()
                .enumerate()
                .filter(|(p, _)| players & (1 << p) != 0)
                .map(|(_, n)| n.as_str())
                .collect();
            match chosen.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => chosen.join(""),
            }
        };
        match self {
            Ending::Win {
                players, reason, ..
            } => {
                let verb = if players.count_ones() == 1 {
                    "wins"
                } else {
                    "win"
                };
                format!("{} {verb}: {reason}", named(*players))
            }
            // With more than two players, the draw is shared by those still in.
            Ending::Draw {
                players, reason, ..
            } if names.len() > 2 => {
                format!("draw among {}: {reason}", named(*players))
            }
            Ending::Draw { reason, .. } => format!("draw: {reason}"),
        }
    }
}

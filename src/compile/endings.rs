//! The end of the game: the file's end rules, in order.

use super::moves::MoveCompiler;
use super::pieces::kinds_of;
use crate::check::checked::{self, Checked};
pub use crate::check::checked::{Goal, Outcome};

/// The file's end rules, in file order.
#[derive(Clone, Debug)]
pub struct Endings {
    pub rules: Vec<(Outcome, EndCondition)>,
    /// How many of the rules, from the first, run up to the last `lose` rule: those that a
    /// turn's start applies where a loss takes one player out of several.
    pub through_last_lose: usize,
    /// The kinds counted by `Fewer` conditions: one mask per named piece, its forms together.
    pub counted: Vec<Vec<u64>>,
    /// Every draw is a win for this player (armageddon's Black).
    pub draw_odds: Option<usize>,
}

impl Endings {
    pub fn new(checked: &Checked, moves: &mut MoveCompiler<'_>) -> Endings {
        let kinds = |pieces: &[checked::PieceId]| kinds_of(&checked.forms, pieces);
        let mut counted = Vec::new();
        let rules = checked
            .endings
            .iter()
            .map(|rule| {
                let condition = condition(&rule.condition, &kinds, moves, &mut counted);
                (rule.outcome, condition)
            })
            .collect::<Vec<_>>();
        let through_last_lose = (rules.iter())
            .rposition(|&(outcome, _)| outcome == Outcome::Lose)
            .map_or(0, |last| last + 1);
        Endings {
            rules,
            through_last_lose,
            counted,
            draw_odds: checked.draw_odds.map(|player| player.0),
        }
    }

    /// Whether an end rule judges legality from the opponent's whole reply.
    pub fn by_reply(&self) -> bool {
        self.rules
            .iter()
            .any(|&(_, c)| c == EndCondition::RoyalCaptured)
    }
}

fn condition(
    condition: &checked::EndCondition,
    kinds: &impl Fn(&[checked::PieceId]) -> u64,
    moves: &mut MoveCompiler<'_>,
    counted: &mut Vec<Vec<u64>>,
) -> EndCondition {
    match condition {
        checked::EndCondition::Checkmated => EndCondition::Checkmated,
        checked::EndCondition::Stalemated => EndCondition::Stalemated,
        checked::EndCondition::RoyalCaptured => EndCondition::RoyalCaptured,
        checked::EndCondition::Exposed => EndCondition::Exposed,
        checked::EndCondition::NoMoves => EndCondition::NoMoves,
        &checked::EndCondition::NoMovesCounted { fewer } => EndCondition::NoMovesCounted { fewer },
        checked::EndCondition::Extinct => EndCondition::Extinct,
        &checked::EndCondition::CounterReaches(counter, value) => EndCondition::CounterReaches {
            counter: counter.0 as u16,
            value: value.min(u32::from(u16::MAX)) as u16,
        },
        checked::EndCondition::Fewer { below, pieces } => {
            counted.push(pieces.iter().map(|&piece| kinds(&[piece])).collect());
            EndCondition::Fewer {
                below: *below,
                counted: counted.len() as u16 - 1,
            }
        }
        &checked::EndCondition::Bare { reply } => EndCondition::Bare { reply },
        checked::EndCondition::Repeated(n) => EndCondition::Repeated(*n),
        &checked::EndCondition::Passed(n, fewer) => EndCondition::Passed(n.min(255) as u8, fewer),
        &checked::EndCondition::Full(fewer) => EndCondition::Full(fewer),
        checked::EndCondition::Standoff => EndCondition::Standoff,
        checked::EndCondition::Quiet {
            plies,
            captures,
            drops,
            pieces,
        } => EndCondition::Quiet {
            plies: *plies,
            captures: *captures,
            drops: *drops,
            kinds: kinds(pieces),
        },
        checked::EndCondition::Immobilized(piece) => EndCondition::Immobilized(kinds(&[*piece])),
        checked::EndCondition::Reaches(piece, zone, goal) => EndCondition::Reaches {
            kinds: kinds(&[*piece]),
            zone: moves.zone(zone),
            goal: *goal,
        },
    }
}

/// One end rule, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndCondition {
    Checkmated,
    Stalemated,
    NoMoves,
    /// No move, with fewer (or more) pieces on the board than every other player.
    NoMovesCounted {
        fewer: bool,
    },
    Extinct,
    /// A player has fewer than `below` pieces of one of the pieces counted in
    /// `Endings::counted[counted]` (board and hand together): the rule is about that player.
    Fewer {
        below: u32,
        counted: u16,
    },
    /// A player's count on the counter is at least `value`: the rule is about that player.
    CounterReaches {
        counter: u16,
        value: u16,
    },
    /// A player has only royal pieces left: the rule is about that player. With `reply`, the
    /// bare player to move still moves, unless no single capture can bare the opponent, and
    /// is judged after that turn; a bare reply to a bare player leaves the game going.
    Bare {
        reply: bool,
    },
    Repeated(u32),
    /// The last turns, this many in a row, were passes; with a piece count (`Some(true)`:
    /// the player to move has fewer pieces than every other player, `Some(false)`: more).
    Passed(u8, Option<bool>),
    /// No square of the board is empty; with a piece count, as for `Passed`.
    Full(Option<bool>),
    /// The player to move stands in a standoff the last turn, a pass, left standing.
    Standoff,
    /// `plies` in a row without a capture (when `captures` says so) or a move of one of the
    /// kinds in the mask.
    Quiet {
        plies: u32,
        captures: bool,
        drops: bool,
        kinds: u64,
    },
    /// The player to move has no royal piece left on the board.
    RoyalCaptured,
    /// No piece of these kinds has a complete ordinary turn, and no action of the player this
    /// turn gives one such a turn.
    Immobilized(u64),
    /// The player to move attacks another player's royal piece: that player is the one
    /// exposed, and the one the rule's outcome is about.
    Exposed,
    /// A player has a piece of these kinds in the zone (as that player sees it), judged as
    /// `goal` says: that player is the one the rule's outcome is about.
    Reaches {
        kinds: u64,
        zone: u16,
        goal: Goal,
    },
}

impl EndCondition {
    /// The condition's keyword, as rule files write it.
    pub fn keyword(self) -> &'static str {
        match self {
            EndCondition::Checkmated => "checkmated",
            EndCondition::Stalemated => "stalemated",
            EndCondition::NoMoves => "no-moves",
            EndCondition::NoMovesCounted { fewer: true } => "no-moves with fewer pieces",
            EndCondition::NoMovesCounted { fewer: false } => "no-moves with more pieces",
            EndCondition::Extinct => "extinct",
            EndCondition::Fewer { .. } => "fewer than",
            EndCondition::Bare { .. } => "bare",
            EndCondition::CounterReaches { .. } => "counter reaches",
            EndCondition::Repeated(_) => "repeated",
            EndCondition::Passed(..) => "passed",
            EndCondition::Full(_) => "full",
            EndCondition::Standoff => "standoff",
            EndCondition::Quiet { .. } => "quiet plies",
            EndCondition::RoyalCaptured => "royal-captured",
            EndCondition::Immobilized(_) => "immobilized",
            EndCondition::Exposed => "exposed",
            EndCondition::Reaches { .. } => "reaches",
        }
    }

    /// Whether judging the condition needs the legal turns of the player to move.
    pub fn needs_turns(self) -> bool {
        self.needs_only_stuck()
            || matches!(
                self,
                EndCondition::Immobilized(_)
                    | EndCondition::Reaches {
                        goal: Goal::UnlessFollowed,
                        ..
                    }
            )
    }

    /// Whether the condition looks at the legal turns only to see that there are none.
    pub fn needs_only_stuck(self) -> bool {
        matches!(
            self,
            EndCondition::Checkmated
                | EndCondition::Stalemated
                | EndCondition::NoMoves
                | EndCondition::NoMovesCounted { .. }
        )
    }

    /// Whether the condition can end the game while the player to move still has turns.
    pub fn ends_early(self) -> bool {
        !matches!(
            self,
            EndCondition::Checkmated
                | EndCondition::Stalemated
                | EndCondition::NoMoves
                | EndCondition::NoMovesCounted { .. }
        )
    }
}

//! The end of the game: the file's end rules, in order, and what the engine derives from them
//! once (the rules to test while the player to move still has turns, the moves that reset the
//! count of quiet plies).

use super::pieces::kinds_of;
use super::players::Players;
pub use crate::check::checked::Outcome;
use crate::check::checked::{self, Checked};

#[derive(Clone, Debug)]
pub struct Endings {
    /// Each end rule, in file order.
    pub rules: Vec<(Outcome, EndCondition)>,
    /// The end conditions that can end the game while the player to move still has turns:
    /// each turn starts by testing them.
    pub early: Vec<EndCondition>,
    /// More than two players: a `lose` rule takes the player it holds for out of the game,
    /// and the last player left wins.
    pub eliminates: bool,
    /// The kinds whose moves reset the count of quiet plies.
    pub quiet_breakers: u64,
    /// Whether a capture restarts the count of quiet plies.
    pub captures_break_quiet: bool,
}

impl Endings {
    pub fn new(checked: &Checked, players: &Players) -> Endings {
        let kinds = |pieces: &[checked::PieceId]| kinds_of(&checked.forms, pieces);
        let rules: Vec<(Outcome, EndCondition)> = checked
            .endings
            .iter()
            .map(|rule| (rule.outcome, condition(&rule.condition, &kinds)))
            .collect();
        let eliminates = players.count() > 2;
        // With more than two players, `lose` rules are applied at the start of each turn,
        // taking players out; only the other rules can end the game early.
        let early = rules
            .iter()
            .filter(|&&(outcome, _)| !(eliminates && outcome == Outcome::Lose))
            .map(|&(_, c)| c)
            .filter(|c| c.ends_early())
            .collect();
        let quiet_breakers = rules.iter().fold(0, |m, (_, c)| match c {
            EndCondition::Quiet(_, kinds) => m | kinds,
            _ => m,
        });
        // Without a quiet-plies rule the clock counts plies since the last capture, as FEN does.
        let quiet_rules: Vec<bool> = checked
            .endings
            .iter()
            .filter_map(|r| match r.condition {
                checked::EndCondition::Quiet { captures, .. } => Some(captures),
                _ => None,
            })
            .collect();
        Endings {
            rules,
            early,
            eliminates,
            quiet_breakers,
            captures_break_quiet: quiet_rules.is_empty() || quiet_rules.contains(&true),
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
) -> EndCondition {
    match condition {
        checked::EndCondition::Checkmated => EndCondition::Checkmated,
        checked::EndCondition::Stalemated => EndCondition::Stalemated,
        checked::EndCondition::RoyalCaptured => EndCondition::RoyalCaptured,
        checked::EndCondition::Exposed => EndCondition::Exposed,
        checked::EndCondition::NoMoves => EndCondition::NoMoves,
        checked::EndCondition::Extinct => EndCondition::Extinct,
        checked::EndCondition::Repeated(n) => EndCondition::Repeated(*n),
        checked::EndCondition::Quiet { plies, pieces, .. } => {
            EndCondition::Quiet(*plies, kinds(pieces))
        }
        checked::EndCondition::Immobilized(piece) => EndCondition::Immobilized(kinds(&[*piece])),
    }
}

/// One end rule, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndCondition {
    Checkmated,
    Stalemated,
    NoMoves,
    Extinct,
    Repeated(u32),
    /// Plies without a capture or a move of one of the kinds in the mask.
    Quiet(u32, u64),
    /// The player to move has no royal piece left on the board.
    RoyalCaptured,
    /// No piece of these kinds has a complete ordinary turn, and no action of the player this
    /// turn gives one such a turn.
    Immobilized(u64),
    /// The player to move attacks another player's royal piece: that player is the one
    /// exposed, and the one the rule's outcome is about.
    Exposed,
}

impl EndCondition {
    /// The condition's keyword, as rule files write it.
    pub fn keyword(self) -> &'static str {
        match self {
            EndCondition::Checkmated => "checkmated",
            EndCondition::Stalemated => "stalemated",
            EndCondition::NoMoves => "no-moves",
            EndCondition::Extinct => "extinct",
            EndCondition::Repeated(_) => "repeated",
            EndCondition::Quiet(..) => "quiet plies",
            EndCondition::RoyalCaptured => "royal-captured",
            EndCondition::Immobilized(_) => "immobilized",
            EndCondition::Exposed => "exposed",
        }
    }

    /// Whether judging the condition needs the legal turns of the player to move.
    pub fn needs_turns(self) -> bool {
        matches!(
            self,
            EndCondition::Checkmated
                | EndCondition::Stalemated
                | EndCondition::NoMoves
                | EndCondition::Immobilized(_)
        )
    }

    /// Whether the condition can end the game while the player to move still has turns.
    pub fn ends_early(self) -> bool {
        !matches!(
            self,
            EndCondition::Checkmated | EndCondition::Stalemated | EndCondition::NoMoves
        )
    }
}

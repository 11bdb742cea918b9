//! Counters: a number per player, changed at the end of every turn by the first rule whose
//! event happened to that player; with a limit, a turn that takes the mover's count above it
//! is illegal.

use crate::check::checked::{self, CounterAction, PieceId};
use crate::geometry::DirectionSet;

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub limit: Option<u16>,
    pub rules: Vec<(Event, Action)>,
}

#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The player moved a piece, by a displacement in these directions of their own frame.
    Move(DirectionSet),
    /// A piece of these kinds of the player left the board during the turn.
    Lost(u64),
    /// After the turn, the player's royal piece could be removed by the player who moved.
    Checked,
    /// The player's own turn ended.
    TurnEnd,
}

#[derive(Clone, Copy, Debug)]
pub enum Action {
    Add(u16),
    Set(u16),
    Reset,
}

impl Action {
    pub fn apply(self, value: u16) -> u16 {
        match self {
            Action::Add(n) => value.saturating_add(n),
            Action::Set(n) => n,
            Action::Reset => 0,
        }
    }
}

/// The file's counters, in file order; `kinds` gives the kinds of a piece.
pub fn counters(checked: &[checked::Counter], kinds: impl Fn(PieceId) -> u64) -> Vec<Counter> {
    let small = |n: u32| n.min(u32::from(u16::MAX)) as u16;
    checked
        .iter()
        .map(|counter| Counter {
            name: counter.name.clone(),
            limit: counter.limit.map(small),
            rules: counter
                .rules
                .iter()
                .map(|&(event, action)| {
                    let event = match event {
                        checked::CounterEvent::Move(directions) => Event::Move(directions),
                        checked::CounterEvent::Lost(piece) => Event::Lost(kinds(piece)),
                        checked::CounterEvent::Checked => Event::Checked,
                        checked::CounterEvent::TurnEnd => Event::TurnEnd,
                    };
                    let action = match action {
                        CounterAction::Add(n) => Action::Add(small(n)),
                        CounterAction::Set(n) => Action::Set(small(n)),
                        CounterAction::Reset => Action::Reset,
                    };
                    (event, action)
                })
                .collect(),
        })
        .collect()
}

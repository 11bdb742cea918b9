//! What the engine derives once from the other parts, in one place: each flag says whether
//! the rules use a concept, so that a game that does not use it pays nothing for it on the hot
//! path. A new flag is one more field here and one more line in [`Derived::new`].

use super::castling::Castling;
use super::counters::Event;
use super::endings::Endings;
use super::pieces::PieceTables;
use super::turns::{PhaseEnd, TurnTables};

/// How the engine proves a turn legal, chosen once for the ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legality {
    /// No piece is royal: every turn the program makes is legal.
    Free,
    /// Every capture is a plain leap or slide: pins prove most moves legal without making them.
    Pins,
    /// Each turn is made and the royal pieces tested.
    MakeAndTest,
    /// Each turn is made, and is illegal if any turn the next player could then make, with
    /// their real counters and hand, removes a royal piece of the mover: for games where a
    /// royal piece can be taken by more than the attack tables know (custodian capture,
    /// triggers, lent moves).
    Reply,
}

#[derive(Clone, Debug)]
pub struct Derived {
    /// Whether any kind is royal.
    pub royal: bool,
    /// Some promotion turns a royal piece into a non-royal one or back, so royal pieces are
    /// found by scanning rather than tracked.
    pub royalty_changes: bool,
    /// Every capture is a plain leap or slide, so pins fully describe discovered attacks.
    pub plain_attacks: bool,
    pub legality: Legality,
    /// Some move is allowed only as a piece's first move, so positions track unmoved pieces.
    pub first_moves: bool,
    /// Some turn places a piece and then moves: two placements may end in the same position,
    /// and are then one turn.
    pub placement_then_move: bool,
    /// Some counter has a limit: turns are tested against it.
    pub counter_limits: bool,
    /// The limited counters change only on moves and turn ends, so a turn's effect on them is
    /// known without making it.
    pub simple_limits: bool,
    /// Positions count each player's turns of the phase: some phase ends or has periodic turns.
    pub counts_turns: bool,
}

impl Derived {
    pub fn new(
        pieces: &PieceTables,
        turns: &TurnTables,
        endings: &Endings,
        castling: &Castling,
    ) -> Derived {
        let kinds = &pieces.kinds;
        let royal = kinds.iter().any(|k| k.royal);
        let plain_attacks = pieces.attacks.iter().all(|a| {
            a.hops.is_empty()
                && a.anywhere == 0
                && a.leaps.iter().all(|(_, _, path)| path.is_empty())
        });
        let limited = turns.counters.iter().filter(|c| c.limit.is_some());
        Derived {
            royal,
            royalty_changes: kinds.iter().any(|k| {
                k.promotions
                    .iter()
                    .flat_map(|p| &p.targets)
                    .any(|&t| kinds[t as usize].royal != k.royal)
            }),
            plain_attacks,
            legality: match (royal, endings.by_reply(), plain_attacks) {
                (false, _, _) => Legality::Free,
                (true, true, _) => Legality::Reply,
                (true, false, true) => Legality::Pins,
                (true, false, false) => Legality::MakeAndTest,
            },
            first_moves: pieces.programs.iter().flatten().any(|g| g.first)
                || castling.free.iter().any(|c| c.unmoved),
            placement_then_move: turns.placement_then_move(),
            counter_limits: limited.clone().next().is_some(),
            simple_limits: limited
                .flat_map(|c| &c.rules)
                .all(|(event, _)| matches!(event, Event::Move(_) | Event::TurnEnd)),
            counts_turns: turns
                .phases
                .iter()
                .any(|p| p.end != PhaseEnd::Never || p.cycle > 1),
        }
    }
}

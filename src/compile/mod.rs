//! Compile: a resolved rule file ([`Checked`]) → a [`Ruleset`] of flat, precomputed tables. The
//! ruleset is made of parts, each built whole by the module that owns it, in an order where
//! each part needs only the parts before it; what the engine derives from them is worked out
//! once, in [`derived`]. The engine works from the ruleset alone.

mod bitboards;
mod captures;
mod castling;
pub mod counters;
mod derived;
mod endings;
mod forbidden;
pub mod geometry;
mod moves;
mod pieces;
mod players;
mod setup;
mod shifts;
mod slides;
pub mod support;
pub mod turns;
pub mod zobrist;
mod zones;

pub use bitboards::{BitTables, SortedProgram};
pub use captures::{Captures, Explosion};
pub use castling::{CastleRight, Castling, FreeCastle};
pub use derived::{Derived, Legality};
pub use endings::{EndCondition, Endings, Goal, Outcome};
pub use forbidden::Forbids;
pub use geometry::{Geometry, NO_SQUARE, Sq};
pub use moves::{ANY_KIND, Gen, Hop, Mode};
pub use pieces::{Attacks, DropLimits, Kind, Lend, PieceTables, Promotion};
pub use players::Players;
pub use setup::Start;
pub use shifts::ShiftTables;
pub use support::Unsupported;
pub use turns::TurnTables;
pub use zones::ZoneSets;
pub use zones::zone_squares;

use crate::check::Checked;
use moves::MoveCompiler;
use zobrist::Zobrist;
use zones::ZoneEvaluator;

/// A piece on a square: [`EMPTY`], [`BLOCKED`], or `1 + kind * players + player`.
pub type Code = u8;
pub const EMPTY: Code = 0;
pub const BLOCKED: Code = 255;

/// Everything the engine needs to play one variant.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub name: String,
    /// The board: dense squares and a step table per vector the rules use.
    pub geometry: Geometry,
    pub players: Players,
    /// The zones the rules use, as square sets per player.
    pub zones: ZoneSets,
    /// Every kind, its move programs and the attack tables.
    pub pieces: PieceTables,
    pub captures: Captures,
    pub castling: Castling,
    /// The phases and their turn programs, triggers and counters.
    pub turns: TurnTables,
    pub endings: Endings,
    pub start: Start,
    pub zobrist: Zobrist,
    /// Bitboard tables of the lines, leaps and squares above.
    pub bits: BitTables,
    /// The pieces that only step, as shifts of the set of them.
    pub shifts: ShiftTables,
    /// What the engine derives once from the parts above.
    pub derived: Derived,
}

/// Compiles a resolved rule file; refuses one that uses concepts the engine does not run.
pub fn compile(checked: &Checked) -> Result<Ruleset, Unsupported> {
    let missing = support::unsupported(&checked.uses);
    if !missing.is_empty() {
        return Err(Unsupported(missing));
    }
    let players = Players::new(checked);
    let board = Geometry::new(&checked.board);
    let evaluator = ZoneEvaluator::new(checked, &board, &players.forward);
    let mut moves = MoveCompiler::new(board.clone(), &players, &evaluator, &checked.forms);
    let pieces = PieceTables::new(checked, &mut moves, &players);
    let turns = TurnTables::new(checked, &mut moves, pieces.all());
    let endings = Endings::new(checked, &mut moves);
    let MoveCompiler {
        mut geometry,
        zones,
        ..
    } = moves;
    let captures = Captures::new(checked, &mut geometry, &players);
    let mut start = Start::new(checked, &geometry, &pieces, &players);
    start.open_gates(&turns.gate_zones(), &zones, &pieces);
    let castling = Castling::new(checked, &mut geometry, &pieces, &players, &start.board)?;
    let mut bits = BitTables::new(&geometry, &pieces, &players);
    bits.add_approaches(&geometry, &pieces, &players, &turns.triggers, &zones);
    bits.add_promotion_zones(&pieces, &zones);
    bits.add_flanks(&geometry, &captures.custodian, &captures.custodian_back);
    let shifts = ShiftTables::new(&geometry, &pieces, players.count(), &zones);
    let derived = Derived::new(
        &players, &pieces, &captures, &castling, &turns, &endings, &start,
    );
    let zobrist = Zobrist::new(
        geometry.squares(),
        players.count(),
        pieces.kinds.len(),
        turns.phases.len(),
    )
    .with_counter_slots(players.count() * turns.counters.len());
    Ok(Ruleset {
        name: checked.game.clone(),
        geometry,
        players,
        zones,
        pieces,
        captures,
        castling,
        turns,
        endings,
        start,
        zobrist,
        bits,
        shifts,
        derived,
    })
}

/// The rules of a file's text that checks and plays, for the unit tests.
#[cfg(test)]
pub(crate) fn compiled(text: &str) -> Ruleset {
    let parsed = crate::syntax::parse_recovering(text);
    let checked = crate::check::check(&parsed, text).checked;
    compile(&checked.expect("the file checks")).expect("the file plays")
}

//! What the checker hands on: a valid rule file with every name resolved to a typed id, every
//! square placed on the board, direction words turned into direction sets, `turn`s outside
//! phases gathered into the one phase they form, and the pieces' promoted forms worked out once.
//! The compiler builds the engine's tables from this alone: it never sees a name as text, and
//! has nothing left to look up.

use super::features::Feature;
use super::forms::Forms;
use super::{BoardShape, Cell};
use crate::diagnostic::Span;
use crate::geometry::{Compass, DirectionSet};
pub use crate::syntax::ast::{
    Comparison, CounterAction, Forbidden, Goal, Linear, Mode as MoveMode, Outcome, PhaseEnd,
};

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub usize);
    )*};
}

ids! {
    /// A player, by turn order.
    PlayerId,
    /// A declared piece, by declaration order: an index into [`Checked::pieces`].
    PieceId,
    /// A named zone, by declaration order: an index into [`Checked::zones`].
    ZoneId,
    /// A counter, by declaration order: an index into [`Checked::counters`].
    CounterId,
    /// A move tag (`as rook`), by first declaration.
    TagId,
}

/// A valid rule file, resolved.
#[derive(Clone, Debug)]
pub struct Checked {
    pub game: String,
    pub board: BoardShape,
    pub players: Vec<Player>,
    /// Named zones, in declaration order.
    pub zones: Vec<Zone>,
    /// The named zones in an order where each comes after the zones it uses.
    pub zone_order: Vec<ZoneId>,
    pub pieces: Vec<Piece>,
    /// Every form a piece can take on the board: the declared pieces, then promoted forms.
    pub forms: Forms,
    /// How many move tags the file declares.
    pub tags: usize,
    pub captures: Captures,
    /// The kinds of turn `forbid` rules make illegal.
    pub forbidden: Vec<Forbidden>,
    pub counters: Vec<Counter>,
    /// The phases of the game, in order; a file without phases has one, named `play`.
    pub phases: Vec<Phase>,
    pub triggers: Vec<Trigger>,
    /// The end rules, in file order.
    pub endings: Vec<EndRule>,
    /// Every draw is a win for this player.
    pub draw_odds: Option<PlayerId>,
    pub setup: Setup,
    pub tests: Vec<TestCase>,
    /// Each concept of the language the file uses, with its first use.
    pub uses: Vec<(Feature, Span)>,
}

#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub forward: Option<Compass>,
}

#[derive(Clone, Debug)]
pub struct Zone {
    pub name: String,
    pub cases: ZoneCases,
}

#[derive(Clone, Debug)]
pub enum ZoneCases {
    /// One expression, evaluated for each player in turn.
    Shared(ZoneExpr),
    /// An expression per player, indexed by player.
    PerPlayer(Vec<ZoneExpr>),
}

/// A set of squares, evaluated for one player at a time.
#[derive(Clone, Debug, PartialEq)]
pub enum ZoneExpr {
    Or(Vec<ZoneExpr>),
    And(Vec<ZoneExpr>),
    Not(Box<ZoneExpr>),
    /// Ranks counted from the evaluating player's own side, one-based and inclusive.
    Ranks(u32, u32),
    /// Files, zero-based and inclusive.
    Files(u32, u32),
    Squares(Vec<Cell>),
    /// The squares next to the player's pieces of a kind, as the board stands.
    NextTo(PieceId),
    HalfPlane(Linear, Comparison, Linear),
    Any,
    Named(ZoneId),
}

/// A declared piece.
#[derive(Clone, Debug)]
pub struct Piece {
    pub name: String,
    pub letter: String,
    pub royal: bool,
    /// Royal together: the player's royal pieces are in check only when all are attacked.
    pub together: bool,
    /// Its move rules, in file order, each `like` replaced by the other piece's rules, without
    /// repeats.
    pub moves: Vec<MoveRule>,
    pub promotions: Vec<Promotion>,
    pub drops: DropLimits,
    pub grants: Vec<Grant>,
    pub castles: Vec<Castle>,
    /// After it moves or is dropped, the enemy pieces next to it in these directions become
    /// the mover's.
    pub converts: DirectionSet,
    /// Converts the enemy pieces of each line flanked by it and another of the mover's pieces.
    pub converts_flanked: bool,
    /// Stands off against another player's piece of its kind on an open line in these
    /// directions (none when empty).
    pub standoff: DirectionSet,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveRule {
    /// Move only or capture only; both when `None`.
    pub mode: Option<MoveMode>,
    pub atom: Atom,
    /// Only from the squares of this zone.
    pub from: Option<ZoneExpr>,
    /// Only to the squares of this zone.
    pub to: Option<ZoneExpr>,
    /// The pieces it may capture, when not all.
    pub takes: Option<Takes>,
    /// The pieces a hop may jump over, when not all.
    pub over: Option<Takes>,
    pub lame: bool,
    pub passable: bool,
    pub en_passant: bool,
    /// Only as the piece's first move.
    pub first: bool,
    pub tag: Option<TagId>,
}

/// Which pieces a rule may take (or hop over): the named ones, or all but them.
#[derive(Clone, Debug, PartialEq)]
pub struct Takes {
    pub except: bool,
    pub pieces: Vec<PieceId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    Step(DirectionSet),
    /// At most this many squares when given.
    Slide(DirectionSet, Option<u32>),
    Leap((i64, i64), DirectionSet),
    Ride((i64, i64), DirectionSet, Option<u32>),
    /// Over one piece: landing anywhere beyond it (`true`; at most so many squares from the
    /// start when given) or just beyond it.
    Hop(DirectionSet, bool, Option<u32>),
    Anywhere,
}

#[derive(Clone, Debug)]
pub struct Promotion {
    pub targets: Vec<PieceId>,
    /// Targets chosen only while the player has fewer than so many of them on the board.
    pub limits: Vec<(PieceId, u32)>,
    pub optional: bool,
    /// The move may start or end in the zone; otherwise it must end there.
    pub via: bool,
    /// A turn of its own for a piece standing in the zone.
    pub standing: bool,
    /// Only on a move that captures.
    pub by_capture: bool,
    /// A piece that is its player's only one of its kind promotes outside the zone too.
    pub lone_anywhere: bool,
    /// The new piece may not attack an enemy piece where it lands.
    pub peaceful: bool,
    pub zone: ZoneExpr,
}

#[derive(Clone, Debug, Default)]
pub struct DropLimits {
    /// Zones the piece may only be dropped in.
    pub inside: Vec<ZoneExpr>,
    /// Zones it may not be dropped in.
    pub outside: Vec<ZoneExpr>,
    /// At most this many of the player's pieces of the kind on one file.
    pub per_file: Option<u32>,
    pub no_mate: bool,
    /// Also dropped as any piece it promotes to.
    pub promoted: bool,
    /// The player's pieces of the kind spread evenly over both colours of squares.
    pub opposite_colours: bool,
    /// An endless supply in every player's hand.
    pub unlimited: bool,
    /// Only where it converts at least one enemy piece.
    pub converting: bool,
}

/// Moves a piece lends to its neighbours.
#[derive(Clone, Debug)]
pub struct Grant {
    /// Lent to enemy pieces; otherwise to the lender's own side.
    pub enemy: bool,
    /// Where the neighbours stand, from the lender.
    pub neighbours: DirectionSet,
    pub rules: Vec<MoveRule>,
}

#[derive(Clone, Debug)]
pub struct Castle {
    pub lines: DirectionSet,
    pub distance: u32,
    pub any_colour: bool,
    pub partner: PieceId,
    pub safe: bool,
    pub unmoved: bool,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Captures {
    pub to_hand: bool,
    pub compulsory: bool,
    /// Nothing is ever captured.
    pub none: bool,
    /// The lines of custodian capture, when the file has it.
    pub custodian: Option<DirectionSet>,
    /// Captures explode, sparing neighbours of the first kinds and never removing the
    /// second; `None` when they do not.
    pub explodes: Option<(Vec<PieceId>, Vec<PieceId>)>,
    /// The pieces that turn into a blocked square when they capture.
    pub petrifies: Vec<PieceId>,
}

#[derive(Clone, Debug)]
pub struct Counter {
    pub name: String,
    pub limit: Option<u32>,
    /// The first rule whose event happened applies.
    pub rules: Vec<(CounterEvent, CounterAction)>,
}

#[derive(Clone, Copy, Debug)]
pub enum CounterEvent {
    /// A move whose displacement points into these directions of the mover's frame.
    Move(DirectionSet),
    Lost(PieceId),
    Checked,
    TurnEnd,
}

#[derive(Clone, Debug)]
pub struct Phase {
    pub name: String,
    /// The players who move in it, in turn order.
    pub movers: Vec<PlayerId>,
    /// How it ends; the last phase may last the rest of the game.
    pub end: Option<PhaseEnd>,
    pub ordinary: Vec<Plan>,
    /// Turns that replace the ordinary one on every N-th turn of a player, as (N, plans).
    pub periodic: Vec<(u32, Vec<Plan>)>,
}

/// Steps carried out in order; a turn carries out one of its plans.
#[derive(Clone, Debug)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// Tried only when the plans of every lower tier give no legal turn (`else`).
    pub tier: u8,
    /// Where the file writes the plan (nowhere, for the turn of a file that writes none).
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Step {
    pub optional: bool,
    /// Allowed only while the player's count of this counter is not zero.
    pub condition: Option<CounterId>,
    pub action: Action,
}

/// What a step does. A list of pieces that is empty stands for every piece.
#[derive(Clone, Debug)]
pub enum Action {
    Move(Vec<PieceId>),
    Drop(Vec<PieceId>, Option<DropZone>),
    /// A piece from hand enters on a gate the move just left (of the zone, if given).
    Gate(Vec<PieceId>, Option<ZoneExpr>),
    /// Arrow flights; the first case whose tag matches the move just made applies.
    Shoot(Vec<ArrowCase>),
    Unblock,
    Remove(Removal),
    Pie,
    Pass,
}

#[derive(Clone, Debug)]
pub enum DropZone {
    /// Next to the player's pieces of a kind, as the board stands.
    NextTo(PieceId),
    Zone(ZoneExpr),
}

#[derive(Clone, Debug)]
pub struct ArrowCase {
    /// After moves with this tag; after any move when `None`.
    pub tag: Option<TagId>,
    pub rules: Vec<MoveRule>,
}

#[derive(Clone, Debug)]
pub struct Removal {
    pub enemy: bool,
    /// Each group but the last applies while the side has its first piece on the board.
    pub groups: Vec<Vec<PieceId>>,
    pub except: Vec<PieceId>,
}

/// Steps that follow a move of one of `pieces` into `zone` from outside it.
#[derive(Clone, Debug)]
pub struct Trigger {
    pub zone: ZoneExpr,
    pub pieces: Vec<PieceId>,
    pub plans: Vec<Plan>,
}

#[derive(Clone, Debug)]
pub struct EndRule {
    pub outcome: Outcome,
    pub condition: EndCondition,
}

#[derive(Clone, Debug)]
pub enum EndCondition {
    Checkmated,
    Stalemated,
    NoMoves,
    /// No move, with fewer (or more) pieces on the board than every other player.
    NoMovesCounted {
        fewer: bool,
    },
    RoyalCaptured,
    Exposed,
    /// The player has no piece at all, on the board or in hand.
    Extinct,
    /// The player has fewer than `below` pieces of one of these (board and hand together).
    Fewer {
        below: u32,
        pieces: Vec<PieceId>,
    },
    /// The player has only royal pieces left; `reply` lets them answer once.
    Bare {
        reply: bool,
    },
    Repeated(u32),
    /// The last turns, this many in a row, were passes; with a piece count (`Some(true)`:
    /// fewer pieces than every other player, `Some(false)`: more).
    Passed(u32, Option<bool>),
    /// No square of the board is empty; with a piece count, as for `Passed`.
    Full(Option<bool>),
    /// The player to move stands in a standoff the last turn, a pass, left standing.
    Standoff,
    Immobilized(PieceId),
    /// A piece of this kind stands in the zone, as its owner sees it.
    Reaches(PieceId, ZoneExpr, Goal),
    /// A player's count on the counter is at least the value.
    CounterReaches(CounterId, u32),
    /// Plies in a row without a capture (when `captures` says so), a drop (when `drops` says
    /// so) or a move of these pieces.
    Quiet {
        plies: u32,
        captures: bool,
        drops: bool,
        pieces: Vec<PieceId>,
    },
}

/// The start position as the `setup` items give it.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// Each piece placed: its square, its player and its kind.
    pub placed: Vec<(Cell, PlayerId, PieceId)>,
    /// Each piece in a hand.
    pub in_hand: Vec<(PlayerId, PieceId)>,
    /// Squares where a piece that enters by drop gains the castling rights it would have had
    /// there from the start: square, player and kind.
    pub castling_homes: Vec<(Cell, PlayerId, PieceId)>,
    /// Where each player is set up.
    pub spans: Vec<(PlayerId, Span)>,
}

/// A `test` block, ready to run.
#[derive(Clone, Debug)]
pub struct TestCase {
    pub name: String,
    pub position: Option<String>,
    pub moves: Option<String>,
    pub perft: Vec<(u32, u64)>,
    pub move_list: Option<Vec<String>>,
}

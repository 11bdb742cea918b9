//! The typed syntax tree of a rule file. Every node keeps the byte span of its source text, so
//! later stages can point at exactly what they complain about. Nothing here is checked: names
//! are unresolved and numbers unbounded; that is the checker's work.

pub use crate::diagnostic::Span;
pub use crate::geometry::{Compass, Direction};
use std::fmt;

/// A value with the span it was written at.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// A name as written: of a player, piece, zone, counter, move tag or phase.
pub type Name = Spanned<String>;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleFile {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Game(Spanned<String>),
    Board(Board),
    Player(Player),
    Zone(Zone),
    Piece(Piece),
    Capture(Spanned<CaptureRule>),
    Forbid(Spanned<Forbidden>),
    Counter(Counter),
    Turn(Turn),
    Phase(Phase),
    Trigger(Trigger),
    End(EndRule),
    /// `draw odds PLAYER`: every draw is a win for that player.
    DrawOdds(Spanned<Name>),
    Setup(Setup),
    Test(Test),
}

// ---------------------------------------------------------------------------------------------
// Board and players

#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub width: Spanned<u32>,
    pub height: Spanned<u32>,
    pub layout: BoardLayout,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BoardLayout {
    Full,
    /// Rows as drawn, top row (highest rank) first; `true` is a square, `false` a hole.
    Shape(Vec<Spanned<Vec<bool>>>),
    Holes(Vec<SquareItem>),
}

/// A square, zero-based: `a1` is file 0, rank 0. A rank that no board has (`a0`, or one too
/// large for `u32`) is `u32::MAX`, so that it is off every board instead of wrapping onto one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Square {
    pub file: u32,
    pub rank: u32,
    /// The rank as written, one-based, so that messages show the square as the author wrote it.
    pub written_rank: u64,
    pub span: Span,
}

/// One square, or a straight run of squares `a2..h2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SquareItem {
    pub from: Square,
    pub to: Option<Square>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub name: Name,
    pub forward: Option<Spanned<Compass>>,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Zones

#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    pub name: Name,
    pub definition: ZoneDefinition,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ZoneDefinition {
    /// One expression, evaluated for each player in turn.
    Shared(ZoneExpr),
    /// A separate expression per player.
    PerPlayer(Vec<(Name, ZoneExpr)>),
}

pub type ZoneExpr = Spanned<ZoneKind>;

impl Zone {
    /// The names of the zones this zone's definition uses.
    pub fn references(&self) -> Vec<&str> {
        let mut out = Vec::new();
        match &self.definition {
            ZoneDefinition::Shared(e) => e.value.references(&mut out),
            ZoneDefinition::PerPlayer(cases) => {
                cases.iter().for_each(|(_, e)| e.value.references(&mut out))
            }
        }
        out
    }
}

/// For each zone, the indices (within `zones`) of the zones its definition uses; names that
/// are not among them are left out.
pub fn zone_edges(zones: &[&Zone]) -> Vec<Vec<usize>> {
    let index: std::collections::HashMap<&str, usize> = zones
        .iter()
        .enumerate()
        .map(|(i, z)| (z.name.value.as_str(), i))
        .collect();
    zones
        .iter()
        .map(|z| {
            z.references()
                .into_iter()
                .filter_map(|n| index.get(n).copied())
                .collect()
        })
        .collect()
}

impl ZoneKind {
    /// Appends the names of the zones this expression uses.
    pub fn references<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            ZoneKind::Or(parts) | ZoneKind::And(parts) => {
                parts.iter().for_each(|p| p.value.references(out))
            }
            ZoneKind::Not(inner) => inner.value.references(out),
            ZoneKind::Ref(name) => out.push(&name.value),
            _ => {}
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ZoneKind {
    Or(Vec<ZoneExpr>),
    And(Vec<ZoneExpr>),
    Not(Box<ZoneExpr>),
    /// Ranks counted from the evaluating player's own side, one-based and inclusive.
    Ranks(Spanned<u32>, Spanned<u32>),
    /// Files by letter, zero-based and inclusive.
    Files(u32, u32),
    Squares(Vec<SquareItem>),
    NextTo(Name),
    HalfPlane(Linear, Comparison, Linear),
    Any,
    Ref(Name),
}

/// `c0 + c1*x + c2*y`, with one-based coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Linear {
    pub constant: i64,
    pub x: i64,
    pub y: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    Less,
    LessEqual,
    Equal,
    NotEqual,
    GreaterEqual,
    Greater,
}

// ---------------------------------------------------------------------------------------------
// Pieces

#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub name: Name,
    pub letter: Spanned<String>,
    pub clauses: Vec<PieceClause>,
    pub span: Span,
}

impl Piece {
    /// Whether the piece is dropped from an endless supply (`drop unlimited`).
    pub fn has_unlimited_supply(&self) -> bool {
        self.clauses.iter().any(|c| match c {
            PieceClause::Drop(rule) => {
                (rule.limits.iter()).any(|l| l.value == DropLimit::Unlimited)
            }
            _ => false,
        })
    }

    pub fn is_royal(&self) -> bool {
        self.clauses
            .iter()
            .any(|c| matches!(c, PieceClause::Royal { .. }))
    }

    /// Whether the piece is `royal together`.
    pub fn is_royal_together(&self) -> bool {
        (self.clauses.iter()).any(|c| matches!(c, PieceClause::Royal { together: true, .. }))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum PieceClause {
    /// `royal`; `together`: a player with several is in check only when all are attacked.
    Royal {
        span: Span,
        together: bool,
    },
    Move(MoveRule),
    Promote(Promotion),
    Drop(DropRule),
    Grant(Grant),
    Castle(Castle),
    /// `convert DIRECTIONS [flanked]`: after the piece moves or is dropped, the enemy pieces
    /// one step away in those directions become the mover's; with `flanked`, every enemy piece
    /// of a line that runs from it to another of the mover's pieces.
    Convert(Directions, bool, Span),
    /// `standoff DIRECTIONS`: the piece and another player's piece of its kind face each other
    /// along those directions with nothing between; the player who faces it must end the
    /// standoff or pass.
    Standoff(Directions, Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    MoveOnly,
    CaptureOnly,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MoveRule {
    pub mode: Option<Spanned<Mode>>,
    pub atom: Spanned<Atom>,
    pub modifiers: Vec<Spanned<Modifier>>,
    pub span: Span,
}

pub type Directions = Vec<Spanned<Direction>>;

#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    /// One square along each chosen line.
    Step(Directions),
    /// Any number of squares along each chosen line, or at most `up_to`.
    Slide(Directions, Option<Spanned<u32>>),
    Leap(Spanned<(i64, i64)>, Directions),
    Ride(Spanned<(i64, i64)>, Directions, Option<Spanned<u32>>),
    /// Over exactly one piece: landing just beyond it, or anywhere beyond it (at most `up_to`
    /// squares from the start when given).
    Hop(Directions, bool, Option<Spanned<u32>>),
    Anywhere,
    /// Moves of another piece.
    Like(Name),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Modifier {
    From(ZoneExpr),
    /// Only to the squares of this zone.
    To(ZoneExpr),
    /// Captures only the named pieces, or all but them when `except`.
    Takes {
        except: bool,
        pieces: Vec<Name>,
    },
    /// Hops only over the named pieces, or over all but them when `except`.
    Over {
        except: bool,
        pieces: Vec<Name>,
    },
    Lame,
    EnPassant,
    Passable,
    First,
    Tag(Name),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionTrigger {
    /// The move ends in the zone.
    In,
    /// The move starts or ends in the zone.
    Via,
    /// Standing in the zone, as a turn of its own: the piece turns into the new kind where it
    /// stands or on an empty square one move of the new kind away.
    On,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    pub optional: bool,
    pub targets: Vec<Name>,
    pub trigger: PromotionTrigger,
    pub zone: ZoneExpr,
    /// Only on a move that captures.
    pub by_capture: bool,
    /// A piece that is its player's only one of its kind promotes outside the zone too.
    pub lone_anywhere: bool,
    /// The new piece may not attack an enemy piece where it lands.
    pub peaceful: bool,
    pub limits: Vec<PromotionLimit>,
    pub span: Span,
}

/// `limit N PIECE…`: each piece is a choice only while the player has fewer than N of it on
/// the board.
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionLimit {
    pub below: Spanned<u32>,
    pub pieces: Vec<Name>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DropRule {
    pub limits: Vec<Spanned<DropLimit>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DropLimit {
    Outside(ZoneExpr),
    Inside(ZoneExpr),
    /// At most this many of the player's pieces of the kind on one file (`one-per-file` is 1).
    PerFile(Spanned<u32>),
    NoMate,
    /// The piece may also be dropped as any piece it promotes to.
    Promoted,
    /// The player's pieces of the kind stand on both colours of squares, as evenly as their
    /// number allows.
    OppositeColours,
    /// The player always has one more in hand.
    Unlimited,
    /// Only where the dropped piece converts at least one enemy piece.
    Converting,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Own,
    Enemy,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    pub side: Spanned<Side>,
    pub directions: Directions,
    pub rules: Vec<MoveRule>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleCondition {
    Unmoved,
    Safe,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Castle {
    pub directions: Directions,
    pub distance: Spanned<u32>,
    pub any_colour: bool,
    pub partner: Name,
    pub conditions: Vec<Spanned<CastleCondition>>,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Capture rules and counters

/// A kind of turn a `forbid` rule makes illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbidden {
    /// Any turn that attacks another player's royal piece.
    Check,
    /// A drop that attacks another player's royal piece.
    CheckByDrop,
    /// A promotion that attacks another player's royal piece.
    CheckByPromotion,
    /// In check, a move of the royal piece other than the capture of the one piece checking it.
    RoyalFlight,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CaptureRule {
    /// Captured pieces go to the capturer's hand: as what they were when they came on the
    /// board, or `as_is`, as what they now are.
    ToHand {
        as_is: bool,
    },
    Compulsory,
    Custodian(Directions),
    /// A capture also removes the capturing piece and every piece next to the capture
    /// square, except those of the `spared` kinds next to it and the `immune` kinds anywhere.
    Explodes {
        spared: Vec<Name>,
        immune: Vec<Name>,
    },
    /// A piece of these kinds that captures turns into a blocked square.
    Petrifies(Vec<Name>),
    None,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    pub name: Name,
    pub limit: Option<Spanned<u32>>,
    pub rules: Vec<CounterRule>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CounterRule {
    pub event: Spanned<CounterEvent>,
    pub action: Spanned<CounterAction>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CounterEvent {
    Move(Directions),
    Lost(Name),
    Checked,
    TurnEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterAction {
    Add(u32),
    Set(u32),
    Reset,
}

// ---------------------------------------------------------------------------------------------
// Turns, phases, triggers

#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    pub every: Option<Spanned<u32>>,
    pub body: TurnBody,
    pub span: Span,
}

/// Alternative plans; a turn carries out exactly one of them.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnBody {
    pub plans: Vec<TurnPlan>,
}

/// Steps carried out in order.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnPlan {
    pub steps: Vec<TurnStep>,
    /// How many `else` come before it: a plan is tried only when those of every lower tier
    /// give no legal turn.
    pub tier: u8,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TurnStep {
    pub optional: bool,
    pub action: Spanned<Action>,
    pub condition: Option<Name>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Move(Vec<Name>),
    Drop(Vec<Name>, Option<ZoneExpr>),
    /// A piece from hand enters on a square the move just left, if that square is a gate.
    Gate(Vec<Name>, Option<ZoneExpr>),
    Shoot(Shot),
    Unblock,
    Remove(Removal),
    Pie,
    Pass,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shot {
    /// The arrow flies by these rules whatever the move was.
    Always(Vec<MoveRule>),
    /// The arrow's rules depend on the tag of the move just made.
    ByTag(Vec<ShotCase>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShotCase {
    pub tag: Name,
    pub rules: Vec<MoveRule>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Removal {
    pub side: Spanned<Side>,
    /// Each group but the last applies when the side has its first piece on the board; the
    /// last applies otherwise. No group means any piece.
    pub groups: Vec<Vec<Name>>,
    pub except: Vec<Name>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseEnd {
    Once,
    UntilHandEmpty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    pub name: Name,
    pub movers: Vec<Name>,
    pub end: Option<Spanned<PhaseEnd>>,
    pub turns: Vec<Turn>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    pub zone: ZoneExpr,
    pub pieces: Vec<Name>,
    pub body: TurnBody,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// End of the game

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Lose,
    Draw,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EndRule {
    pub outcome: Spanned<Outcome>,
    pub condition: Spanned<EndCondition>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
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
    /// No piece at all is left, or none of the named kind.
    Extinct(Option<Name>),
    /// Fewer than this many pieces of one of the named kinds are left.
    Fewer(Spanned<u32>, Vec<Name>),
    /// Only royal pieces are left; `reply` gives the bare player one turn to answer.
    Bare {
        reply: bool,
    },
    Repeated(Spanned<u32>),
    /// The last turns, this many in a row, were passes; with a piece count, and the player
    /// has fewer (`Some(true)`) or more pieces than every other.
    Passed(Spanned<u32>, Option<bool>),
    /// No square of the board is empty; with a piece count, as for `Passed`.
    Full(Option<bool>),
    /// The player to move stands in a standoff that the last turn, a pass, left standing.
    Standoff,
    Immobilized(Name),
    /// A piece of this kind stands in the zone.
    Reaches(Name, ZoneExpr, Goal),
    /// A player's count on this counter is at least the number.
    CounterReaches(Name, Spanned<u32>),
    Quiet(Spanned<u32>, Vec<Spanned<QuietBreaker>>),
}

/// When a piece in its goal zone wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// As soon as it arrives: judged for the players other than the one to move.
    Arrival,
    /// While no other player attacks it there: judged for every player.
    Safe,
    /// If it is still there when its player's next turn starts.
    AfterReply,
    /// As soon as it arrives, unless a player later in the round can bring a piece of the
    /// kind into the zone on their turn: they get that turn, and following is a draw.
    UnlessFollowed,
}

#[derive(Clone, Debug, PartialEq)]
pub enum QuietBreaker {
    Capture,
    /// A piece entering from hand.
    Drop,
    PieceMove(Name),
}

// ---------------------------------------------------------------------------------------------
// Setup and tests

#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub player: Name,
    pub placements: Vec<Placement>,
    pub hand: Vec<Name>,
    /// Squares where a piece that enters by drop has the castling rights it would have had
    /// standing there from the start.
    pub castling_homes: Vec<Placement>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub piece: Name,
    pub squares: Vec<SquareItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    pub name: Spanned<String>,
    pub position: Option<Spanned<String>>,
    pub moves: Option<Spanned<String>>,
    pub expectations: Vec<Expectation>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    Perft {
        depth: Spanned<u32>,
        count: Spanned<u64>,
        span: Span,
    },
    Moves(Vec<Spanned<String>>, Span),
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match char::from_u32('a' as u32 + self.file) {
            Some(file) if self.file < 26 => write!(f, "{file}{}", self.written_rank),
            _ => write!(f, "?{}", self.written_rank),
        }
    }
}

/// `RuleFile::setups()` and friends: the items of one kind, in file order.
macro_rules! items_of_kind {
    ($($method:ident => $variant:ident($ty:ty)),* $(,)?) => {
        impl RuleFile {
            $(
                pub fn $method(&self) -> impl Iterator<Item = &$ty> {
                    self.items.iter().filter_map(|item| match item {
                        Item::$variant(inner) => Some(inner),
                        _ => None,
                    })
                }
            )*
        }
    };
}

items_of_kind! {
    players => Player(Player),
    zones => Zone(Zone),
    pieces => Piece(Piece),
    captures => Capture(Spanned<CaptureRule>),
    forbidden => Forbid(Spanned<Forbidden>),
    counters => Counter(Counter),
    turns => Turn(Turn),
    phases => Phase(Phase),
    triggers => Trigger(Trigger),
    end_rules => End(EndRule),
    setups => Setup(Setup),
    tests => Test(Test),
}

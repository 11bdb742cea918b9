//! Compile: a checked syntax tree → a [`Ruleset`] of flat, precomputed tables. The engine works
//! from the ruleset alone and never sees the syntax tree.

pub mod counters;
pub mod geometry;
mod pieces;
mod setup;
pub mod support;
pub mod turns;
pub mod zobrist;
mod zones;

pub use geometry::{Geometry, NO_SQUARE, Sq};
pub use support::Unsupported;

use crate::check::checked::{self, Checked};
use crate::geometry::Compass;

/// A piece on a square: [`EMPTY`], [`BLOCKED`], or `1 + kind * players + player`.
pub type Code = u8;
pub const EMPTY: Code = 0;
pub const BLOCKED: Code = 255;

/// Whether a move rule moves, captures, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Both,
    MoveOnly,
    CaptureOnly,
}

impl Mode {
    pub fn moves(self) -> bool {
        self != Mode::CaptureOnly
    }
    pub fn captures(self) -> bool {
        self != Mode::MoveOnly
    }
}

/// One compiled way of moving, for one piece kind and one player.
#[derive(Clone, Debug)]
pub struct Gen {
    /// The absolute vector, as an index into the geometry's step tables.
    pub vector: u16,
    /// 1 for a leap; the most steps for a slide or ride.
    pub range: u16,
    pub mode: Mode,
    pub from_zone: Option<u16>,
    /// Squares, as vectors from the start, that must be empty for a lame leap.
    pub path: Vec<u16>,
    pub passable: bool,
    pub en_passant: bool,
    pub hop: Hop,
    /// Only as the piece's first move.
    pub first: bool,
    /// The move's tag (`as rook`), by number; 0 for none.
    pub tag: u16,
    /// To any square of the board (empty, or holding an enemy piece to capture), not along
    /// `vector`.
    pub anywhere: bool,
}

/// Moves a piece lends to a neighbour: the lender's code indexes a list of these.
#[derive(Clone, Debug)]
pub struct Lend {
    /// Lent to enemy pieces; otherwise to the lender's own side.
    pub enemy: bool,
    /// Where the neighbour stands, as a vector from the lender.
    pub offset: u16,
    /// The moves lent, per receiving player.
    pub moves: Vec<Vec<Gen>>,
}

/// Castling that needs no rights: the royal piece moves `distance` squares along a line of
/// empty squares towards the first piece beyond, which must be a partner, and the partner
/// lands on the last square the royal piece crossed.
#[derive(Clone, Debug)]
pub struct FreeCastle {
    pub kind: usize,
    /// The kinds that may be the partner.
    pub partners: u64,
    /// The lines it may castle along, per player, as vectors.
    pub vectors: Vec<Vec<u16>>,
    pub distance: u32,
    /// A partner of either colour will do.
    pub any_colour: bool,
    /// Both pieces must not have moved yet.
    pub unmoved: bool,
    /// The royal piece may not start on, cross or land on an attacked square.
    pub safe: bool,
}

/// Whether a move jumps over exactly one piece on its line, and where it may land.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    No,
    /// On the square just beyond the hurdle (a grasshopper).
    JustBeyond,
    /// On any square beyond the hurdle, up to and including the next piece (a cannon).
    AnywhereBeyond,
}

/// A piece kind at run time. Kinds reached by promotion are separate kinds that remember what
/// they demote to, so a promoted Queen knows it was a Pawn.
#[derive(Clone, Debug)]
pub struct Kind {
    pub name: String,
    pub letter: String,
    pub royal: bool,
    /// The kind this one goes to hand as when captured.
    pub demotes_to: u8,
    /// Reached by promotion.
    pub promoted: bool,
    /// How positions write it for the first player (`N`, `+P`, `Q~`), unique among kinds.
    pub text: String,
    pub promotions: Vec<Promotion>,
    pub drops: DropLimits,
}

#[derive(Clone, Debug)]
pub struct Promotion {
    pub targets: Vec<u8>,
    pub optional: bool,
    /// The move may start or end in the zone; otherwise it must end there.
    pub via: bool,
    pub zone: u16,
}

#[derive(Clone, Debug, Default)]
pub struct DropLimits {
    /// Zones the piece may only be dropped in, and zones it may not be dropped in.
    pub inside: Vec<u16>,
    pub outside: Vec<u16>,
    pub one_per_file: bool,
    pub no_mate: bool,
}

/// Castling for one player: the royal piece and its partner on their start squares.
#[derive(Clone, Debug)]
pub struct CastleRight {
    pub player: usize,
    pub king_from: Sq,
    pub king_to: Sq,
    pub rook_from: Sq,
    pub rook_to: Sq,
    /// Squares that must be empty (other than the two pieces).
    pub empty: Vec<Sq>,
    /// Squares the royal piece stands on or crosses, which must not be attacked when `safe`.
    pub safe_path: Vec<Sq>,
    pub safe: bool,
    /// East of the royal piece, as FEN's `K`; otherwise `Q`.
    pub kingside: bool,
}

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

pub use checked::Outcome;

/// Attacks of one player, grouped so that "is this square attacked?" walks each line once.
#[derive(Clone, Debug, Default)]
pub struct Attacks {
    /// (reverse vector, kinds able to capture by that leap, lame path from the attacker).
    pub leaps: Vec<(u16, u64, Vec<u16>)>,
    /// (reverse vector, kinds able to capture along that line, range).
    pub slides: Vec<(u16, u64, u16)>,
    /// (reverse vector, kinds able to capture by hopping along that line, how they land).
    pub hops: Vec<(u16, u64, Hop)>,
    /// Kinds that capture anywhere on the board.
    pub anywhere: u64,
}

/// Everything the engine needs to play one variant.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub name: String,
    pub geometry: Geometry,
    pub player_names: Vec<String>,
    pub forward: Vec<Option<Compass>>,
    pub kinds: Vec<Kind>,
    /// The move programs, indexed by piece code.
    pub programs: Vec<Vec<Gen>>,
    /// Attack tables, indexed by attacking player.
    pub attacks: Vec<Attacks>,
    /// Zones as square sets: `zones[z][player * squares + sq]`.
    pub zones: Vec<Vec<bool>>,
    pub castles: Vec<CastleRight>,
    /// Castling without rights, and the kinds that have some.
    pub free_castles: Vec<FreeCastle>,
    pub free_castlers: u64,
    /// Moves lent to neighbours, indexed by the lender's code; empty when no piece lends.
    pub lends: Vec<Vec<Lend>>,
    /// For each square, the castling rights lost when a piece leaves or enters it.
    pub castle_clear: Vec<u32>,
    /// The phases of the game; a game without phases has one.
    pub phases: Vec<turns::Phase>,
    pub triggers: Vec<turns::Trigger>,
    pub counters: Vec<counters::Counter>,
    /// Some turn places a piece and then moves: two placements may end in the same position,
    /// and are then one turn.
    pub placement_then_move: bool,
    /// A turn of one move of any piece: what a player could do next, for the `checked` event.
    pub move_plan: turns::Plan,
    /// Some counter has a limit: turns are tested against it.
    pub counter_limits: bool,
    /// The limited counters change only on moves and turn ends, so a turn's effect on them
    /// is known without making it.
    pub simple_limits: bool,
    /// Positions count each player's turns of the phase: some phase ends or has periodic turns.
    pub counts_turns: bool,
    pub legality: Legality,
    /// The end conditions that can end the game while the player to move still has turns:
    /// each turn starts by testing them.
    pub early_ends: Vec<EndCondition>,
    /// More than two players: a `lose` rule takes the player it holds for out of the game,
    /// and the last player left wins.
    pub eliminates: bool,
    pub capture_to_hand: bool,
    /// The vectors to a square's eight neighbours.
    pub neighbours: Vec<u16>,
    /// Custodian capture: per player, the lines along which a piece arriving on a square takes
    /// an enemy neighbour that has a friendly piece directly beyond it. Empty when not used.
    pub custodian: Vec<Vec<u16>>,
    pub compulsory_capture: bool,
    pub end: Vec<(Outcome, EndCondition)>,
    pub start_board: Vec<Code>,
    pub start_hands: Vec<u8>,
    pub start_castling: u32,
    pub zobrist: zobrist::Zobrist,
    /// `attacker_bits[player * 256 + code]`: the kind bit of `code` when `player` owns it.
    pub attacker_bits: Vec<u64>,
    /// The kind and player of each piece code, looked up rather than divided out on the hot
    /// path.
    pub owners: Vec<(u8, u8)>,
    /// The kinds whose moves reset the count of quiet plies.
    pub quiet_breakers: u64,
    /// Every capture is a plain leap or slide, so pins fully describe discovered attacks.
    pub plain_attacks: bool,
    /// Some move is allowed only as a piece's first move, so positions track unmoved pieces.
    pub first_moves: bool,
    /// Per piece code: two of its rules can reach the same square, so its turns are deduplicated.
    pub overlapping: Vec<bool>,
    /// Some promotion turns a royal piece into a non-royal one or back, so royal pieces are
    /// found by scanning rather than tracked.
    pub royalty_changes: bool,
    /// Whether any kind is royal.
    pub royal: bool,
    /// Whether a capture restarts the count of quiet plies.
    pub captures_break_quiet: bool,
    /// Per capturing player: (reverse vector, kinds) of the one-step captures that may be en
    /// passant, to tell whether a passed square can be taken at all.
    pub ep_attacks: Vec<Vec<(u16, u64)>>,
    /// Some en-passant capture reaches further than one step: passed squares always open.
    pub ep_always: bool,
}

impl Ruleset {
    pub fn players(&self) -> usize {
        self.player_names.len()
    }

    #[inline]
    pub fn code(&self, kind: usize, player: usize) -> Code {
        (1 + kind * self.players() + player) as Code
    }

    /// The kind and player of a piece code (not [`EMPTY`] or [`BLOCKED`]).
    #[inline]
    pub fn split(&self, code: Code) -> (usize, usize) {
        let (kind, player) = self.owners[code as usize];
        (kind as usize, player as usize)
    }

    #[inline]
    pub fn in_zone(&self, zone: u16, player: usize, sq: Sq) -> bool {
        self.zones[zone as usize][player * self.geometry.squares() + sq as usize]
    }

    pub fn has_royal(&self) -> bool {
        self.royal
    }

    /// Whether some turn offers the pie choice.
    pub fn has_pie(&self) -> bool {
        self.phases
            .iter()
            .flat_map(|p| {
                p.ordinary
                    .iter()
                    .chain(p.periodic.iter().flat_map(|(_, plans)| plans))
            })
            .flat_map(|plan| &plan.steps)
            .any(|step| matches!(step.action, turns::Action::Pie))
    }

    pub fn kind_bits(&self) -> u64 {
        turns::all_kinds(&self.kinds)
    }
}

/// Compiles a resolved rule file; refuses one that uses concepts the engine does not run.
pub fn compile(checked: &Checked) -> Result<Ruleset, Unsupported> {
    let missing = support::unsupported(&checked.uses);
    if !missing.is_empty() {
        return Err(Unsupported(missing));
    }
    let mut geometry = Geometry::new(&checked.board);
    let players = &checked.players;
    let forward: Vec<Option<Compass>> = players.iter().map(|p| p.forward).collect();
    let board_only = geometry.clone();
    let evaluator = zones::Zones::new(checked, &board_only, &forward);
    let mut compiler = pieces::PieceCompiler::new(checked, &mut geometry, &forward, &evaluator);
    let compiled = compiler.compile();
    let player_names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let mut turn_compiler = turns::TurnCompiler {
        pieces: &mut compiler,
        kinds: &compiled.kinds,
        checked,
    };
    let phases = turn_compiler.phases();
    let triggers = turn_compiler.triggers();
    let zones = compiler.zones;
    let mut ruleset = Ruleset {
        name: checked.game.clone(),
        geometry,
        player_names,
        forward,
        kinds: compiled.kinds,
        programs: compiled.programs,
        attacks: compiled.attacks,
        zones,
        castles: Vec::new(),
        free_castles: Vec::new(),
        free_castlers: 0,
        lends: compiled.lends,
        castle_clear: Vec::new(),
        phases: Vec::new(),
        triggers,
        counters: Vec::new(),
        placement_then_move: false,
        move_plan: turns::Plan {
            steps: vec![turns::Step {
                optional: false,
                condition: None,
                action: turns::Action::Move { pieces: u64::MAX },
            }],
        },
        counter_limits: false,
        simple_limits: false,
        counts_turns: false,
        legality: Legality::Free,
        early_ends: Vec::new(),
        eliminates: false,
        capture_to_hand: checked.captures.to_hand,
        custodian: Vec::new(),
        neighbours: Vec::new(),
        compulsory_capture: checked.captures.compulsory,
        end: Vec::new(),
        start_board: Vec::new(),
        start_hands: Vec::new(),
        start_castling: 0,
        zobrist: Default::default(),
        attacker_bits: Vec::new(),
        owners: (0..256usize)
            .map(|code| {
                let i = code.saturating_sub(1);
                ((i / players.len()) as u8, (i % players.len()) as u8)
            })
            .collect(),
        quiet_breakers: 0,
        plain_attacks: false,
        first_moves: false,
        overlapping: Vec::new(),
        royalty_changes: false,
        royal: false,
        captures_break_quiet: false,
        ep_attacks: Vec::new(),
        ep_always: false,
    };
    ruleset.counts_turns = phases
        .iter()
        .any(|p| p.end != turns::PhaseEnd::Never || p.cycle > 1);
    ruleset.phases = phases;
    ruleset.custodian = custodian_lines(checked, &mut ruleset);
    ruleset.neighbours = crate::geometry::images(0, 1)
        .into_iter()
        .chain(crate::geometry::images(1, 1))
        .map(|(x, y)| ruleset.geometry.vector((x as i32, y as i32)))
        .collect();
    ruleset.counters = counters::counters(&checked.counters, |piece| {
        pieces::kinds_of(&checked.forms, &[piece])
    });
    ruleset.counter_limits = ruleset.counters.iter().any(|c| c.limit.is_some());
    ruleset.simple_limits = ruleset
        .counters
        .iter()
        .filter(|c| c.limit.is_some())
        .flat_map(|c| &c.rules)
        .all(|(event, _)| matches!(event, counters::Event::Move(_) | counters::Event::TurnEnd));
    ruleset.placement_then_move = ruleset.phases.iter().any(|phase| {
        phase.ordinary.iter().any(|plan| {
            let at = |wanted: fn(&turns::Action) -> bool| {
                plan.steps.iter().position(|s| wanted(&s.action))
            };
            let drop = at(|a| matches!(a, turns::Action::Drop { .. }));
            let moves = at(|a| matches!(a, turns::Action::Move { .. }));
            matches!((drop, moves), (Some(d), Some(m)) if d < m)
        })
    });
    ruleset.end = end_rules(checked);
    ruleset.eliminates = ruleset.players() > 2;
    // With more than two players, `lose` rules are applied at the start of each turn, taking
    // players out; only the other rules can end the game early.
    ruleset.early_ends = ruleset
        .end
        .iter()
        .filter(|&&(outcome, _)| !(ruleset.eliminates && outcome == Outcome::Lose))
        .map(|&(_, c)| c)
        .filter(|c| c.ends_early())
        .collect();
    ruleset.quiet_breakers = ruleset.end.iter().fold(0, |m, (_, c)| match c {
        EndCondition::Quiet(_, kinds) => m | kinds,
        _ => m,
    });
    setup::place(checked, &mut ruleset, &compiled.castle_rules)?;
    ruleset.attacker_bits = attacker_bits(&ruleset);
    ruleset.first_moves = ruleset.programs.iter().flatten().any(|g| g.first)
        || ruleset.free_castles.iter().any(|c| c.unmoved);
    ruleset.free_castlers = ruleset.free_castles.iter().fold(0, |m, c| m | 1 << c.kind);
    en_passant_attacks(&mut ruleset);
    ruleset.overlapping = ruleset
        .programs
        .iter()
        .map(|gens| overlapping(gens, &ruleset.geometry))
        .collect();
    ruleset.royal = ruleset.kinds.iter().any(|k| k.royal);
    ruleset.royalty_changes = ruleset.kinds.iter().any(|k| {
        k.promotions
            .iter()
            .flat_map(|p| &p.targets)
            .any(|&t| ruleset.kinds[t as usize].royal != k.royal)
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
    ruleset.captures_break_quiet = quiet_rules.is_empty() || quiet_rules.contains(&true);
    ruleset.plain_attacks = ruleset.attacks.iter().all(|a| {
        a.hops.is_empty() && a.anywhere == 0 && a.leaps.iter().all(|(_, _, path)| path.is_empty())
    });
    let by_reply = ruleset
        .end
        .iter()
        .any(|&(_, c)| c == EndCondition::RoyalCaptured);
    ruleset.legality = match (ruleset.royal, by_reply, ruleset.plain_attacks) {
        (false, _, _) => Legality::Free,
        (true, true, _) => Legality::Reply,
        (true, false, true) => Legality::Pins,
        (true, false, false) => Legality::MakeAndTest,
    };
    ruleset.zobrist = zobrist::Zobrist::new(&ruleset);
    Ok(ruleset)
}

/// The lines of `capture custodian`, as vectors per player; none without the rule.
fn custodian_lines(checked: &Checked, ruleset: &mut Ruleset) -> Vec<Vec<u16>> {
    let Some(set) = checked.captures.custodian else {
        return Vec::new();
    };
    let lines: Vec<(i64, i64)> = crate::geometry::images(0, 1)
        .into_iter()
        .chain(crate::geometry::images(1, 1))
        .filter(|&v| set.selects(v))
        .collect();
    (0..ruleset.players())
        .map(|player| {
            let forward = ruleset.forward[player];
            lines
                .iter()
                .map(|&v| {
                    ruleset
                        .geometry
                        .vector(crate::geometry::absolute(forward, v))
                })
                .collect()
        })
        .collect()
}

fn attacker_bits(ruleset: &Ruleset) -> Vec<u64> {
    let players = ruleset.players();
    let mut bits = vec![0u64; players * 256];
    for kind in 0..ruleset.kinds.len() {
        for player in 0..players {
            bits[player * 256 + ruleset.code(kind, player) as usize] = 1 << kind;
        }
    }
    bits
}

/// Fills in which captures may be en passant, grouped like the attack tables.
fn en_passant_attacks(ruleset: &mut Ruleset) {
    let players = ruleset.players();
    let mut attacks = vec![Vec::<(u16, u64)>::new(); players];
    for kind in 0..ruleset.kinds.len() {
        for (player, table) in attacks.iter_mut().enumerate() {
            let code = ruleset.code(kind, player) as usize;
            for rule in ruleset.programs[code]
                .iter()
                .filter(|g| g.en_passant && g.mode.captures())
            {
                if rule.range != 1 || rule.hop != Hop::No || !rule.path.is_empty() || rule.anywhere
                {
                    ruleset.ep_always = true;
                    continue;
                }
                let (dx, dy) = ruleset.geometry.vectors[rule.vector as usize];
                let reverse = ruleset.geometry.vector((-dx, -dy));
                match table.iter_mut().find(|(v, _)| *v == reverse) {
                    Some(entry) => entry.1 |= 1 << kind,
                    None => table.push((reverse, 1 << kind)),
                }
            }
        }
    }
    ruleset.ep_attacks = attacks;
}

/// Whether two rules of one program share a line, so that both may reach the same square.
/// Whether two of a piece's rules may make the same move, so that its moves need sorting out:
/// rules that can both move, or both capture, to the same displacement (`move anywhere` meets
/// everything; `slide orthogonal` meets `leap (0,2)`).
fn overlapping(gens: &[Gen], geometry: &geometry::Geometry) -> bool {
    let longest = geometry.width.max(geometry.height) as i32;
    let reach = |rule: &Gen| -> Option<Vec<(i32, i32)>> {
        let (dx, dy) = geometry.vectors[rule.vector as usize];
        let steps = match rule.hop {
            Hop::No => (rule.range as i32).min(longest),
            _ => longest,
        };
        (!rule.anywhere).then(|| (1..=steps).map(|k| (dx * k, dy * k)).collect())
    };
    let reaches: Vec<Option<Vec<(i32, i32)>>> = gens.iter().map(reach).collect();
    let meet = |a: usize, b: usize| {
        let modes = (gens[a].mode.moves() && gens[b].mode.moves())
            || (gens[a].mode.captures() && gens[b].mode.captures());
        let squares = match (&reaches[a], &reaches[b]) {
            (Some(a), Some(b)) => a.iter().any(|v| b.contains(v)),
            _ => true,
        };
        modes && squares
    };
    (0..gens.len()).any(|a| (a + 1..gens.len()).any(|b| meet(a, b)))
}

fn end_rules(checked: &Checked) -> Vec<(Outcome, EndCondition)> {
    let kinds = |pieces: &[checked::PieceId]| pieces::kinds_of(&checked.forms, pieces);
    checked
        .endings
        .iter()
        .map(|rule| {
            let condition = match &rule.condition {
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
                checked::EndCondition::Immobilized(piece) => {
                    EndCondition::Immobilized(kinds(&[*piece]))
                }
            };
            (rule.outcome, condition)
        })
        .collect()
}

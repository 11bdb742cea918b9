//! Move rules as flat programs: each rule of a piece (or of an arrow's flight, or of a lent
//! move) becomes, per player, one [`Gen`] per absolute vector, with zones evaluated into square
//! sets and vectors registered in the geometry's step tables. The piece and turn compilers both
//! compile their move rules through here.

use super::geometry::Geometry;
use super::pieces::kinds_of;
use super::players::Players;
use super::zones::{ZoneEvaluator, ZoneSets};
use crate::check::checked::{self, MoveMode, TagId};
use crate::check::forms::Forms;
use crate::geometry::{DirectionSet, absolute, images};

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

/// Whether a move jumps over exactly one piece on its line, and where it may land.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    No,
    /// On the square just beyond the hurdle (a grasshopper).
    JustBeyond,
    /// On any square beyond the hurdle, up to and including the next piece (a cannon), and
    /// within the rule's range of the start.
    AnywhereBeyond,
}

/// One compiled way of moving, for one piece kind and one player.
#[derive(Clone, Debug)]
pub struct Gen {
    /// The absolute vector, as an index into the geometry's step tables.
    pub vector: u16,
    /// 1 for a leap; the most steps for a slide, ride or hop (a hop's landing square).
    pub range: u16,
    /// The vector walked up to the range, as a line of the geometry (a hop looks for its hurdle
    /// along the line's unlimited form).
    pub line: u16,
    pub mode: Mode,
    pub from_zone: Option<u16>,
    /// Only to the squares of this zone.
    pub to_zone: Option<u16>,
    /// The kinds it may capture, as a mask; [`ANY_KIND`] for all.
    pub takes: u64,
    /// The kinds a hop may jump over, as a mask; [`ANY_KIND`] for all (blocked squares too).
    pub over: u64,
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

/// A capture that may take a piece of any kind.
pub const ANY_KIND: u64 = u64::MAX;

impl Gen {
    /// Whether the move goes exactly one plain step: no ride, hop, lame path or anywhere.
    pub fn one_step(&self) -> bool {
        self.range == 1 && self.hop == Hop::No && self.path.is_empty() && !self.anywhere
    }

    /// Whether the rule limits where it may end: a `to` zone, or the kinds it takes.
    #[inline]
    pub fn limits_targets(&self) -> bool {
        self.to_zone.is_some() || self.takes != ANY_KIND
    }

    /// Whether the rule applies from every square, every time, to every square, taking any
    /// piece: no zone, no first move, no limit on what it takes or hops over.
    pub fn unconditional(&self) -> bool {
        self.placed_alike() && !self.limits_targets() && self.over == ANY_KIND
    }

    /// Whether the rule applies from every square, every time, to every square, whatever it
    /// takes or hops over: no zone, no first move.
    pub fn placed_alike(&self) -> bool {
        self.from_zone.is_none() && !self.first && self.to_zone.is_none()
    }
}

/// A move's tag as turns carry it: 0 for none, else the tag's number plus one.
pub fn tag_number(tag: Option<TagId>) -> u16 {
    tag.map_or(0, |tag| (tag.0 + 1) as u16)
}

/// Compiles move rules, growing the geometry's step tables and the zone table as it goes.
pub struct MoveCompiler<'a> {
    pub geometry: Geometry,
    pub zones: ZoneSets,
    players: &'a Players,
    evaluator: &'a ZoneEvaluator<'a>,
    forms: &'a Forms,
}

impl<'a> MoveCompiler<'a> {
    pub fn new(
        geometry: Geometry,
        players: &'a Players,
        evaluator: &'a ZoneEvaluator<'a>,
        forms: &'a Forms,
    ) -> Self {
        let zones = ZoneSets::new(geometry.squares(), players.count());
        MoveCompiler {
            geometry,
            zones,
            players,
            evaluator,
            forms,
        }
    }

    /// The players whose frames the rules are read in.
    pub fn players(&self) -> &'a Players {
        self.players
    }

    /// Registers a zone, evaluated for every player, and returns its index.
    pub fn zone(&mut self, expr: &checked::ZoneExpr) -> u16 {
        let set = (0..self.players.count())
            .flat_map(|player| self.evaluator.evaluate(expr, player))
            .collect();
        self.zones.add(set)
    }

    /// The compiled moves of one rule for one player; `away` is the line from a lending piece
    /// to the piece it lends the rule to.
    pub fn gens(
        &mut self,
        rule: &checked::MoveRule,
        player: usize,
        away: Option<(i32, i32)>,
    ) -> Vec<Gen> {
        let forward = self.players.forward[player];
        let mode = match rule.mode {
            None => Mode::Both,
            Some(MoveMode::MoveOnly) => Mode::MoveOnly,
            Some(MoveMode::CaptureOnly) => Mode::CaptureOnly,
        };
        let lines = vec![(0, 1), (1, 1)];
        let mut hop = Hop::No;
        let (bases, set, range): (Vec<(i64, i64)>, DirectionSet, u16) = match rule.atom {
            checked::Atom::Step(set) => (lines, set, 1),
            checked::Atom::Slide(set, up_to) => (lines, set, range_of(up_to)),
            checked::Atom::Leap(v, set) => (vec![v], set, 1),
            checked::Atom::Ride(v, set, up_to) => (vec![v], set, range_of(up_to)),
            checked::Atom::Hop(set, beyond, up_to) => {
                hop = if beyond {
                    Hop::AnywhereBeyond
                } else {
                    Hop::JustBeyond
                };
                (lines, set, range_of(up_to))
            }
            checked::Atom::Anywhere => (Vec::new(), DirectionSet::of([]), 1),
        };
        let from_zone = rule.from.as_ref().map(|zone| self.zone(zone));
        let to_zone = rule.to.as_ref().map(|zone| self.zone(zone));
        let filter = |filter: &Option<checked::Takes>| {
            filter.as_ref().map_or(ANY_KIND, |filter| {
                let named = kinds_of(self.forms, &filter.pieces);
                match filter.except {
                    true => !named,
                    false => named,
                }
            })
        };
        let (takes, over) = (filter(&rule.takes), filter(&rule.over));
        let mut lines: Vec<((i32, i32), Vec<u16>)> = Vec::new();
        for (a, b) in bases {
            for image in images(a, b).into_iter().filter(|&v| set.selects(v)) {
                let path = if rule.lame {
                    lame_path(image)
                } else {
                    Vec::new()
                };
                let path = path
                    .into_iter()
                    .map(|p| self.geometry.vector(absolute(forward, p)))
                    .collect();
                lines.push((absolute(forward, image), path));
            }
        }
        if let Some(away) = away.filter(|_| set.away) {
            lines.push((away, Vec::new()));
        }
        let anywhere = rule.atom == checked::Atom::Anywhere;
        if anywhere {
            lines.push(((0, 1), Vec::new()));
        }
        let mut out = Vec::new();
        for (vector, path) in lines {
            let vector = self.geometry.vector(vector);
            if !out.iter().any(|g: &Gen| g.vector == vector) {
                out.push(Gen {
                    vector,
                    range,
                    line: self.geometry.line(vector, range),
                    mode,
                    from_zone,
                    to_zone,
                    takes,
                    over,
                    path,
                    passable: rule.passable,
                    en_passant: rule.en_passant,
                    hop,
                    first: rule.first,
                    tag: tag_number(rule.tag),
                    anywhere,
                });
            }
        }
        out
    }
}

fn range_of(up_to: Option<u32>) -> u16 {
    up_to.map_or(u16::MAX, |n| n.min(u32::from(u16::MAX)) as u16)
}

/// The squares a lame leap passes, in the player's frame: one step along the longer axis
/// first, then towards the target.
fn lame_path((x, y): (i64, i64)) -> Vec<(i64, i64)> {
    let n = x.abs().max(y.abs());
    (1..n).map(|k| (k * x / n, k * y / n)).collect()
}

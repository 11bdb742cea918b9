//! The bitboard tables: for every line the rules walk, the squares it crosses from each square;
//! for each attacking piece, the squares its leaps attack each square from; the files and each
//! square's neighbours. Built last, once the geometry holds every line the rules use, so that
//! the engine never walks a line square by square to learn what a table can tell it.

use super::geometry::{Geometry, Line, NO_SQUARE, Sq, UNLIMITED};
use super::moves::{Gen, Mode};
use super::pieces::PieceTables;
use super::slides::SlideSets;
use super::turns::Trigger;
use super::zones::ZoneSets;
use super::{Code, Players};
use crate::bitboard::{Bitboard, Masks, words_for};

#[derive(Clone, Debug)]
pub struct BitTables {
    squares: usize,
    /// Row `line * squares + sq`: the squares the line crosses from `sq`, pieces aside.
    lines: Masks,
    /// Per line: whether it climbs in square index, and its unlimited line.
    line_facts: Vec<(bool, u16)>,
    /// Row 0: every square of the board.
    board: Masks,
    /// Row `file`: the squares of that file.
    files: Masks,
    /// Row `sq`: the squares next to `sq`.
    neighbours: Masks,
    /// Row `sq`, where every rule is a step of at most `step_reach` squares (else none): the
    /// squares from which a piece may move onto `sq`, and those from which it may move onto
    /// `sq` or next to it.
    within_reach: Masks,
    next_to_reach: Masks,
    /// Row `block * squares + sq`: the squares from which the code of `block` attacks `sq` by
    /// a leap that passes no square.
    leap_sources: Masks,
    /// Per attacking player: each code that attacks by such leaps, with its block.
    pub leapers: Vec<Vec<(Code, usize)>>,
    /// Row `player * squares + sq`: the squares from which any of the player's leapers
    /// attacks `sq`, so that a test finds most squares unattacked by leaps in one read.
    any_leap_sources: Masks,
    /// Per attacking player: the entries of its attack table's leaps that pass squares.
    pub lame_leaps: Vec<Vec<usize>>,
    /// Rows `2 * (block * squares + sq)` and the one after: the squares the plain one-step
    /// rules of the code of `block` move to from `sq`, and those they capture on, gathered so
    /// that a knight's or a king's targets are one lookup.
    steps: Masks,
    /// Rows `row + 2 * sq` and the one after, for a [`LameStep`]: the square it lands on from
    /// `sq` (none if a square it passes is off the board), and the squares it passes.
    lame_steps: Masks,
    /// Per piece code: its program sorted for counting targets.
    pub sorted: Vec<SortedProgram>,
    /// Row `code * squares + sq`: the first square each plain ride of the code crosses from
    /// `sq`. Where its own pieces stand on all of them, the code's rides reach nothing.
    ride_starts: Masks,
    /// The lines read together with one lookup.
    slides: SlideSets,
    /// Per attacking player: its slides, read by sets where they can be.
    pub slide_attacks: Vec<SlideAttacks>,
    /// Row `trigger * players + player`: the squares outside the trigger's zone from which a
    /// piece of the player of a kind the trigger names might enter the zone in one move, on
    /// some board; a piece elsewhere cannot set the trigger off.
    approaches: Masks,
    /// Row `player`: every square of the zones of the triggers, for that player, so that a
    /// move landing elsewhere is known to set none off without reading each zone.
    trigger_zones: Masks,
    /// Row `code`: every square of the zones in which the piece of that code may promote, so
    /// that a move that neither starts nor ends there is counted without reading each zone.
    promotion_zones: Masks,
    /// Row `player * squares + sq`: the squares next to `sq` along the player's custodian
    /// lines, where a piece of theirs arriving on `sq` may flank an enemy; then, from row
    /// `players * squares`, the squares from which an arriving piece of theirs may flank one
    /// on `sq`. Empty without custodian capture.
    flanks: Masks,
}

/// A player's slides, by the kinds of piece that attack along them.
#[derive(Clone, Debug, Default)]
pub struct SlideAttacks {
    /// Slide sets, each read with [`BitTables::slide_set`].
    pub sets: Vec<(u16, u64)>,
    /// Lines read one by one.
    pub lines: Vec<(u16, u64)>,
}

/// A piece code's program sorted by how its targets are found: plain one-step rules gathered
/// into step masks, plain rides as bare lines, the rest rule by rule.
#[derive(Clone, Debug, Default)]
pub struct SortedProgram {
    /// The code's block of step masks, if it has plain one-step rules.
    pub steps: Option<usize>,
    /// The slide set and mode of plain rides read together.
    pub slide_sets: Vec<(u16, Mode)>,
    /// The line and mode of each other plain ride.
    pub rides: Vec<(u16, Mode)>,
    /// The one-step rules that pass squares (a pawn's double step), each read with
    /// [`BitTables::lame_step`].
    pub lame_steps: Vec<LameStep>,
    /// The indices of the other rules in the program.
    pub others: Vec<u16>,
    /// The indices of the rules that capture en passant.
    pub en_passant: Vec<u16>,
    /// Whether every rule is a plain ride (a Rook, a Bishop, a Queen).
    pub only_rides: bool,
    /// Where every rule is a plain step or ride or a lame step, at most one of them passable,
    /// and all share one tag: that tag. Generation then reads the targets of all the rules
    /// together, as counting does, instead of rule by rule; nothing in how a move is made tells
    /// such rules apart but the square a passable step opens to en passant, known from its
    /// target, and the captures en passant, generated beside the others while a square is open.
    pub merged_tag: Option<u16>,
}

impl SortedProgram {
    /// The code's block of step masks where every rule of it is a plain one-step rule: its
    /// targets are then read with one lookup.
    pub fn only_steps(&self) -> Option<usize> {
        let alone = self.slide_sets.is_empty()
            && self.rides.is_empty()
            && self.lame_steps.is_empty()
            && self.others.is_empty();
        self.steps.filter(|_| alone)
    }
}

/// A one-step rule that passes squares, perhaps only from a zone: its target and the squares it
/// passes are looked up, so that counting tests one set against the board.
#[derive(Clone, Copy, Debug)]
pub struct LameStep {
    /// Its first row in the table of lame steps.
    pub row: u32,
    pub mode: Mode,
    pub from_zone: Option<u16>,
    /// For a passable step, the vector to the square it opens to en passant: the first it
    /// passes.
    pub opens: Option<u16>,
}

/// The tables of [`BitTables::within_reach`] and [`BitTables::next_to_reach`]: each square's
/// neighbourhood `step_reach` steps deep, and one step deeper; empty tables where some rule
/// reaches further than steps do.
fn reach_tables(geometry: &Geometry, step_reach: Option<u32>, stride: usize) -> (Masks, Masks) {
    let (mut within, mut next_to) = (Masks::new(stride, 0), Masks::new(stride, 0));
    let Some(reach) = step_reach else {
        return (within, next_to);
    };
    let squares = geometry.squares();
    let grow = |near: Vec<bool>| -> Vec<bool> {
        let mut grown = near.clone();
        for sq in (0..squares).filter(|&sq| near[sq]) {
            for &v in &geometry.neighbours {
                match geometry.step(v, sq as Sq) {
                    NO_SQUARE => {}
                    s => grown[s as usize] = true,
                }
            }
        }
        grown
    };
    let set = |near: Vec<bool>| (0..squares as Sq).filter(move |&s| near[s as usize]);
    for sq in 0..squares {
        let mut near = vec![false; squares];
        near[sq] = true;
        let near = (0..reach).fold(near, |near, _| grow(near));
        next_to.push(set(grow(near.clone())));
        within.push(set(near));
    }
    (within, next_to)
}

fn plain_step(rule: &Gen) -> bool {
    rule.one_step() && rule.unconditional()
}

/// A one-step rule that passes squares, applying from everywhere or from a zone, every time,
/// wherever it lands.
pub(super) fn lame_step(rule: &Gen) -> bool {
    rule.range == 1
        && rule.hop == super::Hop::No
        && !rule.anywhere
        && !rule.path.is_empty()
        && !rule.first
        && !rule.limits_targets()
}

/// The tag all of `program`'s rules share, where each is a plain step or ride or a lame step
/// and at most one is passable (see [`SortedProgram::merged_tag`]). A passable step is merged
/// only where no other rule reaches its target in its mode: the move there is then its own.
fn merged_tag(program: &[Gen], overlapping: bool) -> Option<u16> {
    let tag = program.first()?.tag;
    let passable = (program.iter())
        .filter(|rule| lame_step(rule) && rule.passable)
        .count();
    let merges = |rule: &Gen| plain_step(rule) || plain_ride(rule) || lame_step(rule);
    let alone = passable == 0 || (passable == 1 && !overlapping);
    (alone && program.iter().all(|rule| merges(rule) && rule.tag == tag)).then_some(tag)
}

fn plain_ride(rule: &Gen) -> bool {
    rule.range > 1
        && rule.hop == super::Hop::No
        && rule.path.is_empty()
        && !rule.anywhere
        && rule.unconditional()
}

impl BitTables {
    pub fn new(geometry: &Geometry, pieces: &PieceTables, players: &Players) -> BitTables {
        let squares = geometry.squares();
        let stride = words_for(squares);
        let every = || 0..squares as Sq;
        // Row `line * squares + from`: the squares `line` crosses from `from`, in order.
        let walks: Vec<Vec<Sq>> = (geometry.lines.iter())
            .flat_map(|&line| every().map(move |from| walk(geometry, line, from)))
            .collect();
        let mut lines = Masks::new(stride, 0);
        for crossed in &walks {
            lines.push(crossed.iter().copied());
        }
        let mut board = Masks::new(stride, 0);
        board.push(every());
        let mut files = Masks::new(stride, 0);
        for file in 0..geometry.width {
            files.push(every().filter(|&sq| u32::from(geometry.coords[sq as usize].0) == file));
        }
        let mut neighbours = Masks::new(stride, 0);
        for sq in every() {
            let next = geometry.neighbours.iter().map(|&v| geometry.step(v, sq));
            neighbours.push(next.filter(|&s| s != NO_SQUARE));
        }
        let (within_reach, next_to_reach) = reach_tables(geometry, pieces.step_reach, stride);
        let mut tables = BitTables {
            squares,
            lines,
            line_facts: (geometry.lines.iter())
                .map(|l| (geometry.rising(l.vector), l.unlimited))
                .collect(),
            board,
            files,
            neighbours,
            within_reach,
            next_to_reach,
            leap_sources: Masks::new(stride, 0),
            leapers: Vec::new(),
            any_leap_sources: Masks::new(stride, 0),
            lame_leaps: Vec::new(),
            steps: Masks::new(stride, 0),
            lame_steps: Masks::new(stride, 0),
            sorted: Vec::new(),
            ride_starts: Masks::new(stride, 0),
            slides: SlideSets::new(squares),
            slide_attacks: Vec::new(),
            approaches: Masks::new(stride, 0),
            trigger_zones: Masks::new(stride, 0),
            promotion_zones: Masks::new(stride, 0),
            flanks: Masks::new(stride, 0),
        };
        for (program, &overlapping) in pieces.programs.iter().zip(&pieces.overlapping) {
            let sorted = tables.sort_program(geometry, &walks, program, overlapping);
            tables.sorted.push(sorted);
            tables.add_ride_starts(&walks, program);
        }
        for player in 0..players.count() {
            let slides = tables.group_slides(geometry, &walks, &pieces.attacks[player].slides);
            tables.slide_attacks.push(slides);
        }
        for player in 0..players.count() {
            tables.add_leapers(geometry, pieces, player);
        }
        tables
    }

    /// Sorts one program's rules by how their targets are found.
    fn sort_program(
        &mut self,
        geometry: &Geometry,
        walks: &[Vec<Sq>],
        program: &[Gen],
        overlapping: bool,
    ) -> SortedProgram {
        let mut sorted = SortedProgram {
            steps: self.add_steps(geometry, program),
            lame_steps: (program.iter())
                .filter(|rule| lame_step(rule))
                .map(|rule| self.add_lame_step(geometry, rule))
                .collect(),
            others: (0..program.len() as u16)
                .filter(|&i| {
                    let rule = &program[i as usize];
                    !plain_step(rule) && !plain_ride(rule) && !lame_step(rule)
                })
                .collect(),
            en_passant: (0..program.len() as u16)
                .filter(|&i| program[i as usize].en_passant)
                .collect(),
            merged_tag: merged_tag(program, overlapping),
            ..SortedProgram::default()
        };
        for mode in [Mode::Both, Mode::MoveOnly, Mode::CaptureOnly] {
            let lines: Vec<u16> = (program.iter())
                .filter(|rule| plain_ride(rule) && rule.mode == mode)
                .map(|rule| rule.line)
                .collect();
            let (sets, single) = (&mut sorted.slide_sets, &mut sorted.rides);
            self.group_lines(geometry, walks, &lines, mode, sets, single);
        }
        sorted.only_rides = !program.is_empty() && program.iter().all(plain_ride);
        sorted
    }

    /// Adds a code's rows of [`BitTables::ride_starts`].
    fn add_ride_starts(&mut self, walks: &[Vec<Sq>], program: &[Gen]) {
        let rides: Vec<&Gen> = program.iter().filter(|rule| plain_ride(rule)).collect();
        for from in 0..self.squares {
            let crossed = |rule: &Gen| walks[rule.line as usize * self.squares + from].first();
            let starts: Vec<Sq> = rides
                .iter()
                .filter_map(|rule| crossed(rule).copied())
                .collect();
            self.ride_starts.push(starts);
        }
    }

    /// The first square each plain ride of the piece `code` crosses from `from`.
    #[inline]
    pub fn ride_starts<B: Bitboard>(&self, code: Code, from: Sq) -> B {
        self.ride_starts
            .get(code as usize * self.squares + from as usize)
    }

    /// Adds the rows of a lame step.
    fn add_lame_step(&mut self, geometry: &Geometry, rule: &Gen) -> LameStep {
        let row = self.lame_steps.rows() as u32;
        for from in 0..self.squares as Sq {
            let passed: Vec<Sq> = rule.path.iter().map(|&v| geometry.step(v, from)).collect();
            let target = match passed.contains(&NO_SQUARE) {
                true => NO_SQUARE,
                false => geometry.step(rule.vector, from),
            };
            let on_board = |squares: Vec<Sq>| squares.into_iter().filter(|&s| s != NO_SQUARE);
            self.lame_steps.push(on_board(vec![target]));
            self.lame_steps.push(on_board(passed));
        }
        LameStep {
            row,
            mode: rule.mode,
            from_zone: rule.from_zone,
            opens: rule.passable.then(|| rule.path[0]),
        }
    }

    /// The square a lame step lands on from `from` (none if it cannot be made there), and the
    /// squares it passes, which must be empty.
    #[inline]
    pub fn lame_step<B: Bitboard>(&self, step: &LameStep, from: Sq) -> (B, B) {
        let row = step.row as usize + 2 * from as usize;
        (self.lame_steps.get(row), self.lame_steps.get(row + 1))
    }

    /// Groups `lines` into slide sets, adding each set made to `sets` and each line left
    /// alone to `single`, paired with `tag`.
    fn group_lines<T: Copy>(
        &mut self,
        geometry: &Geometry,
        walks: &[Vec<Sq>],
        lines: &[u16],
        tag: T,
        sets: &mut Vec<(u16, T)>,
        single: &mut Vec<(u16, T)>,
    ) {
        let (made, left) = self.slides.group(geometry, walks, lines);
        sets.extend(made.into_iter().map(|set| (set, tag)));
        single.extend(left.into_iter().map(|line| (line, tag)));
    }

    /// Groups an attacker's slides, by the kinds that attack along them, into slide sets.
    fn group_slides(
        &mut self,
        geometry: &Geometry,
        walks: &[Vec<Sq>],
        slides: &[(u16, u64)],
    ) -> SlideAttacks {
        let mut grouped = SlideAttacks::default();
        for group in slides.chunk_by(|a, b| a.1 == b.1) {
            let kinds = group[0].1;
            let lines: Vec<u16> = group.iter().map(|&(line, _)| line).collect();
            let (sets, single) = (&mut grouped.sets, &mut grouped.lines);
            self.group_lines(geometry, walks, &lines, kinds, sets, single);
        }
        grouped
    }

    /// The squares the lines of slide set `set` reach from `from` with `occupied` standing in
    /// the way. Slide sets exist only on boards of up to two words.
    #[inline]
    pub fn slide_set<B: Bitboard>(&self, set: u16, from: Sq, occupied: B) -> B {
        self.slides.reach(set, from, occupied)
    }

    /// The squares the lines of slide set `set` cross from `from` on an empty board.
    #[inline]
    pub fn slide_span<B: Bitboard>(&self, set: u16, from: Sq) -> B {
        self.slides.span(set, from)
    }

    /// Fills in the squares from which each trigger's pieces might enter its zone, for each
    /// player: any square one of their rules reaches the zone from, pieces aside (a hop or a
    /// ride along its whole line; a move to anywhere from everywhere); and the squares of all
    /// the triggers' zones.
    pub fn add_approaches(
        &mut self,
        geometry: &Geometry,
        pieces: &PieceTables,
        players: &Players,
        triggers: &[Trigger],
        zones: &ZoneSets,
    ) {
        let mut any_trigger = vec![Vec::new(); players.count()];
        let mut any_zone = vec![Vec::new(); players.count()];
        for trigger in triggers {
            for (player, any) in any_trigger.iter_mut().enumerate() {
                let inside = |sq: Sq| zones.contains(trigger.zone, player, sq);
                any_zone[player].extend((0..self.squares as Sq).filter(|&sq| inside(sq)));
                let codes: Vec<Code> = (0..pieces.kinds.len())
                    .filter(|kind| trigger.pieces & (1 << kind) != 0)
                    .map(|kind| pieces.code(kind, player))
                    .collect();
                let reaches = |from: Sq, rule: &Gen| {
                    let line = match rule.hop {
                        super::Hop::No => geometry.lines[rule.line as usize],
                        _ => geometry.lines[self.unlimited(rule.line) as usize],
                    };
                    rule.anywhere || walk(geometry, line, from).into_iter().any(inside)
                };
                let approach = (0..self.squares as Sq).filter(|&from| {
                    !inside(from)
                        && (codes.iter()).any(|&code| {
                            (pieces.programs[code as usize].iter()).any(|rule| reaches(from, rule))
                        })
                });
                let approach: Vec<Sq> = approach.collect();
                any.extend(&approach);
                self.approaches.push(approach);
            }
        }
        for approach in any_trigger {
            self.approaches.push(approach);
        }
        for zone in any_zone {
            self.trigger_zones.push(zone);
        }
    }

    /// The squares from which `player`'s pieces of the kinds `trigger` names might enter its
    /// zone in one move.
    #[inline]
    pub fn approach<B: Bitboard>(&self, trigger: usize, players: usize, player: usize) -> B {
        self.approaches.get(trigger * players + player)
    }

    /// The squares from which `player`'s pieces might enter some trigger's zone in one move
    /// (of `triggers` in all), to rule all of them out at once.
    #[inline]
    pub fn approach_any<B: Bitboard>(&self, triggers: usize, players: usize, player: usize) -> B {
        self.approaches.get(triggers * players + player)
    }

    /// The squares of every trigger's zone for `player`: a move landing elsewhere sets off
    /// none.
    #[inline]
    pub fn trigger_zones<B: Bitboard>(&self, player: usize) -> B {
        self.trigger_zones.get(player)
    }

    /// Whether `sq` is in some trigger's zone for `player`.
    #[inline]
    pub fn in_trigger_zone(&self, player: usize, sq: Sq) -> bool {
        self.trigger_zones.contains(player, sq)
    }

    /// Fills in the squares of each piece code's promotion zones.
    pub fn add_promotion_zones(&mut self, pieces: &PieceTables, zones: &ZoneSets) {
        for code in 0..pieces.programs.len() as Code {
            let (kind, player) = pieces.split(code);
            let promotions = pieces.kinds.get(kind).map_or(&[][..], |k| &k.promotions);
            let inside = |sq: &Sq| (promotions.iter()).any(|p| zones.contains(p.zone, player, *sq));
            self.promotion_zones
                .push((0..self.squares as Sq).filter(inside));
        }
    }

    /// Fills in, for each player, the squares next to each square along their custodian lines
    /// (`lines`), then along the same lines backwards (`back`).
    pub fn add_flanks(&mut self, geometry: &Geometry, lines: &[Vec<u16>], back: &[Vec<u16>]) {
        for player_lines in lines.iter().chain(back) {
            for sq in 0..self.squares as Sq {
                let next = player_lines.iter().map(|&line| geometry.step(line, sq));
                self.flanks.push(next.filter(|&s| s != NO_SQUARE));
            }
        }
    }

    /// The squares next to `sq` along `player`'s custodian lines: a piece of theirs arriving on
    /// `sq` flanks only an enemy there.
    #[inline]
    pub fn flanked_from<B: Bitboard>(&self, player: usize, sq: Sq) -> B {
        self.flanks.get(player * self.squares + sq as usize)
    }

    /// The squares from which a piece of `player`'s, arriving, may flank a piece on `sq`.
    #[inline]
    pub fn flanking<B: Bitboard>(&self, players: usize, player: usize, sq: Sq) -> B {
        self.flanks
            .get((players + player) * self.squares + sq as usize)
    }

    /// The squares of the zones in which the piece `code` may promote.
    #[inline]
    pub fn promotion_zones<B: Bitboard>(&self, code: Code) -> B {
        self.promotion_zones.get(code as usize)
    }

    /// Whether `sq` lies in a zone in which the piece `code` may promote.
    #[inline]
    pub fn in_promotion_zone(&self, code: Code, sq: Sq) -> bool {
        self.promotion_zones.contains(code as usize, sq)
    }

    /// Fills in the leap sources of `player`'s pieces, and which of its leaps are lame.
    fn add_leapers(&mut self, geometry: &Geometry, pieces: &PieceTables, player: usize) {
        let leaps = &pieces.attacks[player].leaps;
        let plain = (leaps.iter()).filter(|(_, _, path)| path.is_empty());
        let vectors: Vec<u16> = plain.map(|&(vector, _, _)| vector).collect();
        for sq in 0..self.squares as Sq {
            let from = vectors.iter().map(|&v| geometry.step(v, sq));
            self.any_leap_sources.push(from.filter(|&s| s != NO_SQUARE));
        }
        let mut leapers = Vec::new();
        for kind in 0..pieces.kinds.len() {
            let vectors: Vec<u16> = (leaps.iter())
                .filter(|(_, kinds, path)| path.is_empty() && kinds & (1 << kind) != 0)
                .map(|&(vector, _, _)| vector)
                .collect();
            if vectors.is_empty() {
                continue;
            }
            let block = self.leap_sources.rows() / self.squares;
            for sq in 0..self.squares as Sq {
                let from = vectors.iter().map(|&v| geometry.step(v, sq));
                self.leap_sources.push(from.filter(|&s| s != NO_SQUARE));
            }
            leapers.push((pieces.code(kind, player), block));
        }
        self.leapers.push(leapers);
        let lame = (leaps.iter().enumerate())
            .filter(|(_, (_, _, path))| !path.is_empty())
            .map(|(i, _)| i);
        self.lame_leaps.push(lame.collect());
    }

    /// Gathers the plain one-step rules of one program into step masks: for each square, where
    /// they move and where they capture; returns their block, if any.
    fn add_steps(&mut self, geometry: &Geometry, program: &[Gen]) -> Option<usize> {
        if !program.iter().any(plain_step) {
            return None;
        }
        let block = self.steps.rows() / (2 * self.squares);
        for sq in 0..self.squares as Sq {
            for mode in [Mode::MoveOnly, Mode::CaptureOnly] {
                let to = (program.iter())
                    .filter(|rule| {
                        plain_step(rule) && (rule.mode == mode || rule.mode == Mode::Both)
                    })
                    .map(|rule| geometry.step(rule.vector, sq));
                self.steps.push(to.filter(|&s| s != NO_SQUARE));
            }
        }
        Some(block)
    }

    /// The squares the plain one-step rules in `block` reach from `from`: those they move to,
    /// and those they capture on.
    #[inline]
    pub fn steps<B: Bitboard>(&self, block: usize, from: Sq) -> (B, B) {
        let row = 2 * (block * self.squares + from as usize);
        (self.steps.get(row), self.steps.get(row + 1))
    }

    /// How many words a bitboard of this board takes.
    pub fn words(&self) -> usize {
        self.board.stride()
    }

    /// The squares `line` crosses from `from`, pieces aside.
    #[inline]
    pub fn line<B: Bitboard>(&self, line: u16, from: Sq) -> B {
        self.lines.get(line as usize * self.squares + from as usize)
    }

    /// The squares `line` reaches from `from` with `occupied` standing in the way: the empty
    /// squares up to the first occupied one, that one included.
    #[inline]
    pub fn reach<B: Bitboard>(&self, line: u16, from: Sq, occupied: B) -> B {
        let ray: B = self.line(line, from);
        let blockers = ray & occupied;
        if blockers.is_empty() {
            return ray;
        }
        let (_, unlimited) = self.line_facts[line as usize];
        ray & !self.line::<B>(unlimited, self.nearest(line, blockers))
    }

    /// The square of `set` nearest the start of `line`, all of `set` lying on it.
    #[inline]
    pub fn nearest<B: Bitboard>(&self, line: u16, set: B) -> Sq {
        match self.line_facts[line as usize].0 {
            true => set.lowest(),
            false => set.highest(),
        }
    }

    /// The unlimited line with the same vector as `line`.
    #[inline]
    pub fn unlimited(&self, line: u16) -> u16 {
        self.line_facts[line as usize].1
    }

    /// Every square of the board.
    #[inline]
    pub fn board<B: Bitboard>(&self) -> B {
        self.board.get(0)
    }

    #[inline]
    pub fn file<B: Bitboard>(&self, file: u8) -> B {
        self.files.get(file as usize)
    }

    #[inline]
    pub fn neighbours<B: Bitboard>(&self, sq: Sq) -> B {
        self.neighbours.get(sq as usize)
    }

    /// The squares from which a piece may move onto `sq`, where every rule is a step.
    #[inline]
    pub fn within_reach<B: Bitboard>(&self, sq: Sq) -> B {
        self.within_reach.get(sq as usize)
    }

    /// The squares from which a piece may move onto `sq` or next to it, where every rule is a
    /// step.
    #[inline]
    pub fn next_to_reach<B: Bitboard>(&self, sq: Sq) -> B {
        self.next_to_reach.get(sq as usize)
    }

    /// The squares from which the leaper of `block` attacks `sq`.
    #[inline]
    pub fn leap_sources<B: Bitboard>(&self, block: usize, sq: Sq) -> B {
        self.leap_sources.get(block * self.squares + sq as usize)
    }

    /// The squares from which any leaper of `player` attacks `sq`.
    #[inline]
    pub fn any_leap_sources<B: Bitboard>(&self, player: usize, sq: Sq) -> B {
        self.any_leap_sources
            .get(player * self.squares + sq as usize)
    }
}

/// The squares `line` crosses from `from`, in order, up to its range or the board's edge.
pub(super) fn walk(geometry: &Geometry, line: Line, from: Sq) -> Vec<Sq> {
    let mut crossed = Vec::new();
    let mut sq = from;
    while line.range == UNLIMITED || crossed.len() < line.range as usize {
        sq = geometry.step(line.vector, sq);
        if sq == NO_SQUARE {
            break;
        }
        crossed.push(sq);
    }
    crossed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::BoardShape;

    /// On an open board, a king's reach from a square is its 3×3 block, and one step more
    /// the 5×5 block, cut by the board's edges and holes.
    #[test]
    fn reach_tables_grow_by_king_steps() {
        let (width, height) = (6, 6);
        let hole = (3, 1);
        let exists = (0..height)
            .flat_map(|rank| (0..width).map(move |file| (file, rank) != hole))
            .collect();
        let geometry = Geometry::new(&BoardShape {
            width,
            height,
            exists,
        });
        let (within, next_to) = reach_tables(&geometry, Some(1), 1);
        let at = |file: u32, rank: u32| {
            let mut coords = geometry.coords.iter();
            coords
                .position(|&(f, r)| (u32::from(f), u32::from(r)) == (file, rank))
                .unwrap()
        };
        let block = |centre: (u32, u32), radius: u32| {
            (0..height)
                .flat_map(|rank| (0..width).map(move |file| (file, rank)))
                .filter(|&(f, r)| f.abs_diff(centre.0) <= radius && r.abs_diff(centre.1) <= radius)
                .filter(|&square| square != hole)
                .fold(0u64, |set, (f, r)| set | 1 << at(f, r))
        };
        for (file, rank) in [(0, 0), (2, 2), (5, 3)] {
            let sq = at(file, rank);
            assert_eq!(within.get::<u64>(sq), block((file, rank), 1));
            // A king does not step through the hole: e1 is two steps from c3 only past d2.
            let around_hole = match (file, rank) {
                (2, 2) => 1 << at(4, 0),
                _ => 0,
            };
            assert_eq!(
                next_to.get::<u64>(sq),
                block((file, rank), 2) & !around_hole
            );
        }
        let (within, _) = reach_tables(&geometry, None, 1);
        assert_eq!(within.rows(), 0);
    }
}

//! Slide sets: several lines read from one square with one table lookup, the table indexed by
//! the pieces standing on the lines (the bits of the occupied squares under the lines' mask,
//! gathered by the processor's PEXT instruction). A rook's four rides cost one lookup instead
//! of four walks to the first blocker.
//!
//! Built only where the board fits two words (128 squares: a two-word board gathers each word
//! and joins the halves) and the processor gathers bits fast; elsewhere the lines stay rides,
//! read one by one, and nothing changes but speed.

#[cfg(test)]
use super::geometry::UNLIMITED;
use super::geometry::{Geometry, Sq};
use crate::bitboard::Bitboard;

/// A set whose lines cover more squares than this from some square is split: the table holds
/// `2^bits` entries per square.
const MAX_BITS: u32 = 12;

/// At most this many words (16 MB) for all the tables of one ruleset: past it, lines stay
/// rides, so that a file with many kinds of rides costs time, not memory.
const MAX_WORDS: usize = 1 << 21;

/// The slide sets made of a list of lines, and the lines left to read one by one.
type Grouping = (Vec<u16>, Vec<u16>);

/// Every slide set of a ruleset, their tables end to end.
#[derive(Clone, Debug, Default)]
pub struct SlideSets {
    /// The lines of each set, sorted.
    lines: Vec<Vec<u16>>,
    squares: usize,
    /// Words per entry of `reach`: one on boards of up to 64 squares, else two.
    words: usize,
    /// Row `set * squares + sq`: the squares whose pieces can stop the set's lines from `sq`.
    masks: Vec<Mask>,
    /// Per set and square, for each arrangement of pieces under the mask in the order PEXT
    /// numbers them: the squares the lines reach, the first piece on each included, in
    /// `words` words.
    reach: Vec<u64>,
    /// Row `set * squares + sq`, in `words` words: the squares the set's lines cross from
    /// `sq` on an empty board, so that an attack test skips the lookup when no slider stands
    /// on them. Small, unlike `reach`, so it stays in the cache.
    spans: Vec<u64>,
    /// What [`SlideSets::group`] made of each list of lines asked of it: the pieces of a
    /// ruleset and their attacks ask the same lists again and again.
    grouped: Vec<(Vec<u16>, Grouping)>,
}

/// The squares whose pieces can stop a set's lines from a square (a line's last square never
/// stops it), a word at a time, and where its entries start.
#[derive(Clone, Copy, Debug, Default)]
struct Mask {
    low: u64,
    high: u64,
    /// How many squares of `low` there are: where the gathered bits of `high` go.
    low_bits: u32,
    start: u32,
}

impl SlideSets {
    /// Empty sets for a board of `squares` squares: none are made unless the board fits two
    /// words and the processor gathers bits fast.
    pub fn new(squares: usize) -> Self {
        SlideSets {
            squares,
            words: squares.div_ceil(64),
            ..SlideSets::default()
        }
    }

    fn enabled(&self) -> bool {
        self.squares <= 128 && fast_gather()
    }

    /// Splits `lines` into sets of lines read together, where each set is worth a table (two
    /// lines or more): the sets made, and the lines left to read one by one. Lines of one axis
    /// go together first, then orthogonal with orthogonal and diagonal with diagonal, so that a
    /// queen shares a rook's and a bishop's tables. `walks[line * squares + from]` is the squares `line` crosses from `from`, in order.
    pub fn group(&mut self, geometry: &Geometry, walks: &[Vec<Sq>], lines: &[u16]) -> Grouping {
        if !self.enabled() {
            return (Vec::new(), lines.to_vec());
        }
        if let Some((_, made)) = self.grouped.iter().find(|(asked, _)| asked == lines) {
            return made.clone();
        }
        let made = self.group_anew(geometry, walks, lines);
        self.grouped.push((lines.to_vec(), made.clone()));
        made
    }

    /// [`SlideSets::group`] for lines not asked before.
    fn group_anew(&mut self, geometry: &Geometry, walks: &[Vec<Sq>], lines: &[u16]) -> Grouping {
        let mut sorted = lines.to_vec();
        sorted.sort_by_key(|&line| axis_order(geometry, line));
        sorted.dedup();
        let mut groups: Vec<Group> = Vec::new();
        // A whole axis joins a set, so that no line is left alone (read one by one) where
        // its axis fits a table; an axis too wide for one is split line by line.
        for axis in sorted.chunk_by(|&a, &b| axis_of(geometry, a) == axis_of(geometry, b)) {
            let stops = self.stops(walks, axis);
            let joins = groups.last().is_some_and(|group| group.fits(&stops));
            if joins || widest(&stops, &[]) <= MAX_BITS {
                join(&mut groups, axis, stops);
                continue;
            }
            for &line in axis {
                join(&mut groups, &[line], self.stops(walks, &[line]));
            }
        }
        let (mut sets, mut single) = (Vec::new(), Vec::new());
        for Group { lines: group, .. } in groups {
            match self.set_of(geometry, walks, &group) {
                Some(set) if group.len() > 1 => sets.push(set),
                _ => single.extend(group),
            }
        }
        (sets, single)
    }

    /// Per square, the squares whose pieces can stop `lines` from it.
    fn stops(&self, walks: &[Vec<Sq>], lines: &[u16]) -> Vec<u128> {
        let crossed = |line: u16, from: usize| &walks[line as usize * self.squares + from][..];
        (0..self.squares)
            .map(|from| (lines.iter()).fold(0, |m, &l| m | stoppers(crossed(l, from))))
            .collect()
    }

    /// The set of `lines`, made if no set has them yet and the tables have room for it.
    fn set_of(&mut self, geometry: &Geometry, walks: &[Vec<Sq>], lines: &[u16]) -> Option<u16> {
        let mut lines = lines.to_vec();
        lines.sort_unstable();
        if let Some(set) = self.lines.iter().position(|l| *l == lines) {
            return Some(set as u16);
        }
        let squares = self.squares;
        let crossed = |line: u16, from: usize| &walks[line as usize * squares + from][..];
        let masks: Vec<u128> = (0..self.squares)
            .map(|from| (lines.iter()).fold(0, |m, &line| m | stoppers(crossed(line, from))))
            .collect();
        let entries: usize = masks.iter().map(|mask| 1 << mask.count_ones()).sum();
        if lines.len() < 2 || self.reach.len() + entries * self.words > MAX_WORDS {
            return None;
        }
        self.reach.reserve(entries * self.words);
        for (from, mask) in masks.into_iter().enumerate() {
            let rays: Vec<(u128, bool)> = (lines.iter())
                .map(|&line| (squares_in(crossed(line, from)), rising(geometry, line)))
                .collect();
            let low = mask as u64;
            self.masks.push(Mask {
                low,
                high: (mask >> 64) as u64,
                low_bits: low.count_ones(),
                start: (self.reach.len() / self.words) as u32,
            });
            let span = (rays.iter()).fold(0, |r, &(ray, _)| r | ray);
            self.spans
                .extend([span as u64, (span >> 64) as u64].iter().take(self.words));
            self.fill(mask, &rays);
        }
        self.lines.push(lines);
        Some((self.lines.len() - 1) as u16)
    }

    /// Appends one square's entries: for each arrangement of pieces under `mask`, in the order
    /// PEXT numbers them, what `rays` reach. A ray's reach depends on the pieces on it alone,
    /// so it is tabled once for each arrangement of those, and an entry joins the rays'
    /// tables, each read by the bits of the entry's number that stand for the ray's squares.
    fn fill(&mut self, mask: u128, rays: &[(u128, bool)]) {
        let tables: Vec<(u64, Vec<u128>)> = (rays.iter())
            .map(|&(ray, up)| {
                let stops = ray & mask;
                // Counting up through the subsets of `stops` (the carry-rippler walk) lists
                // them in the order PEXT numbers them.
                let mut table = Vec::with_capacity(1 << stops.count_ones());
                let mut pieces = 0u128;
                loop {
                    table.push(ray_reach(ray, up, pieces));
                    pieces = pieces.wrapping_sub(stops) & stops;
                    if pieces == 0 {
                        break;
                    }
                }
                (gather_wide(stops, mask), table)
            })
            .collect();
        for index in 0..1u64 << mask.count_ones() {
            let reach = (tables.iter()).fold(0, |r, (bits, table)| {
                r | table[gather(index, *bits) as usize]
            });
            self.reach.push(reach as u64);
            if self.words == 2 {
                self.reach.push((reach >> 64) as u64);
            }
        }
    }

    /// The squares the lines of `set` reach from `from` with `occupied` standing in the way,
    /// on a board of `B`'s width.
    #[inline(always)]
    pub fn reach<B: Bitboard>(&self, set: u16, from: Sq, occupied: B) -> B {
        let mask = self.masks[set as usize * self.squares + from as usize];
        let [low, high] = occupied.two_words();
        let index = match B::WORDS {
            1 => gather(low, mask.low),
            _ => gather(low, mask.low) | gather(high, mask.high) << mask.low_bits,
        };
        load_at::<B>(&self.reach, mask.start as usize + index as usize)
    }

    /// The squares the lines of `set` cross from `from` on an empty board.
    #[inline]
    pub fn span<B: Bitboard>(&self, set: u16, from: Sq) -> B {
        load_at::<B>(&self.spans, set as usize * self.squares + from as usize)
    }
}

/// Entry `entry` of a table of `B`'s width, read from a slice of exactly its words: one bounds
/// check for the entry, not one per word.
#[inline(always)]
fn load_at<B: Bitboard>(table: &[u64], entry: usize) -> B {
    let start = entry * B::WORDS;
    B::load(&table[start..start + B::WORDS])
}

/// Lines to be read with one table, and per square the squares whose pieces can stop them.
struct Group {
    lines: Vec<u16>,
    stops: Vec<u128>,
}

impl Group {
    /// Whether lines stopped on `stops` fit in one table with the group's.
    fn fits(&self, stops: &[u128]) -> bool {
        widest(&self.stops, stops) <= MAX_BITS
    }
}

/// Adds `lines`, stopped on `stops`, to the last of `groups` if they fit in its table, else
/// as a new group.
fn join(groups: &mut Vec<Group>, lines: &[u16], stops: Vec<u128>) {
    match groups.last_mut() {
        Some(group) if group.fits(&stops) => {
            group.lines.extend(lines);
            (group.stops.iter_mut().zip(stops)).for_each(|(mask, more)| *mask |= more);
        }
        _ => groups.push(Group {
            lines: lines.to_vec(),
            stops,
        }),
    }
}

/// The most squares that lines stopped on `stops` and on `more` (if given) can be stopped on
/// together, from any square.
fn widest(stops: &[u128], more: &[u128]) -> u32 {
    let more = more.iter().copied().chain(std::iter::repeat(0));
    (stops.iter().zip(more))
        .map(|(mask, more)| (mask | more).count_ones())
        .max()
        .unwrap_or(0)
}

/// Sorts lines so that those that fit together in a table come together: by kind (orthogonal,
/// diagonal, other), then by axis, a line beside its opposite.
fn axis_order(geometry: &Geometry, line: u16) -> (u8, i32, i32, i32, u16) {
    let (dx, dy) = geometry.vectors[geometry.lines[line as usize].vector as usize];
    let kind = match (dx, dy) {
        (0, _) | (_, 0) => 0,
        _ if dx.abs() == dy.abs() => 1,
        _ => 2,
    };
    let sign = if dx < 0 || (dx == 0 && dy < 0) { -1 } else { 1 };
    (kind, dx * sign, dy * sign, sign, line)
}

/// The axis of `line`: its kind, and its vector up to sign.
fn axis_of(geometry: &Geometry, line: u16) -> (u8, i32, i32) {
    let (kind, dx, dy, ..) = axis_order(geometry, line);
    (kind, dx, dy)
}

/// The squares of a line from a square whose pieces can stop it: all but its last.
fn stoppers(crossed: &[Sq]) -> u128 {
    crossed
        .split_last()
        .map_or(0, |(_, before)| squares_in(before))
}

fn squares_in(squares: &[Sq]) -> u128 {
    squares.iter().fold(0, |set, &sq| set | 1 << sq)
}

/// Whether square numbers climb along `line`.
fn rising(geometry: &Geometry, line: u16) -> bool {
    geometry.rising(geometry.lines[line as usize].vector)
}

/// The squares of `ray` up to the first piece of `pieces` on it, that one included; `up` if
/// the ray's square numbers climb from its start.
fn ray_reach(ray: u128, up: bool, pieces: u128) -> u128 {
    let blockers = ray & pieces;
    match (blockers, up) {
        (0, _) => ray,
        (_, true) => {
            ray & (blockers & blockers.wrapping_neg())
                .wrapping_shl(1)
                .wrapping_sub(1)
        }
        (_, false) => ray & !((1u128 << (127 - blockers.leading_zeros())) - 1),
    }
}

/// The bits of a two-word `word` under `mask`, packed into the low bits.
fn gather_wide(word: u128, mask: u128) -> u64 {
    let low = mask as u64;
    gather(word as u64, low) | gather((word >> 64) as u64, (mask >> 64) as u64) << low.count_ones()
}

/// Whether this processor gathers bits in one fast instruction (BMI2's PEXT, which AMD
/// processors before Zen 3 run in microcode, hundreds of times slower).
#[cfg(target_arch = "x86_64")]
fn fast_gather() -> bool {
    use std::arch::x86_64::__cpuid;
    use std::sync::OnceLock;
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        let vendor = __cpuid(0);
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let signature = __cpuid(1).eax;
        let family = ((signature >> 8) & 0xF) + ((signature >> 20) & 0xFF);
        !amd || family >= 0x19
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_gather() -> bool {
    false
}

/// The bits of `word` under `mask`, packed into the low bits: the processor's PEXT, written
/// as assembly so that it inlines into code built for any x86-64 (a function enabling BMI2
/// would be called, not inlined).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn gather(word: u64, mask: u64) -> u64 {
    let packed: u64;
    // SAFETY: a mask is only ever made once `fast_gather` has found BMI2 on this processor;
    // the instruction reads and writes registers only.
    unsafe {
        std::arch::asm!(
            "pext {packed}, {word}, {mask}",
            packed = lateout(reg) packed,
            word = in(reg) word,
            mask = in(reg) mask,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    packed
}

/// Never called where PEXT is missing (no set is made), but correct all the same.
#[cfg(not(target_arch = "x86_64"))]
fn gather(word: u64, mut mask: u64) -> u64 {
    let mut packed = 0;
    let mut bit = 1;
    while mask != 0 {
        if word & mask & mask.wrapping_neg() != 0 {
            packed |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    packed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::BoardShape;
    use crate::random::Random;

    /// Every lookup of every set agrees with walking the set's lines square by square, on
    /// boards with holes of one word and of two, for riders of every kind: orthogonal,
    /// diagonal, limited, oblique.
    #[test]
    fn a_lookup_reads_what_walking_the_lines_finds() {
        lookups_agree_with_walks::<u64>(9, 7, &[(0, 0), (4, 3), (8, 6)]);
        lookups_agree_with_walks::<u128>(11, 11, &[(0, 0), (5, 5), (10, 3), (2, 9)]);
    }

    fn lookups_agree_with_walks<B: Bitboard>(width: u32, height: u32, holes: &[(u32, u32)]) {
        let exists = (0..height)
            .flat_map(|rank| (0..width).map(move |file| !holes.contains(&(file, rank))))
            .collect();
        let mut geometry = Geometry::new(&BoardShape {
            width,
            height,
            exists,
        });
        let vectors = [
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, 2),
            (-2, -1),
        ];
        let mut lines = Vec::new();
        for (i, v) in vectors.into_iter().enumerate() {
            let vector = geometry.vector(v);
            let range = if i == 1 { 3 } else { UNLIMITED };
            lines.push(geometry.line(vector, range));
        }
        let squares = geometry.squares();
        let walks: Vec<Vec<Sq>> = (geometry.lines.iter())
            .flat_map(|&line| (0..squares as Sq).map(move |from| (line, from)))
            .map(|(line, from)| super::super::bitboards::walk(&geometry, line, from))
            .collect();
        let mut sets = SlideSets::new(squares);
        let (made, left) = sets.group(&geometry, &walks, &lines);
        assert!(!fast_gather() || made.len() >= 2, "{made:?} {left:?}");
        let on_board = (1u128 << squares) - 1;
        let mut random = Random::new(7);
        for set in made {
            for from in 0..squares {
                // On an empty board a set reaches every square its lines cross.
                let span = (sets.lines[set as usize].iter())
                    .map(|&line| &walks[line as usize * squares + from])
                    .fold(0u128, |span, crossed| span | squares_in(crossed));
                let as_set = |set: u128| B::load(&[set as u64, (set >> 64) as u64]);
                assert_eq!(sets.span::<B>(set, from as Sq), as_set(span));
                for _ in 0..200 {
                    let pieces = (u128::from(random.next_u64()) << 64
                        | u128::from(random.next_u64()))
                        & on_board;
                    let walked = (sets.lines[set as usize].iter())
                        .map(|&line| &walks[line as usize * squares + from])
                        .fold(0, |reach, crossed| reach | walk(crossed, pieces));
                    let as_set = |set: u128| B::load(&[set as u64, (set >> 64) as u64]);
                    assert_eq!(sets.reach(set, from as Sq, as_set(pieces)), as_set(walked));
                }
            }
        }
    }

    fn walk(crossed: &[Sq], pieces: u128) -> u128 {
        let mut reach = 0;
        for &sq in crossed {
            reach |= 1 << sq;
            if pieces & 1 << sq != 0 {
                break;
            }
        }
        reach
    }
}

//! Pieces that only step, counted together. Where every rule of a piece is a single step (a
//! Pawn, a shogi Knight) and each step joins squares whose numbers differ by the
//! same offset wherever it lands (a rectangular board), the targets of all the pieces of one
//! code are the set of them shifted by each step's offset. Counting them then costs a few
//! operations per step, not a table lookup per piece.

use super::bitboards::lame_step;
use super::geometry::{Geometry, NO_SQUARE, Sq};
use super::moves::{ANY_KIND, Gen, Mode};
use super::pieces::PieceTables;
use super::zones::ZoneSets;
use crate::bitboard::{Bitboard, Masks, words_for};

/// The most steps of a piece counted by shifts. A shift reads all the pieces of a code at
/// once and a lookup one piece, so a piece of many steps, of which a side has few (a Knight's
/// eight steps, two Knights), is counted faster one by one (measured on chess and shogi).
const MAX_STEPS: usize = 4;

/// The shifted steps of every piece code that has them.
#[derive(Clone, Debug, Default)]
pub struct ShiftTables {
    /// Per player: their piece codes whose rules are all steps that shift.
    by_player: Vec<Vec<ShiftedPiece>>,
    /// The rows the steps and pieces point to.
    rows: Masks,
}

/// A piece code whose rules are all steps that shift.
#[derive(Clone, Debug)]
pub struct ShiftedPiece {
    pub code: u8,
    /// The bit of the code's kind, as a turn's kinds are given.
    pub kind_bit: u64,
    pub steps: Vec<ShiftedStep>,
    /// Row of the squares from which no step starts or ends in a promotion zone of the code:
    /// there every move is one turn, with no promotion to choose.
    settled: usize,
}

/// One step rule as a shift of the set of pieces.
#[derive(Clone, Debug)]
pub struct ShiftedStep {
    /// What the step adds to a square's number.
    pub offset: i32,
    /// Row of the squares from which the step applies (in its zone, if it has one) and lands
    /// on the board.
    sources: usize,
    /// What the step adds to a square's number for each square it passes, which must be empty.
    pub passed: Vec<i32>,
    pub mode: Mode,
}

impl ShiftTables {
    pub fn new(
        geometry: &Geometry,
        pieces: &PieceTables,
        players: usize,
        zones: &ZoneSets,
    ) -> ShiftTables {
        let mut tables = ShiftTables {
            by_player: vec![Vec::new(); players],
            rows: Masks::new(words_for(geometry.squares()), 0),
        };
        for code in 0..pieces.programs.len() as u8 {
            if let Some(shifted) = tables.shift_piece(geometry, pieces, zones, code) {
                tables.by_player[pieces.split(code).1].push(shifted);
            }
        }
        tables
    }

    /// `player`'s pieces that have shifted steps.
    #[inline]
    pub fn of(&self, player: usize) -> &[ShiftedPiece] {
        &self.by_player[player]
    }

    /// The shifted steps of the piece `code`, if it has them.
    pub fn piece(&self, code: u8) -> Option<&ShiftedPiece> {
        self.by_player.iter().flatten().find(|p| p.code == code)
    }

    /// The squares from which the piece's moves are counted together.
    #[inline]
    pub fn settled<B: Bitboard>(&self, piece: &ShiftedPiece) -> B {
        self.rows.get(piece.settled)
    }

    /// The squares from which `step` lands on the board.
    #[inline]
    pub fn sources<B: Bitboard>(&self, step: &ShiftedStep) -> B {
        self.rows.get(step.sources)
    }

    /// The piece `code` as shifted steps, if every rule of it is a step that shifts and it is
    /// neither royal, nor may become or stop being so, nor promotes by the position.
    fn shift_piece(
        &mut self,
        geometry: &Geometry,
        pieces: &PieceTables,
        zones: &ZoneSets,
        code: u8,
    ) -> Option<ShiftedPiece> {
        let program = &pieces.programs[code as usize];
        let (kind_index, player) = pieces.split(code);
        let kind = pieces.kinds.get(kind_index)?;
        let plain = !program.is_empty()
            && !kind.royal
            && !kind.promotes_by_position
            && !pieces.changes_royalty(kind_index);
        if !plain {
            return None;
        }
        let shifts: Vec<(i32, Vec<i32>)> = (program.iter())
            .map(|rule| step_shifts(geometry, rule))
            .collect::<Option<_>>()?;
        let in_zone = |sq: Sq| (kind.promotions.iter()).any(|p| zones.contains(p.zone, player, sq));
        let every = || 0..geometry.squares() as Sq;
        let applies =
            |rule: &Gen, from: Sq| (rule.from_zone).is_none_or(|z| zones.contains(z, player, from));
        // Steps alike but from different zones (Horde's double steps from the first rank and
        // from the second) are one shift from the squares of either.
        let mut alike: Vec<Alike> = Vec::new();
        for (rule, (offset, passed)) in program.iter().zip(shifts) {
            let step = Alike {
                offset,
                passed,
                mode: rule.mode,
                from: (every())
                    .map(|sq| lands(geometry, rule, sq) && applies(rule, sq))
                    .collect(),
            };
            if alike.iter().any(|a| a.meets(&step)) {
                return None;
            }
            match alike.iter_mut().find(|a| a.same_step(&step)) {
                Some(same) => same
                    .from
                    .iter_mut()
                    .zip(&step.from)
                    .for_each(|(a, b)| *a |= b),
                None => alike.push(step),
            }
        }
        if alike.len() > MAX_STEPS {
            return None;
        }
        let settled = every().filter(|&from| {
            !in_zone(from)
                && (program.iter().filter(|rule| applies(rule, from)))
                    .map(|rule| geometry.step(rule.vector, from))
                    .all(|to| to == NO_SQUARE || !in_zone(to))
        });
        let settled = self.rows.push(settled);
        let steps = (alike.into_iter())
            .map(|step| ShiftedStep {
                offset: step.offset,
                sources: self.rows.push(every().filter(|&sq| step.from[sq as usize])),
                passed: step.passed,
                mode: step.mode,
            })
            .collect();
        Some(ShiftedPiece {
            code,
            kind_bit: 1 << kind_index,
            steps,
            settled,
        })
    }
}

/// A step rule as a shift while a piece's rules are gathered, with the squares it applies from.
struct Alike {
    offset: i32,
    passed: Vec<i32>,
    mode: Mode,
    from: Vec<bool>,
}

impl Alike {
    fn same_step(&self, other: &Alike) -> bool {
        (self.offset, &self.passed, self.mode) == (other.offset, &other.passed, other.mode)
    }

    /// Whether both make the same move from some square: it would be counted twice, so the
    /// piece is counted one by one, where its moves are built and told apart.
    fn meets(&self, other: &Alike) -> bool {
        let (a, b) = (self.mode, other.mode);
        let modes = (a.moves() && b.moves()) || (a.captures() && b.captures());
        let shared = (self.from.iter().zip(&other.from)).any(|(x, y)| *x && *y);
        self.offset == other.offset && modes && shared
    }
}

/// The offsets of `rule`'s landing square and of the squares it passes, if it is a single
/// step from anywhere or from a zone, every time, onto any square (a plain step, perhaps from
/// a zone, or a [`lame_step`]) and its offsets are the same from every square it lands from.
fn step_shifts(geometry: &Geometry, rule: &Gen) -> Option<(i32, Vec<i32>)> {
    // A plain step from a zone shifts too, from the zone's squares alone.
    let zoned_step = rule.one_step()
        && !rule.first
        && rule.to_zone.is_none()
        && !rule.limits_targets()
        && rule.over == ANY_KIND;
    if !zoned_step && !lame_step(rule) {
        return None;
    }
    let offset = same_offset(geometry, rule.vector)?;
    let passed = (rule.path.iter())
        .map(|&v| same_offset(geometry, v))
        .collect::<Option<_>>()?;
    Some((offset, passed))
}

/// What stepping by vector `v` adds to a square's number, if it adds the same wherever it
/// lands on the board.
fn same_offset(geometry: &Geometry, v: u16) -> Option<i32> {
    let mut offsets = (0..geometry.squares() as Sq)
        .map(|from| (from, geometry.step(v, from)))
        .filter(|&(_, to)| to != NO_SQUARE)
        .map(|(from, to)| i32::from(to) - i32::from(from));
    let first = offsets.next()?;
    offsets.all(|offset| offset == first).then_some(first)
}

/// Whether `rule` lands on the board from `from`, passing only squares on it.
fn lands(geometry: &Geometry, rule: &Gen, from: Sq) -> bool {
    std::iter::once(&rule.vector)
        .chain(&rule.path)
        .all(|&v| geometry.step(v, from) != NO_SQUARE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{Ruleset, compiled};

    fn code(rules: &Ruleset, name: &str, player: usize) -> u8 {
        let kind = (rules.pieces.kinds.iter()).position(|k| k.name == name);
        rules
            .pieces
            .code(kind.expect("a kind of that name"), player)
    }

    fn squares(rules: &Ruleset, set: u64) -> Vec<String> {
        set.squares().map(|sq| rules.geometry.name(sq)).collect()
    }

    /// Chess's Pawns shift, settled below the ranks from which they promote; its Knights
    /// have too many steps, its King is royal, its Rooks ride.
    #[test]
    fn only_plain_steppers_shift_and_settle_out_of_promotion() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let shifts = &rules.shifts;
        let pawn = shifts
            .piece(code(&rules, "Pawn", 0))
            .expect("the Pawn shifts");
        let offsets: Vec<i32> = pawn.steps.iter().map(|s| s.offset).collect();
        assert_eq!(offsets.len(), 4);
        for offset in [8, 16, 7, 9] {
            assert!(offsets.contains(&offset), "{offset} in {offsets:?}");
        }
        let double = pawn.steps.iter().find(|s| s.offset == 16).unwrap();
        assert_eq!(double.passed, vec![8]);
        let settled: u64 = shifts.settled(pawn);
        let named = squares(&rules, settled);
        assert!(named.contains(&"e2".to_string()) && named.contains(&"a6".to_string()));
        assert!(
            !named
                .iter()
                .any(|sq| sq.ends_with('7') || sq.ends_with('8'))
        );
        let black = shifts
            .piece(code(&rules, "Pawn", 1))
            .expect("Black's Pawn shifts");
        assert!(black.steps.iter().any(|s| s.offset == -8));
        for kind in ["Knight", "King", "Rook", "Queen"] {
            assert!(shifts.piece(code(&rules, kind, 0)).is_none(), "{kind}");
        }
        let codes: Vec<u8> = shifts.of(0).iter().map(|p| p.code).collect();
        assert_eq!(codes, [code(&rules, "Pawn", 0)]);
    }

    /// The steps from the edge of the board land nowhere: a capture to the left is not made
    /// from the a-file.
    #[test]
    fn a_step_has_sources_only_where_it_lands() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let pawn = rules.shifts.piece(code(&rules, "Pawn", 0)).unwrap();
        let left = pawn.steps.iter().find(|s| s.offset == 7).unwrap();
        let sources: u64 = rules.shifts.sources(left);
        let named = squares(&rules, sources);
        assert!(named.contains(&"b2".to_string()));
        assert!(
            !named
                .iter()
                .any(|sq| sq.starts_with('a') || sq.ends_with('8'))
        );
    }

    /// Horde's double steps, from the first rank and from the second, are one shift from
    /// either rank; a Soldier's sideways step shifts from across the river only.
    #[test]
    fn steps_from_zones_shift_from_their_zones() {
        let rules = compiled(include_str!("../../variants/horde.rules"));
        let pawn = rules
            .shifts
            .piece(code(&rules, "Pawn", 0))
            .expect("the Pawn shifts");
        assert_eq!(pawn.steps.len(), 4);
        let double = pawn.steps.iter().find(|s| s.offset == 16).unwrap();
        let sources: u64 = rules.shifts.sources(double);
        let ranks: Vec<String> = squares(&rules, sources);
        assert_eq!(ranks.len(), 16);
        assert!(
            ranks
                .iter()
                .all(|sq| sq.ends_with('1') || sq.ends_with('2'))
        );
        let rules = compiled(include_str!("../../rules/xiangqi.rules"));
        let soldier = rules
            .shifts
            .piece(code(&rules, "Soldier", 0))
            .expect("it shifts");
        let sideways = soldier.steps.iter().find(|s| s.offset == 1).unwrap();
        let sources: u128 = rules.shifts.sources(sideways);
        let named = sources.squares().map(|sq| rules.geometry.name(sq));
        assert!(named.clone().all(|sq| sq[1..].parse::<u32>().unwrap() >= 6));
        assert_eq!(named.count(), 5 * 8);
    }

    /// Two rules that make the same move from a square would count it twice.
    #[test]
    fn rules_that_make_the_same_move_do_not_shift() {
        let text = include_str!("../../rules/chess.rules").replace(
            "move step forward",
            "move step forward\n  move step forward from rank 3",
        );
        let rules = compiled(&text);
        assert!(rules.shifts.piece(code(&rules, "Pawn", 0)).is_none());
    }

    /// On Amphora's vase the ranks differ in length, so a step forward adds a different
    /// number from square to square: nothing shifts.
    #[test]
    fn a_board_of_uneven_ranks_shifts_nothing() {
        let rules = compiled(include_str!("../../rules/amphora.rules"));
        assert!((0..rules.players.count()).all(|p| rules.shifts.of(p).is_empty()));
    }
}

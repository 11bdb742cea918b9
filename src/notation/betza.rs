//! A piece's moves in Betza's notation as XBoard reads it (`piece N& N`, `piece P& fmWfcFifmnD`),
//! written from the compiled rules, so that an interface can draw and test the moves of a piece
//! it does not know. Written from the first player's side, forward being up the board.
//!
//! What Betza cannot say is left out on the side of allowing: a zone a rule starts from or ends
//! in, and the kinds it may take, are dropped, so that the interface allows at least every legal
//! move and fairy, judging every move, refuses the rest. Where a rule cannot be said at all (a
//! move to anywhere, a leap Betza has no letter for, some of an oblique leap's directions), the
//! piece gets no description.

use crate::compile::geometry::UNLIMITED;
use crate::compile::{Gen, Hop, Mode, Ruleset};

/// The moves of `kind` (for the first player) in Betza's notation; `None` where one of its rules
/// cannot be said.
pub fn betza(rules: &Ruleset, kind: usize) -> Option<String> {
    let program = &rules.pieces.programs[rules.pieces.code(kind, 0) as usize];
    let mut groups: Vec<(Term, Vec<(i32, i32)>)> = Vec::new();
    for rule in program {
        let (term, direction) = Term::of(rules, rule)?;
        match groups.iter_mut().find(|(t, _)| *t == term) {
            Some((_, directions)) => directions.push(direction),
            None => groups.push((term, vec![direction])),
        }
    }
    let texts: Option<Vec<String>> = groups.iter().map(|(term, dirs)| term.write(dirs)).collect();
    Some(texts?.concat())
}

/// What a group of rules shares but its directions.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Term {
    /// The leap's two lengths, the shorter first.
    atom: (i32, i32),
    mode: Mode,
    /// 1 for a leap, 0 for as far as the board goes, else the most steps.
    range: u16,
    hop: Hop,
    first: bool,
    lame: bool,
}

impl Term {
    fn of(rules: &Ruleset, rule: &Gen) -> Option<(Term, (i32, i32))> {
        if rule.anywhere {
            return None;
        }
        let (dx, dy) = rules.geometry.vectors[rule.vector as usize];
        let (short, long) = (dx.abs().min(dy.abs()), dx.abs().max(dy.abs()));
        let board = rules.geometry.width.max(rules.geometry.height);
        let range = match rule.range {
            UNLIMITED => 0,
            range if u32::from(range) >= board => 0,
            range => range,
        };
        let term = Term {
            atom: (short, long),
            mode: rule.mode,
            range,
            hop: rule.hop,
            first: rule.first,
            lame: !rule.path.is_empty(),
        };
        Some((term, (dx, dy)))
    }

    /// The term for these directions of its atom, or `None` where Betza cannot say them.
    fn write(&self, directions: &[(i32, i32)]) -> Option<String> {
        let letter = atom_letter(self.atom)?;
        let piece = match (self.range, letter) {
            (1, _) => letter.to_string(),
            (0, 'W') => "R".to_string(),
            (0, 'F') => "B".to_string(),
            (0, _) => format!("{letter}{letter}"),
            (range, 'W') => format!("R{range}"),
            (range, 'F') => format!("B{range}"),
            (range, _) => format!("{letter}{letter}{range}"),
        };
        let mut prefix = String::new();
        if self.first {
            prefix.push('i');
        }
        prefix.push_str(match self.mode {
            Mode::Both => "",
            Mode::MoveOnly => "m",
            Mode::CaptureOnly => "c",
        });
        prefix.push_str(match self.hop {
            Hop::No => "",
            Hop::JustBeyond => "g",
            Hop::AnywhereBeyond => "p",
        });
        if self.lame {
            prefix.push('n');
        }
        let mut all = every_direction(self.atom);
        let mut given = directions.to_vec();
        all.sort_unstable();
        given.sort_unstable();
        given.dedup();
        if given == all {
            return Some(format!("{prefix}{piece}"));
        }
        let parts: Option<Vec<String>> = (directions_in_words(self.atom, &given)?.into_iter())
            .map(|words| Some(format!("{words}{prefix}{piece}")))
            .collect();
        // A direction modifier goes before the others in XBoard's reading (`fmW`).
        Some(parts?.concat())
    }
}

/// Betza's letter for a leap of these lengths (the shorter first).
fn atom_letter(atom: (i32, i32)) -> Option<char> {
    Some(match atom {
        (0, 1) => 'W',
        (1, 1) => 'F',
        (0, 2) => 'D',
        (1, 2) => 'N',
        (2, 2) => 'A',
        (0, 3) => 'H',
        (1, 3) => 'C',
        (2, 3) => 'Z',
        (3, 3) => 'G',
        _ => return None,
    })
}

/// The eight (or four) directions of a leap.
fn every_direction((short, long): (i32, i32)) -> Vec<(i32, i32)> {
    let mut all = Vec::new();
    for (a, b) in [(short, long), (long, short)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            all.push((a * sx, b * sy));
        }
    }
    all.sort_unstable();
    all.dedup();
    all
}

/// A letter that says two directions of a leap at once, and those two, as unit vectors.
type Pair = (&'static str, (i32, i32), (i32, i32));

/// The direction modifiers that together say `directions` of an orthogonal or diagonal leap,
/// one per term; `None` for an oblique leap (its modifiers are not read alike everywhere).
fn directions_in_words(
    (short, long): (i32, i32),
    directions: &[(i32, i32)],
) -> Option<Vec<String>> {
    let word = |(dx, dy): (i32, i32)| -> Option<&'static str> {
        Some(match (dx.signum(), dy.signum()) {
            (0, 1) => "f",
            (0, -1) => "b",
            (1, 0) => "r",
            (-1, 0) => "l",
            (1, 1) => "fr",
            (-1, 1) => "fl",
            (1, -1) => "br",
            (-1, -1) => "bl",
            _ => return None,
        })
    };
    if short != 0 && short != long {
        return None;
    }
    let has = |d: (i32, i32)| directions.contains(&(d.0 * long, d.1 * long));
    let mut words = Vec::new();
    let mut left: Vec<(i32, i32)> = directions.to_vec();
    // The pairs one letter says: forward, backward, left, right for a diagonal leap; vertical
    // and sideways for an orthogonal one.
    let pairs: &[Pair] = match short {
        0 => &[("v", (0, 1), (0, -1)), ("s", (1, 0), (-1, 0))],
        _ => &[
            ("f", (1, 1), (-1, 1)),
            ("b", (1, -1), (-1, -1)),
            ("l", (-1, 1), (-1, -1)),
            ("r", (1, 1), (1, -1)),
        ],
    };
    for &(letter, a, b) in pairs {
        let (a, b) = ((a.0 * long, a.1 * long), (b.0 * long, b.1 * long));
        if has(a) && has(b) && left.contains(&a) && left.contains(&b) {
            words.push(letter.to_string());
            left.retain(|&d| d != a && d != b);
        }
    }
    for direction in left {
        words.push(word(direction)?.to_string());
    }
    Some(words)
}

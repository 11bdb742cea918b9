//! Betza's funny notation as an alternative spelling of move rules. `betza "fmWfcF"` becomes
//! the same rules as `move step forward` and `capture step diagonal-forward`, so nothing after
//! the parser knows which spelling the author chose.
//!
//! Supported: atoms W F D N A H C Z G, K (= WF), R (= WW), B (= FF), Q (= WWFF); a doubled
//! letter or a range digit makes a rider; modifiers m c i n e, p (hop, landing anywhere beyond)
//! and g (grasshopper) on straight riders; direction letters f b l r v s and the pairs
//! ff bb ll rr fs bs fl fr bl br.

use super::ast::*;
use crate::diagnostic::{Code, Problem};
use crate::geometry;

/// Parses a Betza string whose first character sits at byte `base` of the rule file.
pub fn parse(text: &str, base: usize) -> Result<Vec<MoveRule>, Problem> {
    if let Some((at, c)) = text.char_indices().find(|(_, c)| !c.is_ascii()) {
        let span = Span::new(base + at, base + at + c.len_utf8());
        return Err(betza_error(
            Code::BetzaLetter,
            &format!("`{c}` is not a Betza letter"),
            span,
            "not ASCII",
        ));
    }
    let bytes = text.as_bytes();
    let mut rules = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
        }
        let modifiers = &text[start..i];
        let letters_start = i;
        let Some(&letter) = bytes.get(i) else {
            return Err(betza_error(
                Code::BetzaModifiersWithoutAtom,
                "Betza modifiers without an atom",
                Span::new(base + start, base + i),
                "these modify nothing",
            ));
        };
        i += 1;
        let doubled = bytes.get(i) == Some(&letter) && letter.is_ascii_uppercase();
        if doubled {
            i += 1;
        }
        let digits_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let atom_span = Span::new(base + letters_start, base + i);
        let range = match &text[digits_start..i] {
            "" => None,
            digits => Some(parse_range(
                digits,
                Span::new(base + digits_start, base + i),
            )?),
        };
        let modifier_span = Span::new(base + start, base + letters_start);
        rules.extend(expand(
            letter,
            doubled,
            range,
            modifiers,
            modifier_span,
            atom_span,
        )?);
    }
    if rules.is_empty() {
        return Err(betza_error(
            Code::BetzaEmpty,
            "empty Betza string",
            Span::new(base.saturating_sub(1), base + 1),
            "no atoms here",
        ));
    }
    Ok(rules)
}

fn betza_error(code: Code, message: &str, span: Span, label: &str) -> Problem {
    Problem::error(code, message, span, label)
        .with_help("see the README's Betza section for the supported letters")
}

fn parse_range(digits: &str, span: Span) -> Result<Spanned<u32>, Problem> {
    match digits.parse::<u32>() {
        Ok(n) if n > 0 => Ok(Spanned::new(n, span)),
        _ => Err(betza_error(
            Code::BetzaRange,
            "bad Betza range",
            span,
            "a range is a number from 1 up",
        )),
    }
}

/// The vectors of one Betza letter.
fn vectors(letter: u8) -> Option<&'static [(i64, i64)]> {
    Some(match letter {
        b'W' | b'R' => &[(0, 1)],
        b'F' | b'B' => &[(1, 1)],
        b'K' | b'Q' => &[(0, 1), (1, 1)],
        b'D' => &[(0, 2)],
        b'N' => &[(1, 2)],
        b'A' => &[(2, 2)],
        b'H' => &[(0, 3)],
        b'C' => &[(1, 3)],
        b'Z' => &[(2, 3)],
        b'G' => &[(3, 3)],
        _ => return None,
    })
}

#[derive(Default)]
struct Modifiers {
    mode: Option<Mode>,
    first: bool,
    lame: bool,
    en_passant: bool,
    hop: Option<bool>,
    /// Direction units such as "f" or "fs"; empty means all directions.
    units: Vec<&'static str>,
}

const UNITS: [&str; 20] = [
    "ff", "bb", "ll", "rr", "fs", "bs", "fl", "fr", "bl", "br", "lf", "rf", "lb", "rb", "f", "b",
    "l", "r", "v", "s",
];

fn read_modifiers(text: &str, span: Span) -> Result<Modifiers, Problem> {
    let mut m = Modifiers::default();
    let mut rest = text;
    while !rest.is_empty() {
        let offset = text.len() - rest.len();
        if let Some(unit) = UNITS.iter().find(|u| rest.starts_with(**u)) {
            m.units.push(unit);
            rest = &rest[unit.len()..];
            continue;
        }
        match rest.as_bytes()[0] {
            b'm' => m.mode = Some(Mode::MoveOnly),
            b'c' => m.mode = Some(Mode::CaptureOnly),
            b'i' => m.first = true,
            b'n' => m.lame = true,
            b'e' => m.en_passant = true,
            b'p' => m.hop = Some(true),
            b'g' => m.hop = Some(false),
            other => {
                let at = Span::new(span.start + offset, span.start + offset + 1);
                return Err(betza_error(
                    Code::BetzaModifier,
                    &format!("unsupported Betza modifier `{}`", other as char),
                    at,
                    "not one of m c i n e p g f b l r v s",
                ));
            }
        }
        rest = &rest[1..];
    }
    Ok(m)
}

fn unit_selects(unit: &str, (dx, dy): (i64, i64)) -> bool {
    let narrow = dy.abs() > dx.abs();
    let wide = dx.abs() > dy.abs();
    match unit {
        "f" => dy > 0,
        "b" => dy < 0,
        "l" => dx < 0,
        "r" => dx > 0,
        "v" => narrow,
        "s" => wide,
        "ff" => dy > 0 && narrow,
        "bb" => dy < 0 && narrow,
        "ll" => dx < 0 && wide,
        "rr" => dx > 0 && wide,
        "fs" => dy > 0 && wide,
        "bs" => dy < 0 && wide,
        "fl" | "lf" => dy > 0 && dx < 0,
        "fr" | "rf" => dy > 0 && dx > 0,
        "bl" | "lb" => dy < 0 && dx < 0,
        _ => dy < 0 && dx > 0,
    }
}

fn expand(
    letter: u8,
    doubled: bool,
    range: Option<Spanned<u32>>,
    modifier_text: &str,
    modifier_span: Span,
    atom_span: Span,
) -> Result<Vec<MoveRule>, Problem> {
    let Some(bases) = vectors(letter) else {
        return Err(betza_error(
            Code::BetzaAtom,
            &format!("unknown Betza atom `{}`", letter as char),
            Span::new(atom_span.start, atom_span.start + 1),
            "not one of W F D N A H C Z G K R B Q",
        ));
    };
    let m = read_modifiers(modifier_text, modifier_span)?;
    let rider = doubled || range.is_some() || matches!(letter, b'R' | b'B' | b'Q');
    if m.hop.is_some() && !(rider && bases.iter().all(|&(a, b)| a <= 1 && b == 1)) {
        return Err(betza_error(
            Code::BetzaHopNeedsRider,
            "Betza `p` and `g` need a straight rider",
            modifier_span,
            "use them with R, B, Q or a doubled W or F",
        ));
    }
    if let (Some(false), Some(range)) = (m.hop, &range) {
        // A grasshopper lands just beyond its hurdle: a range would make it another piece.
        return Err(betza_error(
            Code::BetzaHopWithRange,
            "a grasshopper with a range is not supported",
            range.span,
            "`g` lands just beyond the hurdle; `p` with a range lands within that many squares",
        ));
    }
    let mut rules = Vec::new();
    for &(a, b) in bases {
        let all = geometry::images(a, b);
        let chosen: Vec<_> = all
            .iter()
            .copied()
            .filter(|&v| m.units.is_empty() || m.units.iter().any(|u| unit_selects(u, v)))
            .collect();
        for words in geometry::words_for(&chosen, &all) {
            let directions = words
                .into_iter()
                .map(|w| Spanned::new(w, modifier_span))
                .collect();
            rules.push(rule(
                &m,
                (a, b),
                rider,
                range.clone(),
                directions,
                atom_span,
                modifier_span,
            ));
        }
    }
    if rules.is_empty() {
        return Err(betza_error(
            Code::BetzaSelectsNothing,
            "these Betza directions select no move",
            Span::new(modifier_span.start, atom_span.end),
            "no move of this atom points that way",
        ));
    }
    Ok(rules)
}

fn rule(
    m: &Modifiers,
    vector: (i64, i64),
    rider: bool,
    range: Option<Spanned<u32>>,
    directions: Directions,
    atom_span: Span,
    modifier_span: Span,
) -> MoveRule {
    let vector = Spanned::new(vector, atom_span);
    let atom = match (m.hop, rider) {
        (Some(beyond), _) => Atom::Hop(directions, beyond, range),
        (None, true) => Atom::Ride(vector, directions, range),
        (None, false) => Atom::Leap(vector, directions),
    };
    let flags = [
        (m.first, Modifier::First),
        (m.lame, Modifier::Lame),
        (m.en_passant, Modifier::EnPassant),
    ];
    let modifiers = flags
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, modifier)| Spanned::new(modifier, modifier_span))
        .collect();
    MoveRule {
        mode: m.mode.map(|mode| Spanned::new(mode, modifier_span)),
        atom: Spanned::new(atom, atom_span),
        modifiers,
        span: Span::new(modifier_span.start, atom_span.end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms(text: &str) -> Vec<Atom> {
        parse(text, 0)
            .unwrap()
            .into_iter()
            .map(|r| r.atom.value)
            .collect()
    }

    #[test]
    fn knight_is_one_leap() {
        assert_eq!(atoms("N").len(), 1);
        assert!(matches!(
            atoms("N")[0],
            Atom::Leap(Spanned { value: (1, 2), .. }, _)
        ));
    }

    #[test]
    fn queen_is_two_rides() {
        assert!(atoms("Q").iter().all(|a| matches!(a, Atom::Ride(..))));
        assert_eq!(atoms("Q").len(), 2);
    }

    #[test]
    fn pawn_has_modes() {
        let rules = parse("fmWfcF", 0).unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].mode.as_ref().unwrap().value, Mode::MoveOnly);
        assert_eq!(rules[1].mode.as_ref().unwrap().value, Mode::CaptureOnly);
    }

    #[test]
    fn bad_letter_points_at_itself() {
        let err = parse("fmWX", 10).unwrap_err();
        assert_eq!(err.span, Span::new(13, 14));
    }

    #[test]
    fn selecting_nothing_is_an_error() {
        assert!(parse("vF", 0).is_err());
    }
}

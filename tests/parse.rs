//! Parser tests: the shipped files parse into the expected trees; comments may stand anywhere;
//! Betza strings mean what the written-out rules mean; syntax errors are all reported.

mod common;

use common::{SHIPPED, rule_text};
use fairy::geometry::{DirectionSet, images};
use fairy::syntax::ast::*;
use fairy::syntax::parse;

fn parsed(text: &str) -> RuleFile {
    parse(text).unwrap_or_else(|problems| panic!("parse failed: {problems:#?}"))
}

/// The tree's Debug text with every span removed, to compare trees written differently.
fn without_spans(file: &RuleFile) -> String {
    common::without_spans(&format!("{file:?}"))
}

fn piece<'a>(file: &'a RuleFile, name: &str) -> &'a Piece {
    file.pieces().find(|p| p.name.value == name).expect("piece")
}

fn move_rules(piece: &Piece) -> Vec<&MoveRule> {
    piece
        .clauses
        .iter()
        .filter_map(|c| match c {
            PieceClause::Move(rule) => Some(rule),
            _ => None,
        })
        .collect()
}

#[test]
fn every_shipped_file_parses() {
    for name in SHIPPED {
        let file = parsed(&rule_text(name));
        assert!(file.pieces().count() >= 1, "{name} has pieces");
        assert!(file.setups().count() >= 2, "{name} has setups");
    }
}

#[test]
fn chess_has_the_expected_items() {
    let file = parsed(&rule_text("chess"));
    assert_eq!(file.players().count(), 2);
    assert_eq!(file.pieces().count(), 6);
    assert_eq!(file.end_rules().count(), 4);
    let pawn = piece(&file, "Pawn");
    let rules = move_rules(pawn);
    assert_eq!(rules.len(), 3);
    assert_eq!(
        rules[0].mode.as_ref().map(|m| m.value),
        Some(Mode::MoveOnly)
    );
    assert!(matches!(&rules[1].atom.value, Atom::Leap(v, _) if v.value == (0, 2)));
    let modifiers: Vec<_> = rules[1].modifiers.iter().map(|m| &m.value).collect();
    assert!(modifiers.contains(&&Modifier::Lame));
    assert!(modifiers.contains(&&Modifier::Passable));
    assert_eq!(rules[2].modifiers[0].value, Modifier::EnPassant);
    let test = file.tests().next().expect("a test");
    let counts: Vec<u64> = test
        .expectations
        .iter()
        .map(|e| match e {
            Expectation::Perft { count, .. } => count.value,
            Expectation::Moves(..) => 0,
        })
        .collect();
    assert_eq!(counts, [20, 400, 8902, 197281, 4865609]);
}

#[test]
fn spans_point_at_the_text() {
    let text = rule_text("chess");
    let file = parsed(&text);
    for piece in file.pieces() {
        let span = piece.name.span;
        assert_eq!(&text[span.start..span.end], piece.name.value);
    }
    let king = piece(&file, "King");
    let castle = king
        .clauses
        .iter()
        .find_map(|c| match c {
            PieceClause::Castle(castle) => Some(castle),
            _ => None,
        })
        .expect("the King castles");
    assert_eq!(
        &text[castle.span.start..castle.span.end],
        "castle sideways 2 with Rook unmoved safe"
    );
}

#[test]
fn comments_may_stand_between_any_two_tokens() {
    let text = rule_text("chess");
    // Outside strings, every space becomes a block comment and every line ends in a comment.
    let commented: String = text
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("//") || line.contains('"') {
                return format!("{line}\n");
            }
            format!("{} // note\n", line.replace(' ', " /* c */ "))
        })
        .collect();
    assert_eq!(
        without_spans(&parsed(&commented)),
        without_spans(&parsed(&text))
    );
}

#[test]
fn a_shape_may_carry_comments_and_skip_spaces() {
    let spaced = "game \"g\"\nboard 3 x 2 shape {\n  # . #   // top\n  # # #\n}\n";
    let packed = "game \"g\"\nboard 3 x 2 shape {\n#.#\n###\n}\n";
    assert_eq!(
        without_spans(&parsed(spaced)),
        without_spans(&parsed(packed))
    );
    let file = parsed(packed);
    let Item::Board(board) = &file.items[1] else {
        panic!("a board")
    };
    let BoardLayout::Shape(rows) = &board.layout else {
        panic!("a shape")
    };
    assert_eq!(rows[0].value, [true, false, true]);
}

/// The squares a rule reaches from the origin for a player facing +y, its mode, and how many
/// modifiers it has.
type Meaning = (Vec<(i64, i64)>, String, usize);

fn meaning(rule: &MoveRule) -> Meaning {
    let (vector, directions) = match &rule.atom.value {
        Atom::Step(d) | Atom::Slide(d, _) => ((0, 1), d.clone()),
        Atom::Leap(v, d) | Atom::Ride(v, d, _) => (v.value, d.clone()),
        other => panic!("unexpected atom {other:?}"),
    };
    let mut targets: Vec<(i64, i64)> = if matches!(rule.atom.value, Atom::Step(_) | Atom::Slide(..))
    {
        images(0, 1).into_iter().chain(images(1, 1)).collect()
    } else {
        images(vector.0, vector.1)
    };
    let set = DirectionSet::of(directions.iter().map(|d| d.value));
    targets.retain(|&v| set.selects(v));
    targets.sort();
    let mode = format!("{:?}", rule.mode.as_ref().map(|m| m.value));
    (targets, mode, rule.modifiers.len())
}

fn meanings(text: &str) -> Vec<Meaning> {
    let file = parsed(text);
    let mut all: Vec<_> = move_rules(file.pieces().next().expect("one piece"))
        .into_iter()
        .map(meaning)
        .collect();
    all.sort();
    all
}

fn one_piece(body: &str) -> String {
    format!("game \"g\"\nboard 8 x 8\npiece X X {{ {body} }}\n")
}

#[test]
fn betza_means_what_the_written_rules_mean() {
    let pairs = [
        (
            "betza \"fmWfcF\"",
            "move step forward  capture step diagonal-forward",
        ),
        ("betza \"N\"", "leap (1,2)"),
        ("betza \"ffN\"", "leap (1,2) ahead narrow"),
        ("betza \"fsN\"", "leap (1,2) ahead wide"),
        ("betza \"K\"", "leap (0,1)  leap (1,1)"),
        ("betza \"fK\"", "leap (0,1) ahead  leap (1,1) ahead"),
        ("betza \"sW\"", "leap (0,1) sideways"),
        ("betza \"ifmnD\"", "move leap (0,2) forward lame first"),
    ];
    for (betza, written) in pairs {
        assert_eq!(
            meanings(&one_piece(betza)),
            meanings(&one_piece(written)),
            "{betza}"
        );
    }
}

#[test]
fn betza_riders_become_rides() {
    let file = parsed(&one_piece("betza \"R4NN\""));
    let rules = move_rules(file.pieces().next().expect("X"));
    assert!(
        matches!(&rules[0].atom.value, Atom::Ride(v, _, Some(n)) if v.value == (0, 1) && n.value == 4)
    );
    assert!(matches!(&rules[1].atom.value, Atom::Ride(v, _, None) if v.value == (1, 2)));
}

#[test]
fn names_may_start_with_keywords() {
    let text = "game \"g\"\nboard 8 x 8\nzone rankings = rank 1\npiece Mover M { step all }\n";
    let file = parsed(text);
    assert_eq!(file.zones().next().expect("zone").name.value, "rankings");
    assert_eq!(file.pieces().next().expect("piece").name.value, "Mover");
}

#[test]
fn every_broken_item_is_reported() {
    let text = "game \"g\"\nboard 8 x\npiece A A { step all }\npiece B B { stp all }\nplayer W forward up\n";
    let problems = parse(text).expect_err("three broken items");
    let lines: Vec<usize> = problems
        .iter()
        .map(|p| text[..p.span.start].matches('\n').count() + 1)
        .collect();
    assert_eq!(lines, [2, 4, 5]);
}

#[test]
fn half_planes_collect_coefficients() {
    let file = parsed("game \"g\"\nboard 11 x 11\nzone z = y - x >= 6\n");
    let zone = file.zones().next().expect("zone");
    let ZoneDefinition::Shared(expr) = &zone.definition else {
        panic!("shared")
    };
    let ZoneKind::HalfPlane(lhs, Comparison::GreaterEqual, rhs) = &expr.value else {
        panic!("half-plane, got {:?}", expr.value)
    };
    assert_eq!((lhs.x, lhs.y, lhs.constant), (-1, 1, 0));
    assert_eq!(rhs.constant, 6);
}

/// `and`, `or` and `not` read the same in every place a zone is written (a definition, a move
/// rule's `from` and `to`, a trigger, a goal, a drop): `not` binds first, then `and`, then
/// `or`; mixing `and` and `or` without brackets is allowed, with a warning to add them.
#[test]
fn zone_expressions_parse_the_same_everywhere() {
    let text = "game \"g\"\nboard 8 x 8\nplayer White forward north\nplayer Black forward south
zone home = rank 1 or rank 2 and not file a
piece Pawn P {
  move step forward from rank 1 or rank 2 and not file a
  capture step diagonal-forward to rank 1 or rank 2 and not file a
  drop not in rank 1 or rank 2 and not file a
}
on enter rank 1 or rank 2 and not file a by Pawn { remove enemy Pawn }
win when Pawn reaches rank 1 or rank 2 and not file a
";
    let parsed = fairy::syntax::parse_recovering(text);
    assert!(
        parsed.problems.iter().all(|p| !p.is_error()),
        "{:#?}",
        parsed.problems
    );
    let warnings = (parsed.problems.iter())
        .filter(|p| p.code == fairy::diagnostic::Code::MixedZoneOperators)
        .count();
    assert_eq!(warnings, 6, "one per place: {:#?}", parsed.problems);
    // Each place holds the same tree: rank 1 or (rank 2 and (not file a)).
    let tree = format!("{:?}", parsed.file);
    let shape = |text: &str| {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("Or([") {
            out.push_str("Or");
            rest = &rest[at + 4..];
            let and = rest.find("And([").expect("an And inside");
            let not = rest.find("Not(").expect("a Not inside");
            assert!(and < not, "and binds before or, not before and");
        }
        out
    };
    assert_eq!(shape(&tree), "Or".repeat(6), "{tree}");
    let bracketed = text.replace(
        "rank 1 or rank 2 and not file a",
        "rank 1 or (rank 2 and not file a)",
    );
    let parsed = fairy::syntax::parse_recovering(&bracketed);
    assert!(parsed.problems.is_empty(), "{:#?}", parsed.problems);
}

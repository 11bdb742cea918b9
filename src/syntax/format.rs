//! The canonical layout of a rule file, as `fairy fmt` and editors write it.
//!
//! Like gofmt, the layout keeps the author's line breaks and decides the rest: each line is
//! indented two spaces per bracket open around it, the words of a line are one space apart
//! (none inside `( )`, before `,` and `:` or around `..`), runs of blank lines become one, and
//! trailing comments on neighbouring lines line up two spaces after the longest of their
//! lines. A comment that continues the one above it, written in its column, stays in it.
//! Comments and strings are kept as written. Only the spaces between words change, so the
//! formatted file means what the original did; a file that does not parse is left alone.

use super::tokens::{Kind, Token, tokens};
use super::{Rule, RulesParser, parse};
use crate::diagnostic::Problem;
use pest::Parser;
use std::collections::HashSet;

/// Formats a rule file; refuses one with syntax errors, whose structure is not known.
pub fn format(source: &str) -> Result<String, Vec<Problem>> {
    // Line ends become `\n` everywhere, block comments included; no string holds one.
    let source = source.replace("\r\n", "\n");
    parse(&source)?;
    Ok(layout(&lines(&source), &Starts::of(&source)))
}

/// The width of one level of indentation.
const INDENT: usize = 2;

/// One line of the source: its tokens but a trailing `//` comment, that comment, and the
/// column it was written in (to tell a comment continuing the one above).
#[derive(Default)]
struct Line<'a> {
    tokens: Vec<Token<'a>>,
    comment: Option<(&'a str, usize)>,
}

/// The source cut into lines of tokens. A block comment spanning lines stays one token, on the
/// line where it starts.
fn lines(source: &str) -> Vec<Line<'_>> {
    let mut lines = vec![Line::default()];
    let mut line_start = 0;
    let mut scanned = 0;
    for token in tokens(source) {
        for (i, _) in source[scanned..token.at].match_indices('\n') {
            lines.push(Line::default());
            line_start = scanned + i + 1;
        }
        scanned = token.at + token.text.len();
        // A block comment over several lines ends on a line of its own making.
        let ends_line_at = token.text.rfind('\n').map(|i| token.at + i + 1);
        let line = lines.last_mut().expect("a line");
        match token.kind {
            Kind::LineComment => {
                let column = source[line_start..token.at].chars().count();
                line.comment = Some((token.text.trim_end(), column));
            }
            _ => line.tokens.push(token),
        }
        line_start = ends_line_at.unwrap_or(line_start);
    }
    lines
}

/// Whether a space goes between two neighbouring tokens of a line.
fn spaced(before: Token<'_>, after: Token<'_>) -> bool {
    let round_open = before.kind == Kind::Open && before.text == "(";
    let round_close = after.kind == Kind::Close && after.text == ")";
    let empty_pair = before.kind == Kind::Open && after.kind == Kind::Close;
    !(round_open
        || round_close
        || empty_pair
        || matches!(after.kind, Kind::Comma | Kind::Colon | Kind::Range)
        || matches!(before.kind, Kind::Comma | Kind::Range))
}

/// The code of a line, without indentation or comment. Two spaces set apart statements that
/// share a line (`{ slide orthogonal  leap (1,2) }`, `Rook a1 h1  Knight b1 g1`).
fn code(tokens: &[Token<'_>], starts: &Starts) -> String {
    let mut text = String::new();
    for (i, token) in tokens.iter().enumerate() {
        if let Some(&before) = i.checked_sub(1).and_then(|j| tokens.get(j)) {
            let apart = starts.side_by_side.contains(&token.at)
                && !matches!(before.kind, Kind::Open | Kind::Colon | Kind::BlockComment);
            match (apart, spaced(before, *token)) {
                (true, _) => text.push_str("  "),
                (false, true) => text.push(' '),
                (false, false) => {}
            }
        }
        text.push_str(token.text);
    }
    text
}

/// Where the statements of a file start, from its parse: a line that starts elsewhere in a
/// statement continues the line above and is indented one level more.
struct Starts {
    /// Items, clauses and the other parts of a block written one per line.
    statements: HashSet<usize>,
    /// The statements that follow one another with nothing between (not the plans of a turn,
    /// which `or` joins).
    side_by_side: HashSet<usize>,
}

impl Starts {
    fn of(source: &str) -> Starts {
        let mut starts = Starts {
            statements: HashSet::new(),
            side_by_side: HashSet::new(),
        };
        let Ok(pairs) = RulesParser::parse(Rule::file, source) else {
            return starts;
        };
        for pair in pairs.flatten() {
            let at = pair.as_span().start();
            if juxtaposed(pair.as_rule()) {
                starts.side_by_side.insert(at);
                starts.statements.insert(at);
            } else if matches!(pair.as_rule(), Rule::turn_plan | Rule::shape_row) {
                starts.statements.insert(at);
            }
        }
        starts
    }
}

/// The rules whose matches follow one another in a block with nothing between.
fn juxtaposed(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        game | board
            | player
            | zone
            | piece
            | capture_rule
            | forbid_rule
            | counter
            | turn
            | phase
            | trigger
            | draw_odds
            | end_rule
            | setup
            | test
            | royal
            | promote
            | drop_rule
            | grant
            | castle
            | convert
            | standoff_rule
            | move_rule
            | zone_case
            | counter_rule
            | placement
            | hand_entry
            | castling_homes
            | shot_case
            | perft_expectation
            | moves_expectation
    )
}

/// A line laid out but for its trailing comment's column.
struct Laid<'a> {
    /// Indentation and code.
    code: String,
    comment: Option<&'a str>,
    /// Whether the line is only a comment written in the column of the comment above, which it
    /// continues.
    continues: bool,
    /// Whether the line ends by opening a block (`{` or `[`) with no comment after.
    opens_block: bool,
}

fn layout(lines: &[Line<'_>], starts: &Starts) -> String {
    let mut laid: Vec<Laid<'_>> = Vec::new();
    let mut blank_pending = false;
    let mut previous_comment_column = None;
    // Whether the innermost bracket open is a brace, whose lines are statements; inside round
    // and square brackets, lines are parts of one list.
    let mut braces: Vec<bool> = Vec::new();
    for line in lines {
        let leading_closes = line
            .tokens
            .iter()
            .take_while(|t| t.kind == Kind::Close)
            .count();
        let continues_statement = line.tokens.first().is_some_and(|first| {
            !matches!(first.kind, Kind::Close | Kind::BlockComment)
                && !starts.statements.contains(&first.at)
                && braces.last().is_none_or(|&brace| brace)
        });
        let indent = (braces.len().saturating_sub(leading_closes)
            + usize::from(continues_statement))
            * INDENT;
        for token in &line.tokens {
            match token.kind {
                Kind::Open => braces.push(token.text == "{"),
                Kind::Close => {
                    braces.pop();
                }
                _ => {}
            }
        }
        if line.tokens.is_empty() && line.comment.is_none() {
            blank_pending = !laid.is_empty();
            previous_comment_column = None;
            continue;
        }
        let closes_block = leading_closes > 0;
        if std::mem::take(&mut blank_pending) && !closes_block && !opens_block(laid.last()) {
            laid.push(Laid {
                code: String::new(),
                comment: None,
                continues: false,
                opens_block: false,
            });
        }
        let comment_column = line.comment.map(|(_, column)| column);
        let continues = line.tokens.is_empty()
            && comment_column.is_some()
            && comment_column == previous_comment_column
            && laid.last().is_some_and(|l| l.comment.is_some());
        let indent = " ".repeat(indent);
        let (code, comment) = match (line.tokens.is_empty(), line.comment) {
            (true, Some((text, _))) if !continues => (format!("{indent}{text}"), None),
            (true, _) => (String::new(), line.comment.map(|(text, _)| text)),
            (false, _) => (
                format!("{indent}{}", code(&line.tokens, starts)),
                line.comment.map(|(text, _)| text),
            ),
        };
        let opens_block = comment.is_none()
            && (line.tokens.last()).is_some_and(|t| t.kind == Kind::Open && t.text != "(");
        laid.push(Laid {
            code,
            comment,
            continues,
            opens_block,
        });
        previous_comment_column = comment_column;
    }
    write_aligned(&laid)
}

/// Whether a line ends by opening a block, after which a blank line is dropped.
fn opens_block(line: Option<&Laid<'_>>) -> bool {
    line.is_some_and(|l| l.opens_block)
}

/// Writes the lines, lining up the trailing comments of each run of neighbouring lines that
/// have code and a comment (with the comment lines that continue them).
fn write_aligned(laid: &[Laid<'_>]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < laid.len() {
        let trailing = |l: &Laid<'_>| l.comment.is_some() && (!l.code.is_empty() || l.continues);
        if !trailing(&laid[i]) || laid[i].continues {
            write_line(&mut out, &laid[i].code, laid[i].comment, 0);
            i += 1;
            continue;
        }
        let run_end = (i + 1..laid.len())
            .find(|&j| !trailing(&laid[j]))
            .unwrap_or(laid.len());
        let column = laid[i..run_end]
            .iter()
            .map(|l| width(&l.code))
            .max()
            .unwrap_or(0)
            + INDENT;
        for line in &laid[i..run_end] {
            write_line(&mut out, &line.code, line.comment, column);
        }
        i = run_end;
    }
    out
}

/// The width of the last line of some code, which a block comment may have made several.
fn width(code: &str) -> usize {
    code.rsplit('\n').next().unwrap_or_default().chars().count()
}

fn write_line(out: &mut String, code: &str, comment: Option<&str>, column: usize) {
    out.push_str(code);
    if let Some(comment) = comment {
        let width = width(code);
        match width {
            0 if column == 0 => {}
            _ => out.push_str(&" ".repeat(column.saturating_sub(width).max(1))),
        }
        out.push_str(comment);
    }
    out.push('\n');
}

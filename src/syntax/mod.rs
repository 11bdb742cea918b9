//! Syntax: rule-file text → typed syntax tree (`ast`), with located syntax errors.
//!
//! A whole file is parsed in one go. When that fails, the file is cut at the lines where
//! top-level items start and each piece is parsed alone, so every broken item is reported,
//! not only the first.

pub mod ast;
mod betza;
mod build;
pub mod expect;
pub mod format;
pub mod tokens;

use crate::diagnostic::{Code, Problem, Span, closest};
use crate::limits::{MAX_NESTING, MAX_PROBLEMS};
use ast::RuleFile;
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/rules.pest"]
struct RulesParser;

/// Parses a rule file. On failure, returns every syntax problem found.
pub fn parse(source: &str) -> Result<RuleFile, Vec<Problem>> {
    let parsed = parse_recovering(source);
    match !parsed.problems.iter().any(Problem::is_error) {
        true => Ok(parsed.file),
        false => Err(parsed.problems),
    }
}

/// A rule file parsed as far as it could be: the items that parsed, every syntax problem, and
/// what was lost with the items that did not parse at all.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub file: RuleFile,
    pub problems: Vec<Problem>,
    /// Each item left out: its keyword and the name it declares (`piece`, `Knight`).
    pub lost: Vec<(String, Option<String>)>,
    /// Whether the text could be read at all (it could not if it is not plain rule text, or
    /// nests too deep).
    pub readable: bool,
}

/// Parses a rule file, recovering from syntax errors: the file is cut where top-level items
/// start and each piece is parsed alone; within a piece, the line of an error is blanked and
/// the piece parsed again, so the rest of the item is kept and later errors in it are found.
/// An item that still does not parse is left out, and its name recorded.
pub fn parse_recovering(source: &str) -> Parsed {
    let problems = lexical_problems(source);
    if !problems.is_empty() {
        return Parsed {
            file: RuleFile { items: Vec::new() },
            problems,
            lost: Vec::new(),
            readable: false,
        };
    }
    if let Ok((file, problems)) = parse_from(source, 0, true) {
        return Parsed {
            file,
            problems,
            lost: Vec::new(),
            readable: true,
        };
    }
    let mut parsed = Parsed {
        file: RuleFile { items: Vec::new() },
        problems: Vec::new(),
        lost: Vec::new(),
        readable: true,
    };
    for (start, end) in item_chunks(source) {
        parse_chunk(source, start, end, &mut parsed);
    }
    parsed
}

/// Tries this many repairs of one item before leaving it out.
const MAX_REPAIRS: usize = 8;

/// Parses the item in `source[start..end]` into `parsed`, blanking the line of each error.
fn parse_chunk(source: &str, start: usize, end: usize, parsed: &mut Parsed) {
    let at_file_end = end == source.len();
    let mut text = source[start..end].to_string();
    let mut last_error = None;
    for _ in 0..MAX_REPAIRS {
        match parse_from(&text, start, at_file_end) {
            Ok((file, built)) if !file.items.is_empty() => {
                parsed.problems.extend(built);
                parsed.file.items.extend(file.items);
                return;
            }
            // The repairs blanked the whole item.
            Ok(_) => break,
            Err(problem) => {
                let at = problem.span.start - start;
                let line = text[..at].matches('\n').count();
                // An error no further down than the last one is its echo, not a new mistake.
                if last_error.is_some_and(|last| line <= last) {
                    break;
                }
                last_error = Some(line);
                parsed.problems.push(problem);
                // Past what a report shows, a repair finds nothing anyone will read.
                if parsed.problems.len() > MAX_PROBLEMS {
                    break;
                }
                blank_line(&mut text, at);
            }
        }
    }
    let mut words = source[start..end].split_whitespace();
    let keyword = words.next().unwrap_or_default().to_string();
    let name = words.next().map(|w| w.trim_end_matches('{').to_string());
    parsed.lost.push((keyword, name));
}

/// Replaces the line holding byte `at` with spaces but for its brackets, which stay to keep
/// the item's nesting; every byte keeps its place, so later spans stay true.
fn blank_line(text: &mut String, at: usize) {
    let from = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let to = text[at..].find('\n').map_or(text.len(), |i| at + i);
    // In order of position, as the scanner finds them.
    let mut brackets = Vec::new();
    let mut scan = Scanner::new(text);
    while let Some((position, token)) = scan.next_token() {
        if (from..to).contains(&position) && matches!(token, Token::Open | Token::Close) {
            brackets.push(position);
        }
    }
    let blanked: String = text[from..to]
        .char_indices()
        .map(|(i, c)| match brackets.binary_search(&(from + i)).is_ok() {
            true => c.to_string(),
            false => " ".repeat(c.len_utf8()),
        })
        .collect();
    text.replace_range(from..to, &blanked);
}

/// Parses `text`, which starts at byte `base` of the file and may run to its end.
fn parse_from(
    text: &str,
    base: usize,
    at_file_end: bool,
) -> Result<(RuleFile, Vec<Problem>), Problem> {
    let mut pairs = RulesParser::parse(Rule::file, text)
        .map_err(|e| syntax_problem(e, text, base, at_file_end))?;
    let mut builder = build::Builder::new(base);
    let file = builder.file(pairs.next().expect("a file"));
    Ok((file, builder.problems))
}

fn syntax_problem(
    error: pest::error::Error<Rule>,
    text: &str,
    base: usize,
    at_file_end: bool,
) -> Problem {
    let mut start = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let (mut positives, custom) = match error.variant {
        ErrorVariant::ParsingError { positives, .. } => (positives, None),
        ErrorVariant::CustomError { message } => (Vec::new(), Some(message)),
    };
    let mut condition_help = None;
    let after_piece = !positives.is_empty()
        && positives.iter().all(|r| {
            matches!(
                r,
                Rule::kw_immobilized | Rule::kw_reaches | Rule::kw_extinct
            )
        });
    if after_piece
        && meant_word(found_at(&text[start..]), &positives).is_none()
        && ends_line(text, start)
    {
        // Any unknown word after `when` reads as a piece name waiting for `immobilized`, but
        // alone on its line it is far more often a misspelt end condition: blame the word, and
        // list the conditions.
        let end = content_len(&text[..start]);
        start = text[..end]
            .char_indices()
            .rev()
            .find(|&(_, c)| !is_word_char(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        positives = vec![Rule::end_condition];
    } else if after_piece {
        // `win when King enters hill`: the piece name may be right; what follows it is not.
        condition_help = Some(format!(
            "a piece name in an end condition is followed by `extinct`, `immobilized` or `reaches ZONE`; the end conditions are {}",
            describe_rule(Rule::end_condition)
                .trim_start_matches("an end condition (")
                .trim_end_matches(')')
        ));
    }
    let found = found_at(&text[start..]);
    let mut after = "";
    if found.is_empty() {
        // Point at the last thing written, not at the next item or past the file's end.
        let end = content_len(&text[..start]);
        start = text[..end].char_indices().next_back().map_or(0, |(i, _)| i);
        after = " after this";
    }
    let width = if found.is_empty() {
        text[start..].chars().next().map_or(0, char::len_utf8)
    } else {
        found.len()
    };
    let span = Span::new(base + start, base + start + width);
    let expected = custom.unwrap_or_else(|| expected_list(&positives));
    let message = if found.is_empty() && at_file_end {
        "unexpected end of file".to_string()
    } else if found.is_empty() {
        "unfinished item".to_string()
    } else {
        format!("unexpected `{}`", shortened(found).escape_debug())
    };
    let problem = Problem::error(
        Code::SyntaxError,
        message,
        span,
        format!("expected {expected}{after}"),
    );
    let keyword = RulesParser::parse(Rule::reserved, &text[start..])
        .ok()
        .filter(|_| positives.contains(&Rule::name))
        .map(|word| {
            let word = word.as_str();
            format!(
                "`{word}` is a keyword, so it cannot be a name: choose another, such as `{word}-1`"
            )
        });
    let problem = match mending_bracket(&positives).filter(|_| found.is_empty()) {
        Some(bracket) => problem.with_fix(Span::new(span.end, span.end), bracket),
        None => problem,
    };
    if let Some(word) = keyword
        .is_none()
        .then(|| meant_word(found, &positives))
        .flatten()
    {
        return problem
            .with_help(format!("did you mean `{word}`?"))
            .with_replacement(word);
    }
    match keyword.or(condition_help) {
        Some(help) => problem.with_help(help),
        None => problem,
    }
}

/// Whether nothing but blanks and comments stands between the last word before `at` and the
/// end of its line, so that the error at `at` is on a later line.
fn ends_line(text: &str, at: usize) -> bool {
    at >= text.len() || text[content_len(&text[..at])..at].contains('\n')
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_' || c == '+'
}

/// A word as quoted in a message: at most 40 characters of it.
fn shortened(word: &str) -> String {
    match word.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &word[..cut]),
        None => word.to_string(),
    }
}

/// The word, or else the single character, at the start of `rest`.
fn found_at(rest: &str) -> &str {
    let word = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
    match word {
        0 => rest.chars().next().map_or("", |c| &rest[..c.len_utf8()]),
        n => &rest[..n],
    }
}

/// The keyword or direction (`checkmated`) that the word found looks like a misspelling of,
/// where one could stand here, or whose hyphenated parts it has the wrong way round
/// (`forward-diagonal` for `diagonal-forward`).
fn meant_word(found: &str, expected: &[Rule]) -> Option<&'static str> {
    if !found.starts_with(|c: char| c.is_alphabetic()) {
        return None;
    }
    // Two-letter keywords are one typo away from too many words to be worth suggesting.
    let mut words: Vec<&str> = expected
        .iter()
        .flat_map(|rule| describe_rule(*rule).split('`').skip(1).step_by(2))
        .flat_map(str::split_whitespace)
        .filter(|word| word.len() > 2 && *word != found)
        .filter(|word| word.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect();
    if expected
        .iter()
        .any(|r| matches!(r, Rule::direction | Rule::directions))
    {
        words.extend(build::DIRECTION_WORDS.iter().map(|(w, _)| *w));
    }
    let swapped = found.split_once('-').map(|(a, b)| format!("{b}-{a}"));
    let word = words
        .iter()
        .find(|w| Some(**w) == swapped.as_deref())
        .copied()
        .or_else(|| closest(found, words.iter().copied()))?;
    Some(word)
}

/// The closing bracket to insert where an item ends unfinished and the grammar allows a closing
/// bracket of one kind there (others may still be missing further out).
fn mending_bracket(expected: &[Rule]) -> Option<&'static str> {
    let closing: Vec<&str> = expected
        .iter()
        .filter_map(|rule| match rule {
            Rule::p_close_brace => Some("\n}"),
            Rule::p_close_paren => Some(")"),
            Rule::p_close_bracket => Some(" ]"),
            _ => None,
        })
        .collect();
    match closing.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// "a or b", "a, b or c", with repeats removed and the list kept short. Descriptions offer
/// their own choices as "`a`/`b`", so that only the list itself says "or".
fn expected_list(rules: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    // Punctuation first: a missing bracket is the likeliest mistake and the easiest to miss.
    let (punctuation, others): (Vec<Rule>, Vec<Rule>) = rules
        .iter()
        .partition(|r| format!("{r:?}").starts_with("p_"));
    for rule in punctuation.iter().chain(&others) {
        let word = describe_rule(*rule);
        if !words.contains(&word) {
            words.push(word);
        }
    }
    const MOST: usize = 8;
    let more = words.len() > MOST;
    words.truncate(MOST);
    match words.as_slice() {
        [] => "something else here".to_string(),
        [one] => one.to_string(),
        [init @ .., last] if !more => format!("{} or {last}", init.join(", ")),
        all => format!("{}, …", all.join(", ")),
    }
}

/// Whether a word is one of the language's keywords, which no name may be.
pub fn is_keyword(word: &str) -> bool {
    RulesParser::parse(Rule::reserved, word).is_ok_and(|mut pairs| {
        pairs
            .next()
            .is_some_and(|pair| pair.as_str().len() == word.len())
    })
}

/// Whether a grammar rule is a keyword (`kw_*`) or punctuation (`p_*`), which carry no content.
pub(crate) fn is_token(rule: Rule) -> bool {
    let name = format!("{rule:?}");
    name.starts_with("kw_") || name.starts_with("p_")
}

/// How a grammar rule reads in an error message. Keywords read as themselves, in backticks.
pub(crate) fn describe_rule(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        EOI => "end of file",
        item | file => "a top-level item (game, board, player, zone, piece, …)",
        name | zone_ref => "a name",
        int | range => "a number",
        string | text => "a quoted string",
        square | square_item => "a square such as `e4`",
        letter => "a piece letter such as `N`",
        direction | directions => "a direction such as `forward`",
        compass => "`north`/`south`/`east`/`west`",
        zone_expr | zone_and | zone_not => "a zone",
        half_plane | linear | term => "an inequality such as `x + y >= 16`",
        coordinate => "`x`/`y`",
        comparison => "a comparison such as `>=`",
        sign => "`+`/`-`",
        move_rule => "a move rule (step, slide, leap, ride, hop, anywhere, betza, like)",
        mode => "`move`/`capture`",
        vector => "a vector such as `(1,2)`",
        shape_row | shape_cell => "`#`/`.`",
        turn_body | turn_plan | turn_step => "a turn action (move, drop, shoot, …)",
        counter_rule | counter_event => "a counter event (move, lost, checked, turn-end)",
        counter_action => "`add`/`set`/`reset`",
        end_condition => {
            "an end condition (`checkmated`/`stalemated`/`no-moves`/`royal-captured`/`exposed`/`extinct`/`PIECE extinct`/`fewer than N PIECE…`/`bare`/`repeated N`/`PIECE immobilized`/`PIECE reaches ZONE`/`COUNTER reaches N`/`passed N`/`full`/`standoff`)"
        }
        outcome => "`win`/`lose`/`draw`",
        p_open_brace => "`{`",
        p_close_brace => "`}`",
        p_open_paren => "`(`",
        p_close_paren => "`)`",
        p_open_bracket => "`[`",
        p_close_bracket => "`]`",
        p_colon => "`:`",
        p_comma => "`,`",
        p_equals => "`=`",
        p_range => "`..`",
        p_times => "`x`",
        promote => "`promote`",
        optional_promotion => "`may`",
        drop_rule => "`drop`",
        grant => "`grant`",
        convert => "`convert`",
        plan_else => "`else`",
        castle => "`castle`",
        royal => "`royal`",
        kw_game => "`game`",
        kw_board => "`board`",
        kw_shape => "`shape`",
        kw_holes => "`holes`",
        kw_player => "`player`",
        kw_forward => "`forward`",
        kw_zone => "`zone`",
        kw_rank => "`rank`",
        kw_ranks => "`ranks`",
        kw_file => "`file`",
        kw_files => "`files`",
        kw_and => "`and`",
        kw_or => "`or`",
        kw_not => "`not`",
        kw_next_to => "`next-to`",
        kw_any => "`any`",
        kw_piece => "`piece`",
        kw_royal => "`royal`",
        kw_move => "`move`",
        kw_moves => "`moves`",
        kw_capture => "`capture`",
        kw_forbid => "`forbid`",
        kw_over => "`over`",
        kw_passed => "`passed`",
        kw_check => "`check`",
        kw_flight => "`flight`",
        kw_unless => "`unless`",
        kw_followed => "`followed`",
        kw_fewer => "`fewer`",
        kw_than => "`than`",
        kw_bare => "`bare`",
        kw_reply => "`reply`",
        kw_step => "`step`",
        kw_slide => "`slide`",
        kw_leap => "`leap`",
        kw_ride => "`ride`",
        kw_hop => "`hop`",
        kw_beyond => "`beyond`",
        kw_anywhere => "`anywhere`",
        kw_betza => "`betza`",
        kw_like => "`like`",
        kw_up_to => "`up-to`",
        kw_from => "`from`",
        kw_reaches => "`reaches`",
        kw_takes => "`takes`",
        kw_lame => "`lame`",
        kw_en_passant => "`en-passant`",
        kw_passable => "`passable`",
        kw_first => "`first`",
        kw_as => "`as`",
        kw_may => "`may`",
        kw_promote => "`promote`",
        kw_to => "`to`",
        kw_in => "`in`",
        kw_via => "`via`",
        kw_drop => "`drop`",
        kw_gate => "`gate`",
        kw_explodes => "`explodes`",
        kw_immune => "`immune`",
        kw_petrifies => "`petrifies`",
        kw_one_per_file => "`one-per-file`",
        kw_promoted => "`promoted`",
        kw_together => "`together`",
        kw_more => "`more`",
        kw_odds => "`odds`",
        kw_pieces => "`pieces`",
        kw_per_file => "`per-file`",
        kw_no_mate => "`no-mate`",
        kw_grant => "`grant`",
        kw_enemy => "`enemy`",
        kw_own => "`own`",
        kw_castle => "`castle`",
        kw_with => "`with`",
        kw_unmoved => "`unmoved`",
        kw_safe => "`safe`",
        kw_to_hand => "`to-hand`",
        kw_as_is => "`as-is`",
        kw_compulsory => "`compulsory`",
        kw_custodian => "`custodian`",
        kw_none => "`none`",
        kw_counter => "`counter`",
        kw_limit => "`limit`",
        kw_lost => "`lost`",
        kw_checked => "`checked`",
        kw_turn_end => "`turn-end`",
        kw_add => "`add`",
        kw_set => "`set`",
        kw_reset => "`reset`",
        kw_turn => "`turn`",
        kw_every => "`every`",
        kw_then => "`then`",
        kw_optional => "`optional`",
        kw_if => "`if`",
        kw_shoot => "`shoot`",
        kw_after => "`after`",
        kw_unblock => "`unblock`",
        kw_remove => "`remove`",
        kw_else => "`else`",
        kw_except => "`except`",
        kw_pie => "`pie`",
        kw_pass => "`pass`",
        kw_phase => "`phase`",
        kw_by => "`by`",
        kw_once => "`once`",
        kw_until => "`until`",
        kw_hand_empty => "`hand-empty`",
        kw_hand => "`hand`",
        kw_lone_anywhere => "`lone-anywhere`",
        kw_peaceful => "`peaceful`",
        kw_unlimited => "`unlimited`",
        kw_convert => "`convert`",
        kw_converting => "`converting`",
        kw_flanked => "`flanked`",
        kw_full => "`full`",
        kw_standoff => "`standoff`",
        kw_castling => "`castling`",
        kw_opposite_colours => "`opposite-colours`",
        kw_on => "`on`",
        kw_enter => "`enter`",
        kw_win => "`win`",
        kw_lose => "`lose`",
        kw_draw => "`draw`",
        kw_when => "`when`",
        kw_plies => "`plies`",
        kw_without => "`without`",
        kw_checkmated => "`checkmated`",
        kw_stalemated => "`stalemated`",
        kw_no_moves => "`no-moves`",
        kw_royal_captured => "`royal-captured`",
        kw_exposed => "`exposed`",
        kw_extinct => "`extinct`",
        kw_repeated => "`repeated`",
        kw_immobilized => "`immobilized`",
        kw_setup => "`setup`",
        kw_test => "`test`",
        kw_position => "`position`",
        kw_perft => "`perft`",
        _ => "more of this item",
    }
}

/// Problems that must be caught before pest sees the text: unclosed comments and strings,
/// and nesting deep enough to threaten the stack.
fn lexical_problems(source: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut depth = 0usize;
    let mut scan = Scanner::new(source);
    while let Some((at, token)) = scan.next_token() {
        match token {
            Token::Open => {
                depth += 1;
                if depth > MAX_NESTING {
                    problems.push(Problem::error(
                        Code::NestingTooDeep,
                        "nesting too deep",
                        Span::new(at, at + 1),
                        format!("more than {MAX_NESTING} open brackets here"),
                    ));
                    break;
                }
            }
            Token::Close => depth = depth.saturating_sub(1),
            Token::UnclosedComment => problems.push(
                Problem::error(
                    Code::UnclosedComment,
                    "unclosed comment",
                    Span::new(at, at + 2),
                    "this `/*` is never closed",
                )
                .with_help("end the comment with `*/`"),
            ),
            Token::UnclosedString => problems.push(Problem::error(
                Code::UnclosedString,
                "unclosed string",
                Span::new(at, at + 1),
                "this `\"` has no closing quote on its line",
            )),
            Token::LineStart => {}
        }
    }
    problems
}

/// The byte ranges of top-level items: each starts on a line whose first word, at column one
/// and outside comments and strings, is a top-level keyword. `capture` and `turn` also start
/// lines inside pieces and phases, so they start an item only outside brackets; the other
/// keywords always do, so that an item missing its `}` does not swallow the rest of the file.
fn item_chunks(source: &str) -> Vec<(usize, usize)> {
    const ALWAYS: [&str; 14] = [
        "game", "board", "player", "zone", "piece", "forbid", "counter", "phase", "on", "win",
        "lose", "draw", "setup", "test",
    ];
    const OUTSIDE_BRACKETS: [&str; 2] = ["capture", "turn"];
    let mut starts = vec![0];
    // Brackets open since the last item start.
    let mut depth = 0usize;
    let mut scan = Scanner::new(source);
    while let Some((at, token)) = scan.next_token() {
        match token {
            Token::Open => depth += 1,
            Token::Close => depth = depth.saturating_sub(1),
            Token::LineStart if at > 0 => {
                let word: String = source[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                let word = word.as_str();
                if ALWAYS.contains(&word) || (depth == 0 && OUTSIDE_BRACKETS.contains(&word)) {
                    starts.push(at);
                    depth = 0;
                }
            }
            _ => {}
        }
    }
    let ends = starts.iter().skip(1).copied().chain([source.len()]);
    starts.iter().copied().zip(ends).collect()
}

/// The length of `text` without trailing whitespace and comments.
fn content_len(text: &str) -> usize {
    let mut scan = Scanner::new(text);
    let mut end = 0;
    while let Some(&byte) = scan.bytes.get(scan.at) {
        scan.at += 1;
        match (byte, scan.bytes.get(scan.at)) {
            (b'/', Some(b'/')) => scan.skip_line(),
            (b'/', Some(b'*')) => {
                scan.skip_block_comment();
            }
            (b'"', _) => {
                scan.skip_string();
                end = scan.at.min(text.len());
            }
            _ if byte.is_ascii_whitespace() => {}
            _ => end = scan.at,
        }
    }
    end
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Open,
    Close,
    LineStart,
    UnclosedComment,
    UnclosedString,
}

/// A minimal lexer that knows comments, strings and line starts, and nothing else.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    line_start: bool,
}

impl<'a> Scanner<'a> {
    fn new(source: &'a str) -> Self {
        Scanner {
            bytes: source.as_bytes(),
            at: 0,
            line_start: true,
        }
    }

    fn next_token(&mut self) -> Option<(usize, Token)> {
        while self.at < self.bytes.len() {
            let at = self.at;
            if std::mem::take(&mut self.line_start) {
                return Some((at, Token::LineStart));
            }
            let rest = &self.bytes[at..];
            self.at += 1;
            match rest[0] {
                b'\n' => self.line_start = true,
                b'(' | b'{' | b'[' => return Some((at, Token::Open)),
                b')' | b'}' | b']' => return Some((at, Token::Close)),
                b'/' if rest.get(1) == Some(&b'/') => self.skip_line(),
                b'/' if rest.get(1) == Some(&b'*') && !self.skip_block_comment() => {
                    return Some((at, Token::UnclosedComment));
                }
                b'"' if !self.skip_string() => return Some((at, Token::UnclosedString)),
                _ => {}
            }
        }
        None
    }

    fn skip_line(&mut self) {
        while self.at < self.bytes.len() && self.bytes[self.at] != b'\n' {
            self.at += 1;
        }
    }

    fn skip_block_comment(&mut self) -> bool {
        self.at += 1;
        while self.at + 1 < self.bytes.len() {
            if &self.bytes[self.at..self.at + 2] == b"*/" {
                self.at += 2;
                return true;
            }
            self.at += 1;
        }
        self.at = self.bytes.len();
        false
    }

    fn skip_string(&mut self) -> bool {
        while self.at < self.bytes.len() {
            match self.bytes[self.at] {
                b'"' => {
                    self.at += 1;
                    return true;
                }
                b'\\' => self.at += 2,
                b'\n' => return false,
                _ => self.at += 1,
            }
        }
        false
    }
}

//! Long lines cut to a window around what a problem points at. A line of more than
//! [`MAX_SHOWN_LINE_CHARS`] characters is drawn as a window that fits the report's width:
//! nobody reads such a line whole, and the renderer cannot draw a label past column 65,535.

use super::{Problem, Span, line_and_column};
use crate::limits::MAX_SHOWN_LINE_CHARS;

const ELLIPSIS: &str = "…";

/// Columns of a report's line taken by other than the source: the line number, the bar, the
/// ellipses.
const GUTTER: usize = 12;

/// The narrowest window, however narrow the report.
const NARROWEST: usize = 40;

/// A problem over a source whose overlong lines are cut.
pub struct Windowed {
    pub text: String,
    /// The problem with its places moved into `text`. When its own line lost its start to the
    /// cut, its label says where it is in the whole line, as the cut text's columns are not the
    /// file's.
    pub problem: Problem,
    pub columns_moved: bool,
}

/// The problem over its source with every overlong line cut to a window that fits a report
/// `width` columns wide; `None` when no line is too long to draw.
pub fn windowed(source: &str, problem: &Problem, width: usize) -> Option<Windowed> {
    if !source.lines().any(is_too_long) {
        return None;
    }
    let anchors: Vec<usize> = problem_spans(problem).map(|span| span.start).collect();
    let room = width
        .saturating_sub(GUTTER)
        .clamp(NARROWEST, MAX_SHOWN_LINE_CHARS);
    let cut = Cut::new(source, &anchors, room);
    let mut moved = problem.clone();
    moved.span = cut.span(problem.span);
    for (span, _) in &mut moved.notes {
        *span = cut.span(*span);
    }
    let columns_moved =
        line_offset(source, problem.span.start) != line_offset(&cut.text, moved.span.start);
    if columns_moved {
        let (line, column) = line_and_column(source, problem.span.start);
        moved.label = format!("{} (line {line}, column {column})", problem.label);
    }
    Some(Windowed {
        text: cut.text,
        problem: moved,
        columns_moved,
    })
}

/// How many bytes into its line an offset is.
fn line_offset(text: &str, at: usize) -> usize {
    at - text[..at].rfind('\n').map_or(0, |newline| newline + 1)
}

fn is_too_long(line: &str) -> bool {
    line.len() > MAX_SHOWN_LINE_CHARS && line.chars().count() > MAX_SHOWN_LINE_CHARS
}

fn problem_spans(problem: &Problem) -> impl Iterator<Item = Span> + '_ {
    std::iter::once(problem.span).chain(problem.notes.iter().map(|(span, _)| *span))
}

/// A run of the source kept whole in the cut text.
struct Kept {
    source_start: usize,
    source_end: usize,
    text_start: usize,
}

struct Cut {
    text: String,
    kept: Vec<Kept>,
    /// The characters a window keeps.
    room: usize,
}

impl Cut {
    fn new(source: &str, anchors: &[usize], room: usize) -> Self {
        let mut cut = Cut {
            text: String::with_capacity(source.len().min(1 << 16)),
            kept: Vec::new(),
            room,
        };
        let mut line_start = 0;
        for line in source.split_inclusive('\n') {
            let content = line.trim_end_matches(['\n', '\r']);
            if is_too_long(content) {
                let anchor = anchors
                    .iter()
                    .copied()
                    .filter(|&at| (line_start..=line_start + content.len()).contains(&at))
                    .min()
                    .map_or(0, |at| at - line_start);
                cut.push_window(content, line_start, anchor);
                cut.keep(&line[content.len()..], line_start + content.len());
            } else {
                cut.keep(line, line_start);
            }
            line_start += line.len();
        }
        cut
    }

    /// Keeps `room` characters of `line` (longer than that) around byte `anchor`, a quarter of
    /// them before it, marking what is left out.
    fn push_window(&mut self, line: &str, line_start: usize, anchor: usize) {
        let chars: Vec<usize> = line.char_indices().map(|(at, _)| at).collect();
        let anchor_char = chars.partition_point(|&at| at < anchor);
        let first = anchor_char
            .saturating_sub(self.room / 4)
            .min(chars.len() - self.room);
        let last = first + self.room;
        let (from, to) = (chars[first], chars.get(last).copied().unwrap_or(line.len()));
        if from > 0 {
            self.text.push_str(ELLIPSIS);
        }
        self.keep(&line[from..to], line_start + from);
        if to < line.len() {
            self.text.push_str(ELLIPSIS);
        }
    }

    fn keep(&mut self, piece: &str, source_start: usize) {
        let text_start = self.text.len();
        self.text.push_str(piece);
        let source_end = source_start + piece.len();
        match self.kept.last_mut() {
            Some(last)
                if last.source_end == source_start
                    && last.text_start + (last.source_end - last.source_start) == text_start =>
            {
                last.source_end = source_end;
            }
            _ => self.kept.push(Kept {
                source_start,
                source_end,
                text_start,
            }),
        }
    }

    /// Where a source offset lands in the cut text: an offset in a left-out part goes to the
    /// nearest end of what was kept before it.
    fn offset(&self, at: usize) -> usize {
        let after = self.kept.partition_point(|run| run.source_start <= at);
        let Some(run) = after.checked_sub(1).map(|i| &self.kept[i]) else {
            return self.kept.first().map_or(0, |run| run.text_start);
        };
        run.text_start + at.min(run.source_end) - run.source_start
    }

    fn span(&self, span: Span) -> Span {
        let start = self.offset(span.start);
        Span::new(start, self.offset(span.end).max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Code;

    /// A report wide enough for the widest window.
    const WIDE: usize = MAX_SHOWN_LINE_CHARS + GUTTER;

    fn problem_at(start: usize, end: usize) -> Problem {
        Problem::error(Code::SyntaxError, "bad", Span::new(start, end), "here")
    }

    #[test]
    fn short_lines_are_left_alone() {
        assert!(windowed("game \"x\"\nzzz\n", &problem_at(9, 12), WIDE).is_none());
    }

    #[test]
    fn a_problem_on_a_short_line_keeps_its_label_when_another_line_is_cut() {
        let source = format!("// {}\nzzz\n", "x".repeat(300));
        let at = source.find("zzz").unwrap();
        let cut = windowed(&source, &problem_at(at, at + 3), WIDE).unwrap();
        assert!(!cut.columns_moved);
        assert_eq!(cut.problem.label, "here");
        assert_eq!(
            &cut.text[cut.problem.span.start..cut.problem.span.end],
            "zzz"
        );
    }

    #[test]
    fn a_long_line_is_cut_around_the_problem_which_keeps_its_text() {
        let source = format!(
            "game \"x\"{}zzz{}\nnext\n",
            " ".repeat(70_000),
            "y".repeat(500)
        );
        let at = source.find("zzz").unwrap();
        let Windowed {
            text,
            problem: moved,
            columns_moved,
        } = windowed(&source, &problem_at(at, at + 3), WIDE).unwrap();
        assert!(columns_moved);
        assert_eq!(&text[moved.span.start..moved.span.end], "zzz");
        assert_eq!(moved.label, "here (line 1, column 70009)");
        let long = text.lines().next().unwrap();
        assert!(long.starts_with(ELLIPSIS) && long.ends_with(ELLIPSIS));
        assert_eq!(
            long.chars().count(),
            MAX_SHOWN_LINE_CHARS + 2,
            "the window and its two marks"
        );
        assert_eq!(
            text.lines().nth(1),
            Some("next"),
            "later lines keep their place"
        );
    }

    #[test]
    fn a_window_fits_the_report() {
        let source = format!("{}\n", "x".repeat(1_000));
        let cut = windowed(&source, &problem_at(500, 501), 100).unwrap();
        let line = cut.text.lines().next().unwrap();
        assert_eq!(line.chars().count(), 100 - GUTTER + 2, "{line}");
    }

    #[test]
    fn a_span_running_past_the_window_ends_with_it() {
        let source = format!("{}\n", "x".repeat(1_000));
        let Windowed {
            text,
            problem: moved,
            ..
        } = windowed(&source, &problem_at(10, 900), WIDE).unwrap();
        assert_eq!(moved.span.start, 10);
        assert_eq!(
            &text[moved.span.end..moved.span.end + ELLIPSIS.len()],
            ELLIPSIS
        );
    }
}

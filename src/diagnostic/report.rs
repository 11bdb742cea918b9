//! The one miette report that carries every problem of a file, rendered for a terminal or as
//! plain text.

use super::{Problem, window};
use miette::{Diagnostic, LabeledSpan, NamedSource, Severity};
use std::fmt;

/// Every problem of one file, rendered as a single report over its source text.
#[derive(Debug)]
pub struct FileReport {
    pub source: NamedSource<String>,
    pub problems: Vec<Problem>,
}

impl FileReport {
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }
}

impl fmt::Display for FileReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.errors();
        let warnings = self.problems.len() - errors;
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        match (errors, warnings) {
            (0, w) => write!(f, "{}: {}", self.source.name(), plural(w, "warning")),
            (e, 0) => write!(f, "{}: {}", self.source.name(), plural(e, "error")),
            (e, w) => write!(
                f,
                "{}: {} and {}",
                self.source.name(),
                plural(e, "error"),
                plural(w, "warning")
            ),
        }
    }
}

impl std::error::Error for FileReport {}

impl Diagnostic for FileReport {
    fn severity(&self) -> Option<Severity> {
        Some(if self.errors() > 0 {
            Severity::Error
        } else {
            Severity::Warning
        })
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(self.problems.iter().map(|p| p as &dyn Diagnostic)))
    }
}

/// Renders a report as plain text: no colour, fixed width, as the tests and pipes see it.
pub fn render_plain(report: &FileReport, width: usize) -> String {
    render(report, width, false)
}

/// Renders a report, in colour or not, wrapped at `width` columns: a line naming the file and
/// counting its problems, then each problem over the source text.
pub fn render(report: &FileReport, width: usize, colour: bool) -> String {
    let theme = if colour {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(width);
    // Over a cut line the renderer's columns would be the cut text's, so its heading names the
    // file alone and the label says the place.
    let cut_handler = handler.clone().without_primary_span_start();
    let render_with = |handler: &miette::GraphicalReportHandler, diagnostic: &dyn Diagnostic| {
        let mut out = String::new();
        handler
            .render_report(&mut out, diagnostic)
            .expect("rendering into a String cannot fail");
        out
    };
    let rendered = |diagnostic: &dyn Diagnostic| render_with(&handler, diagnostic);
    let mut parts = vec![rendered(&Summary(report))];
    parts.extend(report.problems.iter().map(|problem| {
        match window::windowed(report.source.inner(), problem, width) {
            None => rendered(&Located {
                problem,
                source: &report.source,
            }),
            Some(cut) => render_with(
                if cut.columns_moved {
                    &cut_handler
                } else {
                    &handler
                },
                &Located {
                    problem: &cut.problem,
                    source: &NamedSource::new(report.source.name(), cut.text),
                },
            ),
        }
    }));
    parts.join("\n")
}

/// The line that heads a file's report.
#[derive(Debug)]
struct Summary<'a>(&'a FileReport);

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Summary<'_> {}

impl Diagnostic for Summary<'_> {
    fn severity(&self) -> Option<Severity> {
        self.0.severity()
    }
}

/// One problem over the file's source text.
#[derive(Debug)]
struct Located<'a> {
    problem: &'a Problem,
    source: &'a NamedSource<String>,
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.problem.fmt(f)
    }
}

impl std::error::Error for Located<'_> {}

impl Diagnostic for Located<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.problem.code()
    }

    fn severity(&self) -> Option<Severity> {
        self.problem.severity()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.problem.help()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.problem.labels()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }
}

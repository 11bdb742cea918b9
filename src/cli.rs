//! The command line (DESIGN.md §1). Exit codes: 0 success, 1 an invalid rule file, position or
//! move, 2 bad usage.

use crate::check::{self, Verdict};
use crate::diagnostic::FileReport;
use crate::source::{self, LoadError};
use clap::{Parser, Subcommand};
use miette::NamedSource;
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "fairy",
    version,
    about = "Chess variants from declarative rule files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate rule files: one summary line for each valid file, every problem of the others.
    Check {
        /// Rule files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command {
        Command::Check { files } => check_files(&files),
    }
}

fn check_files(paths: &[String]) -> ExitCode {
    let mut all_valid = true;
    for path in paths {
        all_valid &= check_file(path);
    }
    if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Checks one file, printing its summary or its report; returns whether it is valid.
fn check_file(path: &str) -> bool {
    let source = match source::load(path) {
        Ok(source) => source,
        Err(LoadError::Unreadable(message)) => {
            eprintln!("error: {message}");
            return false;
        }
        Err(LoadError::NotText(report)) => {
            eprint!("{}", render(&report));
            return false;
        }
    };
    let Verdict { summary, problems } = check::check_text(&source.text);
    if !problems.is_empty() {
        let report = FileReport {
            source: NamedSource::new(&source.name, source::printable(&source.text)),
            problems,
        };
        eprint!("{}", render(&report));
    }
    match summary {
        Some(summary) => {
            println!("{path}: ok: {summary}");
            true
        }
        None => false,
    }
}

/// Renders a report for standard error: in colour on a terminal, plain otherwise.
fn render(report: &FileReport) -> String {
    if !std::io::stderr().is_terminal() {
        return crate::diagnostic::render_plain(report, 100);
    }
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode())
        .with_width(100);
    let mut out = String::new();
    handler
        .render_report(&mut out, report)
        .expect("rendering into a String cannot fail");
    out
}

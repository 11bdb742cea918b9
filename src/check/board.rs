//! The board: its size, its holes, and whether a written square is on it.

use crate::diagnostic::{Code, Problem};
use crate::limits::MAX_SIDE;
use crate::syntax::ast::{Board, BoardLayout, Square, SquareItem};

/// A square of the board, as the checker found it written: one that exists, neither off the
/// board nor a hole. Only the checker makes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    file: u32,
    rank: u32,
}

impl Cell {
    /// Zero-based, `a` is 0.
    pub fn file(self) -> u32 {
        self.file
    }

    /// Zero-based, rank 1 is 0.
    pub fn rank(self) -> u32 {
        self.rank
    }
}

/// Which squares exist on a `width` × `height` grid; index `rank * width + file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardShape {
    pub width: u32,
    pub height: u32,
    pub exists: Vec<bool>,
}

impl BoardShape {
    pub fn squares(&self) -> usize {
        self.exists.iter().filter(|&&e| e).count()
    }

    /// The square of a grid cell index that exists.
    pub(super) fn cell(&self, index: usize) -> Cell {
        Cell {
            file: index as u32 % self.width,
            rank: index as u32 / self.width,
        }
    }

    fn index(&self, file: u32, rank: u32) -> Option<usize> {
        (file < self.width && rank < self.height).then(|| (rank * self.width + file) as usize)
    }

    fn extent(&self) -> String {
        let last_file = char::from(b'a' + (self.width - 1) as u8);
        format!(
            "the board is {}×{}: files a–{last_file}, ranks 1–{}",
            self.width, self.height, self.height
        )
    }

    /// Checks that a written square exists; returns its index when it does.
    pub fn square(&self, square: &Square, problems: &mut Vec<Problem>) -> Option<usize> {
        let Some(index) = self.index(square.file, square.rank) else {
            problems.push(
                Problem::error(
                    Code::SquareOffBoard,
                    format!("square `{square}` is off the board"),
                    square.span,
                    self.extent(),
                )
                .local(),
            );
            return None;
        };
        if !self.exists[index] {
            problems.push(
                Problem::error(
                    Code::SquareInHole,
                    format!("square `{square}` is a hole in the board"),
                    square.span,
                    "the board leaves this square out",
                )
                .local(),
            );
            return None;
        }
        Some(index)
    }

    /// The squares of `a1` or of a run `a1..a8`; problems for anything off the board.
    pub fn squares_of(&self, item: &SquareItem, problems: &mut Vec<Problem>) -> Vec<usize> {
        let Some(to) = item.to else {
            return self.square(&item.from, problems).into_iter().collect();
        };
        let from = item.from;
        if from.file != to.file && from.rank != to.rank {
            problems.push(
                Problem::error(
                    Code::RunNotStraight,
                    "a run of squares must follow one rank or one file",
                    item.span,
                    format!("`{from}` and `{to}` share neither"),
                )
                .with_help("list the squares one by one instead"),
            );
            return Vec::new();
        }
        let (f0, f1) = (from.file.min(to.file), from.file.max(to.file));
        let (r0, r1) = (from.rank.min(to.rank), from.rank.max(to.rank));
        if self.index(f1, r1).is_none() {
            // Report the end that is off the board, and nothing else.
            let off = if self.index(from.file, from.rank).is_none() {
                from
            } else {
                to
            };
            self.square(&off, problems);
            return Vec::new();
        }
        let mut out = Vec::new();
        for rank in r0..=r1 {
            for file in f0..=f1 {
                let square = Square {
                    file,
                    rank,
                    written_rank: u64::from(rank) + 1,
                    span: item.span,
                };
                out.extend(self.square(&square, problems));
            }
        }
        out
    }
}

/// Checks a `board` item and builds its shape.
pub fn check_board(board: &Board, problems: &mut Vec<Problem>) -> Option<BoardShape> {
    let mut ok = true;
    for side in [&board.width, &board.height] {
        if side.value == 0 || side.value > MAX_SIDE {
            problems.push(
                Problem::error(
                    Code::BoardSize,
                    "board size out of range",
                    side.span,
                    format!("a board side is 1 to {MAX_SIDE} squares"),
                )
                .with_help("files are lettered a–z, so 26 is the most"),
            );
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let (width, height) = (board.width.value, board.height.value);
    let mut shape = BoardShape {
        width,
        height,
        exists: vec![true; (width * height) as usize],
    };
    match &board.layout {
        BoardLayout::Full => {}
        BoardLayout::Holes(items) => {
            for item in items {
                for index in shape.squares_of(item, problems) {
                    shape.exists[index] = false;
                }
            }
        }
        BoardLayout::Shape(rows) => {
            if rows.len() != height as usize {
                problems.push(Problem::error(
                    Code::ShapeHeight,
                    "the shape does not match the board's height",
                    board.span,
                    format!("{} rows drawn for a board {height} ranks tall", rows.len()),
                ));
                return None;
            }
            for (row, drawn) in rows.iter().enumerate() {
                if drawn.value.len() != width as usize {
                    problems.push(Problem::error(
                        Code::ShapeWidth,
                        "a shape row does not match the board's width",
                        drawn.span,
                        format!(
                            "{} cells in a row of a board {width} files wide",
                            drawn.value.len()
                        ),
                    ));
                    ok = false;
                    continue;
                }
                let rank = height as usize - 1 - row;
                for (file, &cell) in drawn.value.iter().enumerate() {
                    shape.exists[rank * width as usize + file] = cell;
                }
            }
        }
    }
    if shape.squares() == 0 {
        problems.push(Problem::error(
            Code::BoardWithoutSquares,
            "the board has no squares",
            board.span,
            "every square is a hole",
        ));
        return None;
    }
    ok.then_some(shape)
}

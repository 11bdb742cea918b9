//! The board as dense square indices, with a step table for every vector the game uses.

use crate::check::{BoardShape, Cell};
use crate::geometry::images;

/// A dense square index; [`NO_SQUARE`] marks "off the board or a hole".
pub type Sq = u16;
pub const NO_SQUARE: Sq = Sq::MAX;

/// Squares numbered densely over the board's existing squares, rank by rank from a1.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub width: u32,
    pub height: u32,
    /// (file, rank), zero-based, of each dense square.
    pub coords: Vec<(u8, u8)>,
    /// The dense square of each grid cell `rank * width + file`, or [`NO_SQUARE`].
    grid: Vec<Sq>,
    /// Absolute vectors `(dx, dy)`; a vector's index selects its row of `steps`.
    pub vectors: Vec<(i32, i32)>,
    /// `steps[v * squares + s]`: the square one step of vector `v` from `s`.
    steps: Vec<Sq>,
    /// The vectors to a square's eight neighbours.
    pub neighbours: Vec<u16>,
    /// Lines the rules walk: a vector and the most steps taken along it ([`UNLIMITED`] for as
    /// far as the board goes). A line's index selects its row of the bitboard tables.
    pub lines: Vec<Line>,
}

/// A range that reaches the edge of any board.
pub const UNLIMITED: u16 = u16::MAX;

/// A vector walked up to `range` steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub vector: u16,
    pub range: u16,
    /// The same vector walked as far as the board goes.
    pub unlimited: u16,
}

impl Geometry {
    pub fn new(shape: &BoardShape) -> Self {
        let mut coords = Vec::new();
        let mut grid = vec![NO_SQUARE; shape.exists.len()];
        for rank in 0..shape.height {
            for file in 0..shape.width {
                let cell = (rank * shape.width + file) as usize;
                if shape.exists[cell] {
                    grid[cell] = coords.len() as Sq;
                    coords.push((file as u8, rank as u8));
                }
            }
        }
        let mut geometry = Geometry {
            width: shape.width,
            height: shape.height,
            coords,
            grid,
            vectors: Vec::new(),
            steps: Vec::new(),
            neighbours: Vec::new(),
            lines: Vec::new(),
        };
        geometry.neighbours = images(0, 1)
            .into_iter()
            .chain(images(1, 1))
            .map(|(x, y)| geometry.vector((x as i32, y as i32)))
            .collect();
        geometry
    }

    pub fn squares(&self) -> usize {
        self.coords.len()
    }

    /// The square at a file and rank, if it exists.
    pub fn at(&self, file: i32, rank: i32) -> Sq {
        if file < 0 || rank < 0 || file >= self.width as i32 || rank >= self.height as i32 {
            return NO_SQUARE;
        }
        self.grid[(rank as u32 * self.width + file as u32) as usize]
    }

    /// The index of an absolute vector, adding its step row on first use.
    pub fn vector(&mut self, v: (i32, i32)) -> u16 {
        if let Some(i) = self.vectors.iter().position(|&w| w == v) {
            return i as u16;
        }
        let row: Vec<Sq> = self
            .coords
            .iter()
            .map(|&(f, r)| self.at(f as i32 + v.0, r as i32 + v.1))
            .collect();
        self.steps.extend(row);
        self.vectors.push(v);
        (self.vectors.len() - 1) as u16
    }

    /// The index of a line, adding it on first use. A range that reaches any edge is
    /// [`UNLIMITED`], so that lines that cover the same squares are one.
    pub fn line(&mut self, vector: u16, range: u16) -> u16 {
        let range = match u32::from(range) >= self.width.max(self.height) {
            true => UNLIMITED,
            false => range,
        };
        let find = |lines: &[Line], range| {
            (lines.iter()).position(|l| l.vector == vector && l.range == range)
        };
        let unlimited = match find(&self.lines, UNLIMITED) {
            Some(i) => i as u16,
            None => {
                self.lines.push(Line {
                    vector,
                    range: UNLIMITED,
                    unlimited: self.lines.len() as u16,
                });
                (self.lines.len() - 1) as u16
            }
        };
        if let Some(i) = find(&self.lines, range) {
            return i as u16;
        }
        self.lines.push(Line {
            vector,
            range,
            unlimited,
        });
        (self.lines.len() - 1) as u16
    }

    /// Whether a step along `vector` always raises the square index: squares are numbered rank
    /// by rank, file by file, so a line either climbs or falls.
    pub fn rising(&self, vector: u16) -> bool {
        let (dx, dy) = self.vectors[vector as usize];
        dy > 0 || (dy == 0 && dx > 0)
    }

    /// The square of a cell of the board the geometry was made from.
    pub fn square(&self, cell: Cell) -> Sq {
        self.grid[(cell.rank() * self.width + cell.file()) as usize]
    }

    #[inline]
    pub fn step(&self, v: u16, from: Sq) -> Sq {
        self.steps[v as usize * self.coords.len() + from as usize]
    }

    pub fn name(&self, sq: Sq) -> String {
        let (file, rank) = self.coords[sq as usize];
        format!("{}{}", char::from(b'a' + file), rank as u32 + 1)
    }

    /// Parses a square name such as `e4` or `j10`.
    pub fn parse(&self, text: &str) -> Option<Sq> {
        let mut chars = text.chars();
        let file = chars.next().filter(char::is_ascii_lowercase)? as i32 - 'a' as i32;
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let rank: i32 = digits.parse().ok()?;
        Some(self.at(file, rank - 1)).filter(|&s| s != NO_SQUARE)
    }
}

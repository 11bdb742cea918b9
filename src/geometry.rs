//! Directions in a player's frame: +y is the player's forward, +x the player's right. The
//! vocabulary every stage shares: the syntax tree names directions and compass points with it,
//! the checker asks whether a direction is meaningful, the compiler which vectors it selects,
//! and the engine turns a player's moves back into their frame.

/// Direction words. The first eight are the sectors of the player's frame; the rest are groups
/// of sectors, the two oblique filters, and `away` (from a granting piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    Backward,
    Left,
    Right,
    ForwardLeft,
    ForwardRight,
    BackwardLeft,
    BackwardRight,
    Sideways,
    Vertical,
    Orthogonal,
    Diagonal,
    DiagonalForward,
    DiagonalBackward,
    Ahead,
    Behind,
    All,
    Narrow,
    Wide,
    Away,
}

/// The compass point a player's pieces move forward to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compass {
    North,
    South,
    East,
    West,
}

/// A vector in the frame of a player facing `forward`, `(right, forward)`, as an absolute
/// board displacement `(dx, dy)`; a player without a forward direction faces north.
pub fn absolute(forward: Option<Compass>, (r, f): (i64, i64)) -> (i32, i32) {
    let (r, f) = (r as i32, f as i32);
    match forward.unwrap_or(Compass::North) {
        Compass::North => (r, f),
        Compass::South => (-r, -f),
        Compass::East => (f, -r),
        Compass::West => (-f, r),
    }
}

/// An absolute board displacement `(dx, dy)` in the frame of a player facing `forward`:
/// `(right, forward)`.
pub fn relative(forward: Option<Compass>, (dx, dy): (i32, i32)) -> (i64, i64) {
    let (r, f) = match forward.unwrap_or(Compass::North) {
        Compass::North => (dx, dy),
        Compass::South => (-dx, -dy),
        Compass::East => (-dy, dx),
        Compass::West => (dy, -dx),
    };
    (i64::from(r), i64::from(f))
}

/// A player's forward direction as an absolute unit vector.
pub fn forward_vector(forward: Option<Compass>) -> (i32, i32) {
    absolute(forward, (0, 1))
}

/// The eight sectors of the plane around a piece, as bits.
pub const FORWARD: u8 = 1;
pub const BACKWARD: u8 = 2;
pub const LEFT: u8 = 4;
pub const RIGHT: u8 = 8;
pub const FORWARD_LEFT: u8 = 16;
pub const FORWARD_RIGHT: u8 = 32;
pub const BACKWARD_LEFT: u8 = 64;
pub const BACKWARD_RIGHT: u8 = 128;
pub const ORTHOGONAL: u8 = FORWARD | BACKWARD | LEFT | RIGHT;
pub const DIAGONAL: u8 = FORWARD_LEFT | FORWARD_RIGHT | BACKWARD_LEFT | BACKWARD_RIGHT;
pub const ALL: u8 = ORTHOGONAL | DIAGONAL;

/// The sector a non-zero vector points into.
pub fn sector(dx: i64, dy: i64) -> u8 {
    match (dx.signum(), dy.signum()) {
        (0, 1) => FORWARD,
        (0, -1) => BACKWARD,
        (-1, 0) => LEFT,
        (1, 0) => RIGHT,
        (-1, 1) => FORWARD_LEFT,
        (1, 1) => FORWARD_RIGHT,
        (-1, -1) => BACKWARD_LEFT,
        (1, -1) => BACKWARD_RIGHT,
        _ => 0,
    }
}

/// The distinct images of `(a, b)` under the board's eight symmetries.
pub fn images(a: i64, b: i64) -> Vec<(i64, i64)> {
    let mut out = Vec::with_capacity(8);
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let v = (x * sx, y * sy);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// What direction words read of a vector `(right, forward)`: its sector, and whether it is an
/// oblique leap steeper than a diagonal (narrow) or flatter (wide). Worked out once, it
/// answers any number of direction sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heading {
    sector: u8,
    narrow: bool,
    wide: bool,
}

impl Heading {
    pub fn of((dx, dy): (i64, i64)) -> Self {
        let oblique = dx.abs() != dy.abs() && dx != 0 && dy != 0;
        Heading {
            sector: sector(dx, dy),
            narrow: oblique && dy.abs() > dx.abs(),
            wide: oblique && dx.abs() > dy.abs(),
        }
    }
}

/// What a list of direction words selects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DirectionSet {
    pub sectors: u8,
    pub narrow: bool,
    pub wide: bool,
    pub away: bool,
}

impl DirectionSet {
    /// An empty word list selects every direction; `away` alone selects only the line from
    /// the lending piece.
    pub fn of(words: impl IntoIterator<Item = Direction>) -> Self {
        let mut set = DirectionSet::default();
        for word in words {
            match word {
                Direction::Narrow => set.narrow = true,
                Direction::Wide => set.wide = true,
                Direction::Away => set.away = true,
                other => set.sectors |= sectors_of(other),
            }
        }
        if set.sectors == 0 && !set.away {
            set.sectors = ALL;
        }
        set
    }

    pub fn selects(self, vector: (i64, i64)) -> bool {
        self.admits(Heading::of(vector))
    }

    /// Whether the set selects a vector of this heading.
    #[inline]
    pub fn admits(self, heading: Heading) -> bool {
        self.sectors & heading.sector != 0
            && (!self.narrow || heading.narrow)
            && (!self.wide || heading.wide)
    }

    /// Whether the set reads differently for players facing different ways, and so needs each
    /// player to have a forward direction.
    pub fn is_relative(self) -> bool {
        self.narrow
            || self.wide
            || (self.sectors != 0 && ![ORTHOGONAL, DIAGONAL, ALL].contains(&self.sectors))
    }
}

/// The sectors a single direction word names (filters and `away` name none).
pub fn sectors_of(word: Direction) -> u8 {
    match word {
        Direction::Forward => FORWARD,
        Direction::Backward => BACKWARD,
        Direction::Left => LEFT,
        Direction::Right => RIGHT,
        Direction::ForwardLeft => FORWARD_LEFT,
        Direction::ForwardRight => FORWARD_RIGHT,
        Direction::BackwardLeft => BACKWARD_LEFT,
        Direction::BackwardRight => BACKWARD_RIGHT,
        Direction::Sideways => LEFT | RIGHT,
        Direction::Vertical => FORWARD | BACKWARD,
        Direction::Orthogonal => ORTHOGONAL,
        Direction::Diagonal => DIAGONAL,
        Direction::DiagonalForward => FORWARD_LEFT | FORWARD_RIGHT,
        Direction::DiagonalBackward => BACKWARD_LEFT | BACKWARD_RIGHT,
        Direction::Ahead => FORWARD | FORWARD_LEFT | FORWARD_RIGHT,
        Direction::Behind => BACKWARD | BACKWARD_LEFT | BACKWARD_RIGHT,
        Direction::All => ALL,
        Direction::Narrow | Direction::Wide | Direction::Away => 0,
    }
}

/// The single-sector word for each sector bit, in bit order.
pub const SECTOR_WORDS: [Direction; 8] = [
    Direction::Forward,
    Direction::Backward,
    Direction::Left,
    Direction::Right,
    Direction::ForwardLeft,
    Direction::ForwardRight,
    Direction::BackwardLeft,
    Direction::BackwardRight,
];

/// Direction word lists that together select exactly `chosen` among the images of a vector:
/// one list, or two when narrow and wide images have to be told apart, or none when nothing is
/// chosen (an empty list would select every direction).
pub fn words_for(chosen: &[(i64, i64)], all: &[(i64, i64)]) -> Vec<Vec<Direction>> {
    if chosen.is_empty() {
        return Vec::new();
    }
    let sectors = |vs: &[(i64, i64)]| vs.iter().fold(0u8, |s, &(x, y)| s | sector(x, y));
    let plain = sectors(chosen);
    let covered: Vec<_> = all
        .iter()
        .filter(|&&(x, y)| plain & sector(x, y) != 0)
        .collect();
    if covered.len() == chosen.len() {
        return vec![sector_words(plain)];
    }
    let narrow: Vec<_> = chosen
        .iter()
        .copied()
        .filter(|&(x, y)| y.abs() > x.abs())
        .collect();
    let wide: Vec<_> = chosen
        .iter()
        .copied()
        .filter(|&(x, y)| x.abs() > y.abs())
        .collect();
    [(narrow, Direction::Narrow), (wide, Direction::Wide)]
        .into_iter()
        .filter(|(part, _)| !part.is_empty())
        .map(|(part, filter)| {
            let mut words = sector_words(sectors(&part));
            words.push(filter);
            words
        })
        .collect()
}

fn sector_words(sectors: u8) -> Vec<Direction> {
    SECTOR_WORDS
        .iter()
        .enumerate()
        .filter(|(bit, _)| sectors & (1 << bit) != 0)
        .map(|(_, &word)| word)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_has_eight_images_and_wazir_four() {
        assert_eq!(images(1, 2).len(), 8);
        assert_eq!(images(0, 1).len(), 4);
        assert_eq!(images(1, 1).len(), 4);
    }

    #[test]
    fn shogi_knight_is_ahead_and_narrow() {
        let set = DirectionSet::of([Direction::Ahead, Direction::Narrow]);
        let chosen: Vec<_> = images(1, 2)
            .into_iter()
            .filter(|&v| set.selects(v))
            .collect();
        assert_eq!(chosen.len(), 2);
        assert!(chosen.iter().all(|&(x, y)| y == 2 && x.abs() == 1));
    }

    #[test]
    fn forward_of_a_knight_selects_nothing() {
        let set = DirectionSet::of([Direction::Forward]);
        assert!(!images(1, 2).into_iter().any(|v| set.selects(v)));
    }

    #[test]
    fn symmetric_sets_need_no_forward() {
        assert!(!DirectionSet::of([Direction::Orthogonal]).is_relative());
        assert!(!DirectionSet::of([]).is_relative());
        assert!(DirectionSet::of([Direction::Sideways]).is_relative());
    }

    #[test]
    fn words_split_mixed_narrow_and_wide() {
        let all = images(1, 2);
        let chosen = [(1, 2), (-2, 1)];
        let words = words_for(&chosen, &all);
        assert_eq!(words.len(), 2);
    }

    #[test]
    fn choosing_nothing_gives_no_word_list() {
        assert!(words_for(&[], &images(1, 1)).is_empty());
    }
}

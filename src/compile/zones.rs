//! Zones as square sets, one per player, for the engine to look up; and their evaluation from
//! the file's zone expressions. Named zones are evaluated once each, in the checker's
//! dependency order, so no chain or fan of references costs more than its size.

use super::geometry::{Geometry, Sq};
use crate::bitboard::{Bitboard, Masks, words_for};
use crate::check::checked::{Checked, Comparison, Linear, ZoneCases, ZoneExpr};
use crate::geometry::Compass;

/// The zones the rules use, each a set of squares per player, stored as bitboards: row
/// `zone * players + player`.
#[derive(Clone, Debug)]
pub struct ZoneSets {
    squares: usize,
    players: usize,
    sets: Masks,
}

impl ZoneSets {
    pub fn new(squares: usize, players: usize) -> ZoneSets {
        ZoneSets {
            squares,
            players,
            sets: Masks::new(words_for(squares), 0),
        }
    }

    /// Adds a zone given as a set per player, one after the other; a zone equal to one already
    /// there is that one. Returns its index.
    pub fn add(&mut self, set: Vec<bool>) -> u16 {
        let mut rows = Masks::new(self.sets.stride(), 0);
        for player in 0..self.players {
            let members = &set[player * self.squares..(player + 1) * self.squares];
            rows.push((0..self.squares as Sq).filter(|&sq| members[sq as usize]));
        }
        let zones = self.sets.rows() / self.players;
        let same = |zone: usize| {
            (0..self.players).all(|p| self.sets.row_eq(zone * self.players + p, &rows, p))
        };
        if let Some(existing) = (0..zones).find(|&zone| same(zone)) {
            return existing as u16;
        }
        self.sets.append(&rows);
        zones as u16
    }

    /// Whether `sq` is in `zone` for `player`.
    #[inline]
    pub fn contains(&self, zone: u16, player: usize, sq: Sq) -> bool {
        self.sets
            .contains(zone as usize * self.players + player, sq)
    }

    /// The squares of `zone` for `player`.
    #[inline]
    pub fn squares<B: Bitboard>(&self, zone: u16, player: usize) -> B {
        self.sets.get(zone as usize * self.players + player)
    }
}

/// The squares of the named zone for each player, by name (`a8`), as a reader of the file wants
/// them; `None` where the file has no such zone. Zones next to pieces depend on the position,
/// and hold no square here.
pub fn zone_squares(checked: &Checked, name: &str) -> Option<Vec<Vec<String>>> {
    let id = checked.zones.iter().position(|zone| zone.name == name)?;
    let geometry = Geometry::new(&checked.board);
    let forward: Vec<Option<Compass>> = checked.players.iter().map(|p| p.forward).collect();
    let zones = ZoneEvaluator::new(checked, &geometry, &forward);
    let members = |set: &Vec<bool>| -> Vec<String> {
        (0..geometry.squares() as Sq)
            .filter(|&sq| set[sq as usize])
            .map(|sq| geometry.name(sq))
            .collect()
    };
    Some(zones.named[id].iter().map(members).collect())
}

/// Every named zone of a file, evaluated for every player, and any zone expression evaluated
/// on demand.
pub struct ZoneEvaluator<'a> {
    geometry: &'a Geometry,
    forward: &'a [Option<Compass>],
    /// `named[zone][player][square]`, by zone id.
    named: Vec<Vec<Vec<bool>>>,
}

impl<'a> ZoneEvaluator<'a> {
    pub fn new(checked: &Checked, geometry: &'a Geometry, forward: &'a [Option<Compass>]) -> Self {
        let mut zones = ZoneEvaluator {
            geometry,
            forward,
            named: vec![Vec::new(); checked.zones.len()],
        };
        for &id in &checked.zone_order {
            let sets = (0..forward.len())
                .map(|player| match &checked.zones[id.0].cases {
                    ZoneCases::Shared(expr) => zones.evaluate(expr, player),
                    ZoneCases::PerPlayer(cases) => zones.evaluate(&cases[player], player),
                })
                .collect();
            zones.named[id.0] = sets;
        }
        zones
    }

    /// The squares of `expr` for `player`.
    pub fn evaluate(&self, expr: &ZoneExpr, player: usize) -> Vec<bool> {
        let squares = self.geometry.squares();
        let each = |test: &dyn Fn(u8, u8) -> bool| -> Vec<bool> {
            self.geometry
                .coords
                .iter()
                .map(|&(f, r)| test(f, r))
                .collect()
        };
        match expr {
            ZoneExpr::Or(parts) => self.combine(parts, player, |a, b| a || b, false),
            ZoneExpr::And(parts) => self.combine(parts, player, |a, b| a && b, true),
            ZoneExpr::Not(inner) => self
                .evaluate(inner, player)
                .into_iter()
                .map(|x| !x)
                .collect(),
            ZoneExpr::Ranks(low, high) => {
                let forward = self.forward[player];
                each(&|f, r| (low..=high).contains(&&relative_rank(forward, self.geometry, f, r)))
            }
            ZoneExpr::Files(low, high) => each(&|f, _| (low..=high).contains(&&u32::from(f))),
            ZoneExpr::Squares(cells) => each(&|f, r| {
                (cells.iter()).any(|c| (c.file(), c.rank()) == (u32::from(f), u32::from(r)))
            }),
            ZoneExpr::HalfPlane(lhs, comparison, rhs) => each(&|f, r| {
                let (x, y) = (i64::from(f) + 1, i64::from(r) + 1);
                let value = |l: &Linear| l.constant + l.x * x + l.y * y;
                compare(value(lhs), *comparison, value(rhs))
            }),
            ZoneExpr::Any => vec![true; squares],
            // A zone is evaluated after every zone it uses: in a valid file, it is there.
            ZoneExpr::Named(id) => self.named[id.0][player].clone(),
            // Zones that follow pieces are for the engine to evaluate against a position.
            ZoneExpr::NextTo(_) => vec![false; squares],
        }
    }

    fn combine(
        &self,
        parts: &[ZoneExpr],
        player: usize,
        op: fn(bool, bool) -> bool,
        start: bool,
    ) -> Vec<bool> {
        let mut out = vec![start; self.geometry.squares()];
        for part in parts {
            for (o, x) in out.iter_mut().zip(self.evaluate(part, player)) {
                *o = op(*o, x);
            }
        }
        out
    }
}

fn compare(a: i64, comparison: Comparison, b: i64) -> bool {
    match comparison {
        Comparison::Less => a < b,
        Comparison::LessEqual => a <= b,
        Comparison::Equal => a == b,
        Comparison::NotEqual => a != b,
        Comparison::GreaterEqual => a >= b,
        Comparison::Greater => a > b,
    }
}

/// The one-based rank of a square counted from the player's own side.
pub fn relative_rank(forward: Option<Compass>, geometry: &Geometry, f: u8, r: u8) -> u32 {
    let (f, r) = (u32::from(f), u32::from(r));
    match forward.unwrap_or(Compass::North) {
        Compass::North => r + 1,
        Compass::South => geometry.height - r,
        Compass::East => f + 1,
        Compass::West => geometry.width - f,
    }
}

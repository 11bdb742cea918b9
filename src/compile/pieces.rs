//! Piece kinds, their move programs per player, and the attack tables derived from them.

use super::geometry::Geometry;
use super::zones;
use super::{Attacks, DropLimits, Gen, Hop, Kind, Lend, Mode, Promotion};
use crate::check::forms::{self, Form, Forms, promotion_clauses};
use crate::geometry::{DirectionSet, absolute, images};
use crate::syntax::ast::{self, Compass, RuleFile};

/// A castle rule as written, for the setup to turn into castling rights.
#[derive(Clone, Debug)]
pub struct CastleRule {
    pub kind: usize,
    pub partner: usize,
    /// Directions in the player's frame.
    pub vectors: Vec<(i64, i64)>,
    pub distance: u32,
    pub safe: bool,
    pub any_colour: bool,
    pub unmoved: bool,
}

pub struct Compiled {
    pub kinds: Vec<Kind>,
    pub programs: Vec<Vec<Gen>>,
    pub attacks: Vec<super::Attacks>,
    pub lends: Vec<Vec<Lend>>,
    pub castle_rules: Vec<CastleRule>,
}

pub struct PieceCompiler<'a> {
    file: &'a RuleFile,
    geometry: &'a mut Geometry,
    forward: &'a [Option<Compass>],
    pieces: Vec<&'a ast::Piece>,
    evaluator: &'a zones::Zones<'a>,
    pub zones: Vec<Vec<bool>>,
    /// Move tags (`as rook`) by first use; a move's tag is its index here plus one.
    tags: Vec<String>,
}

impl<'a> PieceCompiler<'a> {
    pub fn new(
        file: &'a RuleFile,
        geometry: &'a mut Geometry,
        forward: &'a [Option<Compass>],
        evaluator: &'a zones::Zones<'a>,
    ) -> Self {
        PieceCompiler {
            file,
            geometry,
            forward,
            pieces: file.pieces().collect(),
            evaluator,
            zones: Vec::new(),
            tags: Vec::new(),
        }
    }

    fn players(&self) -> usize {
        self.forward.len()
    }

    pub fn compile(&mut self) -> Compiled {
        let to_hand = self
            .file
            .captures()
            .any(|c| c.value == ast::CaptureRule::ToHand);
        let (letters, promotions) = forms::declared(&self.pieces);
        let forms = Forms::new(&letters, &promotions, to_hand);
        let texts = forms.texts(&letters);
        let kinds: Vec<Kind> = (0..forms.list.len())
            .map(|form| self.kind(&forms, form, texts[form].clone()))
            .collect();
        let source_of: Vec<usize> = forms.list.iter().map(|f| f.shape).collect();
        let players = self.players();
        let no_capture = self
            .file
            .captures()
            .any(|c| c.value == ast::CaptureRule::None);
        let mut programs = vec![Vec::new(); 1 + kinds.len() * players];
        for (kind, &source) in source_of.iter().enumerate() {
            for player in 0..players {
                let rules = self.move_rules(source, 0);
                let gens = rules
                    .iter()
                    .flat_map(|r| self.gens(r, player, None))
                    .collect();
                programs[1 + kind * players + player] = moves_only_if(no_capture, gens);
            }
        }
        let attacks = (0..players)
            .map(|player| attacks_of(&programs, kinds.len(), players, player, self.geometry))
            .collect();
        let lends = self.lends(&source_of, no_capture);
        let castle_rules = self.castle_rules();
        Compiled {
            kinds,
            programs,
            attacks,
            lends,
            castle_rules,
        }
    }

    /// The moves each lender code lends, to each neighbour and receiving player.
    fn lends(&mut self, source_of: &[usize], no_capture: bool) -> Vec<Vec<Lend>> {
        let players = self.players();
        let mut lends = vec![Vec::new(); 1 + source_of.len() * players];
        for (kind, &source) in source_of.iter().enumerate() {
            let grants: Vec<&ast::Grant> = self.pieces[source]
                .clauses
                .iter()
                .filter_map(|c| match c {
                    ast::PieceClause::Grant(grant) => Some(grant),
                    _ => None,
                })
                .collect();
            for lender in 0..players {
                for grant in &grants {
                    let enemy = grant.side.value == ast::Side::Enemy;
                    let set = DirectionSet::of(grant.directions.iter().map(|d| d.value));
                    let offsets = images(0, 1)
                        .into_iter()
                        .chain(images(1, 1))
                        .filter(|&v| set.selects(v));
                    for offset in offsets {
                        let away = absolute(self.forward[lender], offset);
                        let moves = (0..players)
                            .map(|receiver| match (receiver != lender) == enemy {
                                true => {
                                    let gens = grant
                                        .rules
                                        .iter()
                                        .flat_map(|r| self.gens(r, receiver, Some(away)))
                                        .collect();
                                    moves_only_if(no_capture, gens)
                                }
                                false => Vec::new(),
                            })
                            .collect();
                        lends[1 + kind * players + lender].push(Lend {
                            enemy,
                            offset: self.geometry.vector(away),
                            moves,
                        });
                    }
                }
            }
        }
        match lends.iter().all(Vec::is_empty) {
            true => Vec::new(),
            false => lends,
        }
    }

    /// The kind of one form: it moves and promotes as its shape and goes to hand as its root.
    fn kind(&mut self, forms: &Forms, form: usize, text: String) -> Kind {
        let Form { shape, root } = forms.list[form];
        let piece = self.pieces[shape];
        let promotions = promotion_clauses(piece)
            .map(|promotion| Promotion {
                targets: self
                    .targets(promotion)
                    .into_iter()
                    .map(|target| forms.promoted(form, target) as u8)
                    .collect(),
                optional: promotion.optional,
                via: promotion.trigger == ast::PromotionTrigger::Via,
                zone: self.zone(&promotion.zone),
            })
            .collect();
        Kind {
            name: piece.name.value.clone(),
            letter: piece.letter.value.clone(),
            royal: piece.is_royal(),
            demotes_to: root as u8,
            promoted: root != shape,
            text,
            promotions,
            drops: self.drop_limits(piece),
        }
    }

    fn targets(&self, promotion: &ast::Promotion) -> Vec<usize> {
        promotion
            .targets
            .iter()
            .map(|target| self.piece_index(&target.value))
            .collect()
    }

    fn piece_index(&self, name: &str) -> usize {
        self.pieces
            .iter()
            .position(|p| p.name.value == name)
            .expect("the checker resolved every piece name")
    }

    /// A piece's own move rules, with `like` expanded.
    fn move_rules(&self, index: usize, depth: usize) -> Vec<&'a ast::MoveRule> {
        let mut out = Vec::new();
        for clause in &self.pieces[index].clauses {
            let ast::PieceClause::Move(rule) = clause else {
                continue;
            };
            match &rule.atom.value {
                // The checker rejects cycles; the depth bound is a second guard.
                ast::Atom::Like(name) if depth < 16 => {
                    out.extend(self.move_rules(self.piece_index(&name.value), depth + 1))
                }
                ast::Atom::Like(_) => {}
                _ => out.push(rule),
            }
        }
        out
    }

    /// Registers a zone, evaluated for every player, and returns its index.
    pub(super) fn zone(&mut self, expr: &ast::ZoneExpr) -> u16 {
        let mut set = Vec::with_capacity(self.players() * self.geometry.squares());
        for player in 0..self.players() {
            set.extend(self.evaluator.evaluate(expr, player));
        }
        if let Some(existing) = self.zones.iter().position(|z| *z == set) {
            return existing as u16;
        }
        self.zones.push(set);
        (self.zones.len() - 1) as u16
    }

    fn drop_limits(&mut self, piece: &ast::Piece) -> DropLimits {
        let mut limits = DropLimits::default();
        for clause in &piece.clauses {
            let ast::PieceClause::Drop(rule) = clause else {
                continue;
            };
            for limit in &rule.limits {
                match &limit.value {
                    ast::DropLimit::Inside(zone) => {
                        let z = self.zone(zone);
                        limits.inside.push(z);
                    }
                    ast::DropLimit::Outside(zone) => {
                        let z = self.zone(zone);
                        limits.outside.push(z);
                    }
                    ast::DropLimit::OnePerFile => limits.one_per_file = true,
                    ast::DropLimit::NoMate => limits.no_mate = true,
                }
            }
        }
        limits
    }

    /// The number of a move tag: 1 for the first tag used, and so on.
    pub(super) fn tag(&mut self, name: &str) -> u16 {
        let index = match self.tags.iter().position(|t| t == name) {
            Some(index) => index,
            None => {
                self.tags.push(name.to_string());
                self.tags.len() - 1
            }
        };
        (index + 1) as u16
    }

    /// The compiled moves of one rule for one player; `away` is the line from a lending piece
    /// to the piece it lends the rule to.
    pub(super) fn gens(
        &mut self,
        rule: &ast::MoveRule,
        player: usize,
        away: Option<(i32, i32)>,
    ) -> Vec<Gen> {
        let forward = self.forward[player];
        let mode = match rule.mode.as_ref().map(|m| m.value) {
            None => Mode::Both,
            Some(ast::Mode::MoveOnly) => Mode::MoveOnly,
            Some(ast::Mode::CaptureOnly) => Mode::CaptureOnly,
        };
        let lines = vec![(0, 1), (1, 1)];
        let mut hop = Hop::No;
        let (bases, directions, range): (Vec<(i64, i64)>, &ast::Directions, u16) =
            match &rule.atom.value {
                ast::Atom::Step(d) => (lines, d, 1),
                ast::Atom::Slide(d, up_to) => (lines, d, range_of(up_to)),
                ast::Atom::Leap(v, d) => (vec![v.value], d, 1),
                ast::Atom::Ride(v, d, up_to) => (vec![v.value], d, range_of(up_to)),
                ast::Atom::Hop(d, beyond) => {
                    hop = if *beyond {
                        Hop::AnywhereBeyond
                    } else {
                        Hop::JustBeyond
                    };
                    (lines, d, u16::MAX)
                }
                ast::Atom::Anywhere => (Vec::new(), &Vec::new(), 1),
                ast::Atom::Like(_) => return Vec::new(),
            };
        let set = DirectionSet::of(directions.iter().map(|d| d.value));
        let mut from_zone = None;
        let (mut lame, mut passable, mut en_passant, mut first) = (false, false, false, false);
        let mut tag = 0;
        for modifier in &rule.modifiers {
            match &modifier.value {
                ast::Modifier::From(zone) => from_zone = Some(self.zone(zone)),
                ast::Modifier::Lame => lame = true,
                ast::Modifier::Passable => passable = true,
                ast::Modifier::EnPassant => en_passant = true,
                ast::Modifier::First => first = true,
                ast::Modifier::Tag(name) => tag = self.tag(&name.value),
            }
        }
        let mut lines: Vec<((i32, i32), Vec<u16>)> = Vec::new();
        for (a, b) in bases {
            for image in images(a, b).into_iter().filter(|&v| set.selects(v)) {
                let path = if lame { lame_path(image) } else { Vec::new() };
                let path = path
                    .into_iter()
                    .map(|p| self.geometry.vector(absolute(forward, p)))
                    .collect();
                lines.push((absolute(forward, image), path));
            }
        }
        if let Some(away) = away.filter(|_| set.away) {
            lines.push((away, Vec::new()));
        }
        let anywhere = rule.atom.value == ast::Atom::Anywhere;
        if anywhere {
            lines.push(((0, 1), Vec::new()));
        }
        let mut out = Vec::new();
        for (vector, path) in lines {
            let vector = self.geometry.vector(vector);
            if !out.iter().any(|g: &Gen| g.vector == vector) {
                out.push(Gen {
                    vector,
                    range,
                    mode,
                    from_zone,
                    path,
                    passable,
                    en_passant,
                    hop,
                    first,
                    tag,
                    anywhere,
                });
            }
        }
        out
    }

    fn castle_rules(&mut self) -> Vec<CastleRule> {
        let mut out = Vec::new();
        for (kind, piece) in self.pieces.clone().into_iter().enumerate() {
            for clause in &piece.clauses {
                let ast::PieceClause::Castle(castle) = clause else {
                    continue;
                };
                let set = DirectionSet::of(castle.directions.iter().map(|d| d.value));
                let vectors = images(0, 1)
                    .into_iter()
                    .filter(|&v| set.selects(v))
                    .collect();
                out.push(CastleRule {
                    kind,
                    partner: self.piece_index(&castle.partner.value),
                    vectors,
                    distance: castle.distance.value,
                    safe: castle
                        .conditions
                        .iter()
                        .any(|c| c.value == ast::CastleCondition::Safe),
                    any_colour: castle.any_colour,
                    unmoved: castle
                        .conditions
                        .iter()
                        .any(|c| c.value == ast::CastleCondition::Unmoved),
                });
            }
        }
        out
    }
}

fn range_of(up_to: &Option<ast::Spanned<u32>>) -> u16 {
    up_to
        .as_ref()
        .map_or(u16::MAX, |n| n.value.min(u32::from(u16::MAX)) as u16)
}

/// The squares a lame leap passes, in the player's frame: one step along the longer axis
/// first, then towards the target.
fn lame_path((x, y): (i64, i64)) -> Vec<(i64, i64)> {
    let n = x.abs().max(y.abs());
    (1..n).map(|k| (k * x / n, k * y / n)).collect()
}

/// Turns every move into a move that only moves, in a game where nothing is captured.
fn moves_only_if(no_capture: bool, mut gens: Vec<Gen>) -> Vec<Gen> {
    if no_capture {
        gens.retain(|g| g.mode.moves());
        gens.iter_mut().for_each(|g| g.mode = Mode::MoveOnly);
    }
    gens
}

/// Groups the capturing moves of `player`'s pieces by line, reversed for the attack test.
fn attacks_of(
    programs: &[Vec<Gen>],
    kinds: usize,
    players: usize,
    player: usize,
    geometry: &mut Geometry,
) -> Attacks {
    let mut attacks = Attacks::default();
    for kind in 0..kinds {
        for rule in programs[1 + kind * players + player]
            .iter()
            .filter(|g| g.mode.captures())
        {
            let (dx, dy) = geometry.vectors[rule.vector as usize];
            let reverse = geometry.vector((-dx, -dy));
            let bit = 1u64 << kind;
            if rule.anywhere {
                attacks.anywhere |= bit;
            } else if rule.hop != Hop::No {
                match attacks
                    .hops
                    .iter_mut()
                    .find(|(v, _, h)| *v == reverse && *h == rule.hop)
                {
                    Some(entry) => entry.1 |= bit,
                    None => attacks.hops.push((reverse, bit, rule.hop)),
                }
            } else if rule.range == 1 {
                match attacks
                    .leaps
                    .iter_mut()
                    .find(|(v, _, p)| *v == reverse && *p == rule.path)
                {
                    Some(entry) => entry.1 |= bit,
                    None => attacks.leaps.push((reverse, bit, rule.path.clone())),
                }
            } else {
                match attacks
                    .slides
                    .iter_mut()
                    .find(|(v, _, r)| *v == reverse && *r == rule.range)
                {
                    Some(entry) => entry.1 |= bit,
                    None => attacks.slides.push((reverse, bit, rule.range)),
                }
            }
        }
    }
    attacks
}

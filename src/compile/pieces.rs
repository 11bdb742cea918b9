//! Piece kinds, their move programs per player, and the attack tables derived from them.

use super::geometry::Geometry;
use super::zones;
use super::{Attacks, DropLimits, Gen, Hop, Kind, Lend, Mode, Promotion};
use crate::check::checked::{self, Checked, MoveMode, PieceId, TagId};
use crate::check::forms::{Form, Forms};
use crate::diagnostic::Span;
use crate::geometry::{Compass, DirectionSet, absolute, images};

/// A castle rule as written, for the setup to turn into castling rights.
#[derive(Clone, Debug)]
pub struct CastleRule {
    /// Where the rule is written.
    pub span: Span,
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
    checked: &'a Checked,
    geometry: &'a mut Geometry,
    forward: &'a [Option<Compass>],
    evaluator: &'a zones::Zones<'a>,
    pub zones: Vec<Vec<bool>>,
}

/// Every kind whose form is one of `pieces`: promoted forms of a piece included.
pub fn kinds_of(forms: &Forms, pieces: &[PieceId]) -> u64 {
    forms
        .list
        .iter()
        .enumerate()
        .filter(|(_, form)| pieces.contains(&PieceId(form.shape)))
        .fold(0, |mask, (kind, _)| mask | 1 << kind)
}

/// A move's tag as turns carry it: 0 for none, else the tag's number plus one.
pub fn tag_number(tag: Option<TagId>) -> u16 {
    tag.map_or(0, |tag| (tag.0 + 1) as u16)
}

impl<'a> PieceCompiler<'a> {
    pub fn new(
        checked: &'a Checked,
        geometry: &'a mut Geometry,
        forward: &'a [Option<Compass>],
        evaluator: &'a zones::Zones<'a>,
    ) -> Self {
        PieceCompiler {
            checked,
            geometry,
            forward,
            evaluator,
            zones: Vec::new(),
        }
    }

    fn players(&self) -> usize {
        self.forward.len()
    }

    pub fn compile(&mut self) -> Compiled {
        let checked = self.checked;
        let letters: Vec<&str> = checked.pieces.iter().map(|p| p.letter.as_str()).collect();
        let forms = &checked.forms;
        let texts = forms.texts(&letters);
        let kinds: Vec<Kind> = (0..forms.list.len())
            .map(|form| self.kind(forms, form, texts[form].clone()))
            .collect();
        let source_of: Vec<usize> = forms.list.iter().map(|f| f.shape).collect();
        let players = self.players();
        let no_capture = checked.captures.none;
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
            let grants = &self.checked.pieces[source].grants;
            for lender in 0..players {
                for grant in grants {
                    let enemy = grant.enemy;
                    let offsets = images(0, 1)
                        .into_iter()
                        .chain(images(1, 1))
                        .filter(|&v| grant.neighbours.selects(v));
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
        let piece = &self.checked.pieces[shape];
        let promotions = piece
            .promotions
            .iter()
            .map(|promotion| Promotion {
                targets: promotion
                    .targets
                    .iter()
                    .map(|target| forms.promoted(form, target.0) as u8)
                    .collect(),
                optional: promotion.optional,
                via: promotion.via,
                zone: self.zone(&promotion.zone),
            })
            .collect();
        Kind {
            name: piece.name.clone(),
            letter: piece.letter.clone(),
            royal: piece.royal,
            demotes_to: root as u8,
            promoted: root != shape,
            text,
            promotions,
            drops: self.drop_limits(&piece.drops),
        }
    }

    /// A piece's own move rules, with `like` expanded.
    fn move_rules(&self, index: usize, depth: usize) -> Vec<&'a checked::MoveRule> {
        let mut out = Vec::new();
        for rule in &self.checked.pieces[index].moves {
            match rule.atom {
                // The checker rejects cycles; the depth bound is a second guard.
                checked::Atom::Like(piece) if depth < 16 => {
                    out.extend(self.move_rules(piece.0, depth + 1))
                }
                checked::Atom::Like(_) => {}
                _ => out.push(rule),
            }
        }
        out
    }

    /// Registers a zone, evaluated for every player, and returns its index.
    pub(super) fn zone(&mut self, expr: &checked::ZoneExpr) -> u16 {
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

    fn drop_limits(&mut self, limits: &checked::DropLimits) -> DropLimits {
        DropLimits {
            inside: limits.inside.iter().map(|zone| self.zone(zone)).collect(),
            outside: limits.outside.iter().map(|zone| self.zone(zone)).collect(),
            one_per_file: limits.one_per_file,
            no_mate: limits.no_mate,
        }
    }

    /// The compiled moves of one rule for one player; `away` is the line from a lending piece
    /// to the piece it lends the rule to.
    pub(super) fn gens(
        &mut self,
        rule: &checked::MoveRule,
        player: usize,
        away: Option<(i32, i32)>,
    ) -> Vec<Gen> {
        let forward = self.forward[player];
        let mode = match rule.mode {
            None => Mode::Both,
            Some(MoveMode::MoveOnly) => Mode::MoveOnly,
            Some(MoveMode::CaptureOnly) => Mode::CaptureOnly,
        };
        let lines = vec![(0, 1), (1, 1)];
        let mut hop = Hop::No;
        let (bases, set, range): (Vec<(i64, i64)>, DirectionSet, u16) = match rule.atom {
            checked::Atom::Step(set) => (lines, set, 1),
            checked::Atom::Slide(set, up_to) => (lines, set, range_of(up_to)),
            checked::Atom::Leap(v, set) => (vec![v], set, 1),
            checked::Atom::Ride(v, set, up_to) => (vec![v], set, range_of(up_to)),
            checked::Atom::Hop(set, beyond) => {
                hop = if beyond {
                    Hop::AnywhereBeyond
                } else {
                    Hop::JustBeyond
                };
                (lines, set, u16::MAX)
            }
            checked::Atom::Anywhere => (Vec::new(), DirectionSet::of([]), 1),
            checked::Atom::Like(_) => return Vec::new(),
        };
        let from_zone = rule.from.as_ref().map(|zone| self.zone(zone));
        let (lame, passable, en_passant, first) =
            (rule.lame, rule.passable, rule.en_passant, rule.first);
        let tag = tag_number(rule.tag);
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
        let anywhere = rule.atom == checked::Atom::Anywhere;
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

    fn castle_rules(&self) -> Vec<CastleRule> {
        let mut out = Vec::new();
        for (kind, piece) in self.checked.pieces.iter().enumerate() {
            for castle in &piece.castles {
                let vectors = images(0, 1)
                    .into_iter()
                    .filter(|&v| castle.lines.selects(v))
                    .collect();
                out.push(CastleRule {
                    span: castle.span,
                    kind,
                    partner: castle.partner.0,
                    vectors,
                    distance: castle.distance,
                    safe: castle.safe,
                    any_colour: castle.any_colour,
                    unmoved: castle.unmoved,
                });
            }
        }
        out
    }
}

fn range_of(up_to: Option<u32>) -> u16 {
    up_to.map_or(u16::MAX, |n| n.min(u32::from(u16::MAX)) as u16)
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

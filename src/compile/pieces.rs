//! The piece tables: every kind a piece can be (promoted forms included), its move program per
//! player, the moves it lends to neighbours, and the attack tables derived from the programs.

use super::Code;
use super::geometry::UNLIMITED;
use super::moves::{ANY_KIND, Gen, Hop, Mode, MoveCompiler};
use super::players::Players;
use crate::check::checked::{self, Checked, PieceId};
use crate::check::forms::{Form, Forms};
use crate::geometry::{DirectionSet, absolute, images};

/// A piece kind at run time. Kinds reached by promotion are separate kinds that remember what
/// they demote to, so a promoted Queen knows it was a Pawn.
#[derive(Clone, Debug)]
pub struct Kind {
    pub name: String,
    pub letter: String,
    pub royal: bool,
    /// The kind this one goes to hand as when captured.
    pub demotes_to: u8,
    /// Reached by promotion.
    pub promoted: bool,
    /// How positions write it for the first player (`N`, `+P`, `Q~`), unique among kinds.
    pub text: String,
    /// The promotions made by moves.
    pub promotions: Vec<Promotion>,
    /// The promotions that are turns of their own (`promote … on ZONE`).
    pub standing_promotions: Vec<Promotion>,
    /// One of its promotions depends on more of the position than the move's squares: only
    /// on a capture, for a lone piece, or for a peaceful new piece.
    pub promotes_by_position: bool,
    pub drops: DropLimits,
}

#[derive(Clone, Debug)]
pub struct Promotion {
    pub targets: Vec<u8>,
    /// Targets chosen only while the player has few enough of them on the board.
    pub limits: Vec<PromotionLimit>,
    pub optional: bool,
    /// The move may start or end in the zone; otherwise it must end there.
    pub via: bool,
    /// Only on a move that captures.
    pub by_capture: bool,
    /// A piece that is its player's only one of its kind promotes outside the zone too.
    pub lone_anywhere: bool,
    /// The new piece may not attack an enemy piece where it lands.
    pub peaceful: bool,
    pub zone: u16,
}

/// A promotion target that may be chosen only while the player has fewer than `below` pieces
/// of the `counted` kinds (its every form) on the board.
#[derive(Clone, Debug)]
pub struct PromotionLimit {
    pub target: u8,
    pub counted: u64,
    pub below: u32,
}

#[derive(Clone, Debug, Default)]
pub struct DropLimits {
    /// Zones the piece may only be dropped in, and zones it may not be dropped in.
    pub inside: Vec<u16>,
    pub outside: Vec<u16>,
    /// At most this many of the player's pieces of the kind on one file; 0: no limit (a limit
    /// of 0 is refused by the checker).
    pub per_file: u8,
    pub no_mate: bool,
    /// The kinds a piece of this kind in hand may be dropped as, besides itself (its
    /// promoted forms, in Kyoto shogi).
    pub also_as: Vec<u8>,
    /// The player's pieces of the kind must end on both colours of squares, as evenly as their
    /// number allows (placement chess's Bishops).
    pub opposite_colours: bool,
    /// Every player always holds one more: the hand's count neither limits nor counts drops.
    pub unlimited: bool,
    /// Dropped only where it converts at least one enemy piece.
    pub converting: bool,
}

/// Moves a piece lends to a neighbour: the lender's code indexes a list of these.
#[derive(Clone, Debug)]
pub struct Lend {
    /// Lent to enemy pieces; otherwise to the lender's own side.
    pub enemy: bool,
    /// Where the neighbour stands, as a vector from the lender.
    pub offset: u16,
    /// The moves lent, per receiving player.
    pub moves: Vec<Vec<Gen>>,
}

/// Attacks of one player, grouped so that "is this square attacked?" walks each line once.
#[derive(Clone, Debug, Default)]
pub struct Attacks {
    /// (reverse vector, kinds able to capture by that leap, lame path from the attacker).
    pub leaps: Vec<(u16, u64, Vec<u16>)>,
    /// (reverse line, with the range of the slide, and the kinds able to capture along it),
    /// lines of the same kinds next to each other.
    pub slides: Vec<(u16, u64)>,
    /// (reverse line, kinds able to capture by hopping along it, (how they land, the kinds
    /// they may hop over)). A hop limited in what it hops over reads the hurdle on the board,
    /// so its attacks hold only on the board as it stands (see `Derived::board_read_attacks`).
    pub hops: Vec<(u16, u64, (Hop, u64))>,
    /// Kinds that capture anywhere on the board.
    pub anywhere: u64,
    /// (piece code, rule index) of the captures that apply only from a zone, on a first move,
    /// to a zone or over some kinds: tested piece by piece.
    pub conditional: Vec<(Code, u16)>,
    /// The reverse lines the conditional captures slide or hop along, and the (reverse
    /// vector, lame path) of those that leap lame: where a move may open or close them.
    pub conditional_lines: Vec<u16>,
    pub conditional_paths: Vec<(u16, Vec<u16>)>,
}

/// Every kind and what it does. A piece code is `1 + kind * players + player`.
#[derive(Clone, Debug)]
pub struct PieceTables {
    pub kinds: Vec<Kind>,
    players: usize,
    /// The move programs, indexed by piece code.
    pub programs: Vec<Vec<Gen>>,
    /// Moves lent to neighbours, indexed by the lender's code; empty when no piece lends.
    pub lends: Vec<Vec<Lend>>,
    /// Per code, the steps to the neighbours it converts after it moves or is dropped (empty
    /// when no piece converts).
    pub converts: Vec<Vec<u16>>,
    /// Per code, whether it converts whole flanked lines rather than neighbours.
    pub converts_flanked: Vec<bool>,
    /// Per code, the lines along which it stands off against another player's piece of its
    /// kind (empty when no piece stands off).
    pub standoffs: Vec<Vec<u16>>,
    /// Per piece code: two of its rules can reach the same square, so its turns are deduplicated.
    pub overlapping: Vec<bool>,
    /// Attack tables, indexed by attacking player.
    pub attacks: Vec<Attacks>,
    /// Per capturing player: (reverse vector, kinds) of the one-step captures that may be en
    /// passant, to tell whether a passed square can be taken at all.
    pub ep_attacks: Vec<Vec<(u16, u64)>>,
    /// `attacker_bits[player * 256 + code]`: the kind bit of `code` when `player` owns it.
    pub attacker_bits: Vec<u64>,
    /// The royal pieces stand together: a player is in check only when all are attacked.
    pub royals_together: bool,
    /// Where every rule is one step or leap with nothing in its way (no slide, hop, lame path
    /// or move to anywhere) and no piece lends moves: the farthest a rule reaches, in king
    /// steps.
    pub step_reach: Option<u32>,
    /// The kind and player of each piece code, looked up rather than divided out on the hot
    /// path.
    owners: Vec<(u8, u8)>,
}

impl PieceTables {
    /// Builds every table of the pieces, compiling their moves through `moves`.
    pub fn new(checked: &Checked, moves: &mut MoveCompiler<'_>, players: &Players) -> Self {
        let letters: Vec<&str> = checked.pieces.iter().map(|p| p.letter.as_str()).collect();
        let forms = &checked.forms;
        let texts = forms.texts(&letters);
        let kinds: Vec<Kind> = (0..forms.list.len())
            .map(|form| kind(checked, moves, form, texts[form].clone()))
            .collect();
        let count = players.count();
        let mut tables = PieceTables {
            players: count,
            programs: vec![Vec::new(); 1 + kinds.len() * count],
            lends: Vec::new(),
            converts: Vec::new(),
            converts_flanked: Vec::new(),
            standoffs: Vec::new(),
            overlapping: Vec::new(),
            step_reach: None,
            attacks: Vec::new(),
            ep_attacks: Vec::new(),
            attacker_bits: Vec::new(),
            royals_together: checked.pieces.iter().any(|p| p.royal && p.together),
            owners: (0..256usize)
                .map(|code| {
                    let i = code.saturating_sub(1);
                    ((i / count) as u8, (i % count) as u8)
                })
                .collect(),
            kinds,
        };
        let no_capture = checked.captures.none;
        for (kind, form) in forms.list.iter().enumerate() {
            for player in 0..count {
                let gens = (checked.pieces[form.shape].moves.iter())
                    .flat_map(|r| moves.gens(r, player, None))
                    .collect();
                let code = tables.code(kind, player) as usize;
                tables.programs[code] = moves_only_if(no_capture, gens);
            }
        }
        tables.lends = lends(checked, moves, players, no_capture);
        tables.converts = per_code(checked, players, |piece, player| {
            (neighbour_vectors(piece.converts, players, player))
                .map(|v| moves.geometry.vector(v))
                .collect()
        });
        tables.standoffs = per_code(checked, players, |piece, player| {
            (neighbour_vectors(piece.standoff, players, player))
                .map(|v| {
                    let vector = moves.geometry.vector(v);
                    moves.geometry.line(vector, UNLIMITED)
                })
                .collect()
        });
        tables.converts_flanked = (0..tables.programs.len())
            .map(|code| {
                code > 0 && checked.pieces[forms.list[(code - 1) / count].shape].converts_flanked
            })
            .collect();
        tables.overlapping = tables
            .programs
            .iter()
            .map(|gens| overlapping(gens, &moves.geometry))
            .collect();
        let gens = || tables.programs.iter().flatten();
        tables.step_reach = (gens().all(Gen::one_step) && tables.lends.is_empty()).then(|| {
            (gens().map(|g| moves.geometry.vectors[g.vector as usize]))
                .map(|(dx, dy)| dx.unsigned_abs().max(dy.unsigned_abs()))
                .max()
                .unwrap_or(0)
        });
        tables.attacks = (0..count)
            .map(|player| tables.attacks_of(player, &mut moves.geometry))
            .collect();
        tables.attacker_bits = tables.attacker_bits();
        tables.en_passant_attacks(&mut moves.geometry);
        tables
    }

    #[inline]
    pub fn code(&self, kind: usize, player: usize) -> Code {
        (1 + kind * self.players + player) as Code
    }

    /// The kind and player of a piece code (not [`EMPTY`](super::EMPTY) or
    /// [`BLOCKED`](super::BLOCKED)).
    #[inline]
    pub fn split(&self, code: Code) -> (usize, usize) {
        let (kind, player) = self.owners[code as usize];
        (kind as usize, player as usize)
    }

    /// For each piece code, its kind's bit if `player` owns it, else 0: `[code]`.
    #[inline]
    pub fn kind_bits_of(&self, player: usize) -> &[u64] {
        &self.attacker_bits[player * 256..player * 256 + 256]
    }

    /// The limits that bind a drop of the piece `code`: those of the piece in hand it was, so a
    /// piece dropped on its promoted side obeys its unpromoted side's limits.
    pub fn drop_limits(&self, code: Code) -> &DropLimits {
        let kind = &self.kinds[self.split(code).0];
        &self.kinds[kind.demotes_to as usize].drops
    }

    /// Whether a piece of `kind` may promote to a kind whose royalty differs from its own.
    pub fn changes_royalty(&self, kind: usize) -> bool {
        let kind = &self.kinds[kind];
        let royal = kind.royal;
        (kind.promotions.iter().chain(&kind.standing_promotions))
            .flat_map(|p| &p.targets)
            .any(|&t| self.kinds[t as usize].royal != royal)
    }

    /// Every kind, as a mask.
    pub fn all(&self) -> u64 {
        1u64.checked_shl(self.kinds.len() as u32)
            .map_or(u64::MAX, |bit| bit - 1)
    }

    /// Groups the capturing moves of `player`'s pieces by line, reversed for the attack test.
    /// An attack test asks about a square holding a royal piece (or one a royal piece crosses),
    /// so a capture limited to some kinds attacks as a plain one where it may take a royal
    /// kind, and not at all where it may not (the flying General: a plain slide); a hop
    /// limited in what it hops over is tabled with that limit.
    fn attacks_of(&self, player: usize, geometry: &mut super::Geometry) -> Attacks {
        let mut attacks = Attacks::default();
        let royal_kinds = (self.kinds.iter().enumerate())
            .filter(|(_, k)| k.royal)
            .fold(0u64, |mask, (kind, _)| mask | 1 << kind);
        for kind in 0..self.kinds.len() {
            let code = self.code(kind, player) as usize;
            for (index, rule) in self.programs[code].iter().enumerate() {
                let takes_royal = rule.takes == ANY_KIND || rule.takes & royal_kinds != 0;
                if !rule.mode.captures() || !takes_royal {
                    continue;
                }
                let (dx, dy) = geometry.vectors[rule.vector as usize];
                let reverse = geometry.vector((-dx, -dy));
                let bit = 1u64 << kind;
                if !rule.placed_alike() {
                    attacks.conditional.push((code as Code, index as u16));
                    match (rule.anywhere, rule.hop, rule.range) {
                        (true, _, _) => {}
                        (false, Hop::No, 1) if rule.path.is_empty() => {}
                        (false, Hop::No, 1) => {
                            attacks.conditional_paths.push((reverse, rule.path.clone()))
                        }
                        (false, Hop::No, range) => attacks
                            .conditional_lines
                            .push(geometry.line(reverse, range)),
                        (false, _, _) => attacks
                            .conditional_lines
                            .push(geometry.line(reverse, UNLIMITED)),
                    }
                } else if rule.anywhere {
                    attacks.anywhere |= bit;
                } else if rule.hop != Hop::No {
                    let line = geometry.line(reverse, rule.range);
                    add_to(&mut attacks.hops, (line, (rule.hop, rule.over)), bit);
                } else if rule.range == 1 {
                    add_to(&mut attacks.leaps, (reverse, rule.path.clone()), bit);
                } else {
                    let line = geometry.line(reverse, rule.range);
                    match attacks.slides.iter_mut().find(|(l, _)| *l == line) {
                        Some(entry) => entry.1 |= bit,
                        None => attacks.slides.push((line, bit)),
                    }
                }
            }
        }
        // Lines of the same kinds side by side: the attack test finds those pieces once.
        attacks.slides.sort_by_key(|&(line, kinds)| (kinds, line));
        attacks
    }

    fn attacker_bits(&self) -> Vec<u64> {
        let mut bits = vec![0u64; self.players * 256];
        for kind in 0..self.kinds.len() {
            for player in 0..self.players {
                bits[player * 256 + self.code(kind, player) as usize] = 1 << kind;
            }
        }
        bits
    }

    /// Fills in which one-step captures may be en passant, grouped like the attack tables.
    fn en_passant_attacks(&mut self, geometry: &mut super::Geometry) {
        let mut attacks = vec![Vec::<(u16, u64)>::new(); self.players];
        for kind in 0..self.kinds.len() {
            for (player, table) in attacks.iter_mut().enumerate() {
                let code = self.code(kind, player) as usize;
                for rule in self.programs[code]
                    .iter()
                    .filter(|g| g.en_passant && g.mode.captures())
                {
                    if !rule.one_step() {
                        continue;
                    }
                    let (dx, dy) = geometry.vectors[rule.vector as usize];
                    let reverse = geometry.vector((-dx, -dy));
                    match table.iter_mut().find(|(v, _)| *v == reverse) {
                        Some(entry) => entry.1 |= 1 << kind,
                        None => table.push((reverse, 1 << kind)),
                    }
                }
            }
        }
        self.ep_attacks = attacks;
    }
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

/// Adds `bit` to the entry of an attack table with this vector and detail, or a new entry.
fn add_to<D: PartialEq>(table: &mut Vec<(u16, u64, D)>, (vector, detail): (u16, D), bit: u64) {
    match table
        .iter_mut()
        .find(|(v, _, d)| *v == vector && *d == detail)
    {
        Some(entry) => entry.1 |= bit,
        None => table.push((vector, bit, detail)),
    }
}

/// The kind of one form: it moves and promotes as its shape and goes to hand as its root.
fn kind(checked: &Checked, moves: &mut MoveCompiler<'_>, form: usize, text: String) -> Kind {
    let forms = &checked.forms;
    let Form { shape, root } = forms.list[form];
    let piece = &checked.pieces[shape];
    let (standing, on_moves): (Vec<_>, Vec<_>) = piece.promotions.iter().partition(|p| p.standing);
    let mut compile = |promotion: &checked::Promotion| Promotion {
        targets: (promotion.targets.iter())
            .map(|target| forms.promoted(form, target.0) as u8)
            .collect(),
        limits: (promotion.limits.iter())
            .map(|&(target, below)| PromotionLimit {
                target: forms.promoted(form, target.0) as u8,
                counted: kinds_of(forms, &[target]),
                below,
            })
            .collect(),
        optional: promotion.optional,
        via: promotion.via,
        by_capture: promotion.by_capture,
        lone_anywhere: promotion.lone_anywhere,
        peaceful: promotion.peaceful,
        zone: moves.zone(&promotion.zone),
    };
    let promotions: Vec<Promotion> = on_moves.into_iter().map(&mut compile).collect();
    let standing_promotions: Vec<Promotion> = standing.into_iter().map(&mut compile).collect();
    let limits = &piece.drops;
    let mut also_as: Vec<u8> = match limits.promoted {
        true => promotions.iter().flat_map(|p| p.targets.clone()).collect(),
        false => Vec::new(),
    };
    also_as.sort_unstable();
    also_as.dedup();
    let drops = DropLimits {
        inside: limits.inside.iter().map(|zone| moves.zone(zone)).collect(),
        outside: limits.outside.iter().map(|zone| moves.zone(zone)).collect(),
        // A file holds at most 26 pieces, so a larger limit is no limit.
        per_file: limits
            .per_file
            .map_or(0, |n| n.min(u32::from(u8::MAX)) as u8),
        no_mate: limits.no_mate,
        also_as,
        opposite_colours: limits.opposite_colours,
        unlimited: limits.unlimited,
        converting: limits.converting,
    };
    Kind {
        name: piece.name.clone(),
        letter: piece.letter.clone(),
        royal: piece.royal,
        demotes_to: root as u8,
        promoted: root != shape,
        text,
        promotes_by_position: (promotions.iter())
            .any(|p| p.by_capture || p.lone_anywhere || p.peaceful),
        promotions,
        standing_promotions,
        drops,
    }
}

/// The moves each lender code lends, to each neighbour and receiving player; none when no
/// piece lends.
fn lends(
    checked: &Checked,
    moves: &mut MoveCompiler<'_>,
    players: &Players,
    no_capture: bool,
) -> Vec<Vec<Lend>> {
    let count = players.count();
    let forms = &checked.forms.list;
    let mut lends = vec![Vec::new(); 1 + forms.len() * count];
    for (kind, form) in forms.iter().enumerate() {
        for lender in 0..count {
            for grant in &checked.pieces[form.shape].grants {
                let offsets = images(0, 1)
                    .into_iter()
                    .chain(images(1, 1))
                    .filter(|&v| grant.neighbours.selects(v));
                for offset in offsets {
                    let away = absolute(players.forward[lender], offset);
                    let moves_of = |receiver: usize, moves: &mut MoveCompiler<'_>| {
                        if (receiver != lender) != grant.enemy {
                            return Vec::new();
                        }
                        let gens = grant
                            .rules
                            .iter()
                            .flat_map(|r| moves.gens(r, receiver, Some(away)))
                            .collect();
                        moves_only_if(no_capture, gens)
                    };
                    let lent = (0..count)
                        .map(|receiver| moves_of(receiver, moves))
                        .collect();
                    lends[1 + kind * count + lender].push(Lend {
                        enemy: grant.enemy,
                        offset: moves.geometry.vector(away),
                        moves: lent,
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

/// Per code, what `of` makes of the piece's shape for its player; empty when it makes nothing
/// of any.
fn per_code(
    checked: &Checked,
    players: &Players,
    mut of: impl FnMut(&checked::Piece, usize) -> Vec<u16>,
) -> Vec<Vec<u16>> {
    let count = players.count();
    let forms = &checked.forms.list;
    let mut table = vec![Vec::new(); 1 + forms.len() * count];
    for (kind, form) in forms.iter().enumerate() {
        for player in 0..count {
            table[1 + kind * count + player] = of(&checked.pieces[form.shape], player);
        }
    }
    match table.iter().all(Vec::is_empty) {
        true => Vec::new(),
        false => table,
    }
}

/// The absolute vectors of the one-step directions `directions` selects for `player`.
fn neighbour_vectors(
    directions: DirectionSet,
    players: &Players,
    player: usize,
) -> impl Iterator<Item = (i32, i32)> {
    let forward = players.forward[player];
    (images(0, 1).into_iter())
        .chain(images(1, 1))
        .filter(move |&v| directions.selects(v))
        .map(move |v| absolute(forward, v))
}

/// Turns every move into a move that only moves, in a game where nothing is captured.
fn moves_only_if(no_capture: bool, mut gens: Vec<Gen>) -> Vec<Gen> {
    if no_capture {
        gens.retain(|g| g.mode.moves());
        gens.iter_mut().for_each(|g| g.mode = Mode::MoveOnly);
    }
    gens
}

/// Whether two of a piece's rules may make the same move, so that its moves need sorting out:
/// rules that can both move, or both capture, to the same displacement (`move anywhere` meets
/// everything; `slide orthogonal` meets `leap (0,2)`).
fn overlapping(gens: &[Gen], geometry: &super::Geometry) -> bool {
    let longest = geometry.width.max(geometry.height) as i32;
    let reach = |rule: &Gen| -> Option<Vec<(i32, i32)>> {
        let (dx, dy) = geometry.vectors[rule.vector as usize];
        let steps = match rule.hop {
            Hop::No => (rule.range as i32).min(longest),
            _ => longest,
        };
        (!rule.anywhere).then(|| (1..=steps).map(|k| (dx * k, dy * k)).collect())
    };
    let reaches: Vec<Option<Vec<(i32, i32)>>> = gens.iter().map(reach).collect();
    let meet = |a: usize, b: usize| {
        let modes = (gens[a].mode.moves() && gens[b].mode.moves())
            || (gens[a].mode.captures() && gens[b].mode.captures());
        let squares = match (&reaches[a], &reaches[b]) {
            (Some(a), Some(b)) => a.iter().any(|v| b.contains(v)),
            _ => true,
        };
        modes && squares
    };
    (0..gens.len()).any(|a| (a + 1..gens.len()).any(|b| meet(a, b)))
}

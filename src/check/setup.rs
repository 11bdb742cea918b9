//! The start position and the tests written in a rule file.

use super::checked::{self, PieceId, PlayerId, TestCase};
use super::forms::Forms;
use super::{Cell, Checker};
use crate::diagnostic::{Code, Problem};
use crate::limits::{MAX_IN_HAND, MAX_PERFT_DEPTH};
use crate::syntax::ast::*;
use std::collections::HashMap;

/// Past this many leaf nodes a perft takes more than a few seconds, even at tens of millions
/// of nodes a second.
const HEAVY_TEST_NODES: u64 = 200_000_000;

/// One `setup` item, resolved.
pub(super) struct SetupItem {
    player: PlayerId,
    /// The piece of each placement, in order.
    placements: Vec<PieceId>,
    hand: Vec<PieceId>,
    /// The piece of each castling home, in order.
    homes: Vec<PieceId>,
    span: Span,
}

impl Checker<'_> {
    pub(super) fn check_setup(&mut self, setup: &Setup) -> Option<SetupItem> {
        let player = self.player(&setup.player);
        let hand = self.piece_list(&setup.hand);
        let placed: Vec<Name> = setup.placements.iter().map(|p| p.piece.clone()).collect();
        let placements = self.piece_list(&placed);
        let homed: Vec<Name> = setup
            .castling_homes
            .iter()
            .map(|h| h.piece.clone())
            .collect();
        let homes = self.piece_list(&homed);
        self.check_homes_castle(setup);
        Some(SetupItem {
            player: player?,
            placements: placements?,
            hand: hand?,
            homes: homes?,
            span: setup.span,
        })
    }

    /// A castling home is for a piece that castles or that a piece castles with.
    fn check_homes_castle(&mut self, setup: &Setup) {
        let partners = |piece: &Piece| -> Vec<String> {
            (piece.clauses.iter())
                .filter_map(|clause| match clause {
                    PieceClause::Castle(castle) => Some(castle.partner.value.clone()),
                    _ => None,
                })
                .collect()
        };
        let mut castling: Vec<String> = Vec::new();
        for piece in &self.piece_decls {
            let with = partners(piece);
            if !with.is_empty() {
                castling.push(piece.name.value.clone());
            }
            castling.extend(with);
        }
        for home in &setup.castling_homes {
            let name = &home.piece.value;
            let known = self.piece_decls.iter().any(|p| p.name.value == *name);
            if !known || castling.contains(name) {
                continue;
            }
            self.error(
                Problem::error(
                    Code::CastlingHomeWithoutCastle,
                    format!("`{name}` has a castling home but never castles"),
                    home.piece.span,
                    "neither castles nor is castled with",
                )
                .with_help(
                    "give a castling home to a piece with a `castle` clause or to its partner",
                ),
            );
        }
    }

    /// A hand holds at most [`MAX_IN_HAND`] pieces of a kind, counted as they go to hand: a
    /// piece lettered `+P` that the Pawn promotes to goes to hand as a Pawn.
    pub(super) fn check_hand_counts(&mut self, forms: &Forms) {
        let file = self.file;
        for setup in file.setups() {
            let mut counts: HashMap<usize, usize> = HashMap::new();
            for piece in &setup.hand {
                let Some(index) = self
                    .piece_decls
                    .iter()
                    .position(|p| p.name.value == piece.value)
                else {
                    continue;
                };
                let count = counts.entry(forms.list[index].root).or_default();
                *count += 1;
                if *count == MAX_IN_HAND + 1 {
                    self.error(Problem::error(
                        Code::HandOverflow,
                        "at most 255 pieces of a kind can be in hand",
                        piece.span,
                        "the 256th",
                    ));
                }
            }
        }
    }

    /// Across all setups: one per player, no square used twice, no player without pieces. Gives
    /// the start position they set up, when every setup resolved.
    pub(super) fn check_setups_together(
        &mut self,
        items: Vec<Option<SetupItem>>,
    ) -> Option<checked::Setup> {
        let file = self.file;
        let setups: Vec<&Setup> = file.setups().collect();
        for (index, setup) in setups.iter().enumerate() {
            if let Some(first) = setups[..index]
                .iter()
                .find(|s| s.player.value == setup.player.value)
            {
                self.error(
                    Problem::error(
                        Code::SetupTwice,
                        format!("`{}` is set up twice", setup.player.value),
                        setup.player.span,
                        "second setup",
                    )
                    .with_note(first.player.span, "first setup"),
                );
            }
        }
        let occupied = self.check_occupancy(&setups);
        let players = self.player_decls.clone();
        for player in players {
            let name = &player.name.value;
            let own: Vec<&&Setup> = setups.iter().filter(|s| s.player.value == *name).collect();
            if own
                .iter()
                .any(|s| !s.placements.is_empty() || !s.hand.is_empty())
            {
                continue;
            }
            let problem = match own.first() {
                Some(setup) => Problem::error(
                    Code::PlayerWithoutPieces,
                    format!("player `{name}` has no pieces"),
                    setup.span,
                    "this setup places nothing",
                )
                .with_help("place pieces in it, such as `King e1`"),
                None => Problem::error(
                    Code::PlayerWithoutPieces,
                    format!("player `{name}` has no pieces"),
                    player.name.span,
                    "not set up",
                )
                .with_help(format!("add `setup {name} {{ King e1 ... }}`")),
            };
            self.error(problem);
        }
        let items: Vec<SetupItem> = items.into_iter().collect::<Option<_>>()?;
        let board = self.board.as_ref()?;
        let placed = occupied
            .into_iter()
            .map(|(cell, setup, placement)| {
                let item = &items[setup];
                (board.cell(cell), item.player, item.placements[placement])
            })
            .collect();
        let in_hand = items
            .iter()
            .flat_map(|item| item.hand.iter().map(|&piece| (item.player, piece)))
            .collect();
        let spans = items.iter().map(|item| (item.player, item.span)).collect();
        let castling_homes = self.castling_homes(&setups, &items);
        Some(checked::Setup {
            placed,
            in_hand,
            castling_homes,
            spans,
        })
    }

    /// Each castling home, as its cell, player and piece; reports a square given two pieces.
    fn castling_homes(
        &mut self,
        setups: &[&Setup],
        items: &[SetupItem],
    ) -> Vec<(Cell, PlayerId, PieceId)> {
        let Some(board) = self.board.clone() else {
            return Vec::new();
        };
        let mut homes: Vec<(Cell, PlayerId, PieceId)> = Vec::new();
        let mut first_span: Vec<Option<Span>> = vec![None; board.exists.len()];
        for (setup, item) in setups.iter().zip(items) {
            for (home, &piece) in setup.castling_homes.iter().zip(&item.homes) {
                for square in &home.squares {
                    for index in board.squares_of(square, &mut self.problems) {
                        let cell = board.cell(index);
                        let same = |h: &&(Cell, PlayerId, PieceId)| h.0 == cell;
                        match (homes.iter().find(same), first_span[index]) {
                            (Some(&(_, player, other)), Some(first))
                                if (player, other) != (item.player, piece) =>
                            {
                                self.error(
                                    Problem::error(
                                        Code::CastlingHomeTwice,
                                        "two castling homes on one square",
                                        square.span,
                                        "another home here",
                                    )
                                    .with_note(first, "first home of this square"),
                                )
                            }
                            (Some(_), _) => {}
                            (None, _) => {
                                first_span[index] = Some(square.span);
                                homes.push((cell, item.player, piece));
                            }
                        }
                    }
                }
            }
        }
        homes
    }

    /// Reports squares set up twice; gives each square set up, as its cell, with the indices of
    /// its setup and placement.
    fn check_occupancy(&mut self, setups: &[&Setup]) -> Vec<(usize, usize, usize)> {
        let mut occupied = Vec::new();
        let Some(board) = self.board.clone() else {
            return occupied;
        };
        let mut occupant: Vec<Option<(Span, &str, &str)>> = vec![None; board.exists.len()];
        for (setup_index, setup) in setups.iter().enumerate() {
            for (placement_index, placement) in setup.placements.iter().enumerate() {
                for item in &placement.squares {
                    for index in board.squares_of(item, &mut self.problems) {
                        if let Some((first, player, piece)) = occupant[index] {
                            self.error(
                                Problem::error(
                                    Code::SquareSetUpTwice,
                                    "two pieces on one square",
                                    item.span,
                                    "placed again here",
                                )
                                .with_note(first, format!("{player}'s {piece} is already here")),
                            );
                            continue;
                        }
                        occupant[index] =
                            Some((item.span, &setup.player.value, &placement.piece.value));
                        occupied.push((index, setup_index, placement_index));
                    }
                }
            }
        }
        occupied
    }

    pub(super) fn check_test(&mut self, test: &Test) -> TestCase {
        if test.expectations.is_empty() {
            self.error(Problem::warning(
                Code::TestExpectsNothing,
                format!("test \"{}\" expects nothing", test.name.value),
                test.name.span,
                "no `perft` or `moves` inside",
            ));
        }
        let mut depths: Vec<&Spanned<u32>> = Vec::new();
        for expectation in &test.expectations {
            let Expectation::Perft { depth, count, .. } = expectation else {
                continue;
            };
            if count.value > HEAVY_TEST_NODES {
                self.error(
                    Problem::warning(
                        Code::HeavyTest, format!(
                            "this expectation counts {} leaf nodes: far more than a few seconds of `fairy test`",
                            count.value
                        ),
                        count.span,
                        format!("more than {HEAVY_TEST_NODES}"),
                    )
                    .with_help("a shallower depth checks the same rules in seconds"),
                );
            }
            if depth.value == 0 {
                self.error(Problem::error(
                    Code::PerftDepthZero,
                    "perft depth starts at 1",
                    depth.span,
                    "depth 0",
                ));
            }
            if depth.value > MAX_PERFT_DEPTH {
                self.error(Problem::error(
                    Code::PerftTooDeep,
                    format!("perft depth goes up to {MAX_PERFT_DEPTH}"),
                    depth.span,
                    "too deep to ever finish",
                ));
            }
            if let Some(first) = depths.iter().find(|d| d.value == depth.value) {
                self.error(
                    Problem::error(
                        Code::PerftDepthTwice,
                        "this depth is expected twice",
                        depth.span,
                        "again",
                    )
                    .with_note(first.span, "first here"),
                );
            }
            depths.push(depth);
        }
        TestCase {
            name: test.name.value.clone(),
            position: test.position.as_ref().map(|p| p.value.clone()),
            moves: test.moves.as_ref().map(|m| m.value.clone()),
            perft: test
                .expectations
                .iter()
                .filter_map(|e| match e {
                    Expectation::Perft { depth, count, .. } => Some((depth.value, count.value)),
                    Expectation::Moves(..) => None,
                })
                .collect(),
            move_list: test.expectations.iter().find_map(|e| match e {
                Expectation::Moves(list, _) => Some(list.iter().map(|m| m.value.clone()).collect()),
                Expectation::Perft { .. } => None,
            }),
        }
    }

    pub(super) fn check_tests_together(&mut self) {
        let file = self.file;
        let tests: Vec<&Test> = file.tests().collect();
        for (index, test) in tests.iter().enumerate() {
            if let Some(first) = tests[..index]
                .iter()
                .find(|t| t.name.value == test.name.value)
            {
                self.error(
                    Problem::error(
                        Code::TestNameTwice,
                        format!("two tests named \"{}\"", test.name.value),
                        test.name.span,
                        "again",
                    )
                    .with_note(first.name.span, "first here"),
                );
            }
        }
    }
}

//! The public analysis corpus (`tests/data/analysis-public.jsonl`): its cases as engine
//! inputs, and what an analysis must say about each, in one comparable form shared by the
//! engine test and the command-line test.

use std::collections::{BTreeMap, BTreeSet};

use mcr::analysis::{Analysis, Distance, TileCopies, Waiting, WonHand};
use mcr::{Claim, HandInput, MeldInput, MeldKind, Outcome, Shape, Tile, TileSet, WinContext, Wind};
use serde::Deserialize;

/// A declared meld of a case.
#[derive(Deserialize)]
pub struct CaseMeld {
    pub kind: String,
    pub tiles: Vec<String>,
    pub claimed_from: u8,
}

/// One case of the analysis corpus (see the corpus README in the shared folder).
#[derive(Deserialize)]
pub struct Case {
    pub id: String,
    pub kind: String,
    pub melds: Vec<CaseMeld>,
    pub concealed: Vec<String>,
    pub notation: String,
    #[serde(default)]
    pub visible: Vec<String>,
    pub seat_wind: usize,
    pub prevalent_wind: usize,
    pub expected: serde_json::Value,
}

/// Every case, in file order. The file is the repository's `tests/data/analysis-public.jsonl`,
/// read from the engine crate's tests and from the server crate's alike.
pub fn load() -> Vec<Case> {
    let here = env!("CARGO_MANIFEST_DIR");
    let path = [here, "/tests/data/analysis-public.jsonl"].concat();
    let path = if std::path::Path::new(&path).exists() {
        path
    } else {
        [here, "/../../tests/data/analysis-public.jsonl"].concat()
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{path} line {}: {e}", i + 1))
        })
        .collect()
}

fn tile(code: &str) -> Tile {
    Tile::from_code(code).unwrap_or_else(|| panic!("corpus tile code {code}"))
}

impl Case {
    /// The hand (no winning tile), the visible tiles and the winds.
    pub fn input(&self) -> (HandInput, Vec<Tile>, WinContext) {
        let melds = self
            .melds
            .iter()
            .map(|m| MeldInput {
                kind: match m.kind.as_str() {
                    "chow" => MeldKind::Chow,
                    "pung" => MeldKind::Pung,
                    "kong" => MeldKind::Kong,
                    "concealed_kong" => MeldKind::ConcealedKong,
                    other => panic!("{}: meld kind {other}", self.id),
                },
                tiles: m.tiles.iter().map(|t| tile(t)).collect(),
                claimed_from: Claim::from_digit(m.claimed_from),
                promoted: false,
                claimed_tile: None,
            })
            .collect();
        let hand = HandInput {
            melds,
            standing: self.concealed.iter().map(|t| tile(t)).collect(),
            winning_tile: None,
        };
        let context = WinContext {
            seat_wind: Wind::ALL[self.seat_wind],
            prevalent_wind: Wind::ALL[self.prevalent_wind],
            ..WinContext::default()
        };
        (
            hand,
            self.visible.iter().map(|t| tile(t)).collect(),
            context,
        )
    }

    /// What the corpus expects, in the comparable form.
    pub fn expected(&self) -> Summary {
        let e = &self.expected;
        let tiles = |v: &serde_json::Value| -> BTreeSet<String> {
            v.as_array()
                .into_iter()
                .flatten()
                .map(|t| t.as_str().unwrap_or_default().to_owned())
                .collect()
        };
        let score = |v: &serde_json::Value| {
            (
                v["outcome"].as_str().unwrap_or_default().to_owned(),
                v["total"].as_u64().unwrap_or(0),
            )
        };
        Summary {
            shanten: e["shanten"].as_i64(),
            shapes: e["shapes"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(shape, v)| (shape.clone(), (v[0].as_i64().unwrap_or(99), tiles(&v[1]))))
                .collect(),
            useful: tiles(&e["useful"]),
            remaining: e["remaining"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(t, n)| (t.clone(), n.as_u64().unwrap_or(99)))
                .collect(),
            waits: e["waits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|w| {
                    let scores = if w["dead"].as_bool() == Some(true) {
                        None
                    } else {
                        Some((score(&w["discard"]), score(&w["self_drawn"])))
                    };
                    (w["tile"].as_str().unwrap_or_default().to_owned(), scores)
                })
                .collect(),
            discards: e["discards"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|d| {
                    (
                        d["tile"].as_str().unwrap_or_default().to_owned(),
                        (d["shanten"].as_i64().unwrap_or(99), tiles(&d["useful"])),
                    )
                })
                .collect(),
        }
    }
}

/// An outcome name (`OUTCOME_WIN`, …) and a total.
pub type Score = (String, u64);

/// What an analysis says, with tiles as corpus codes (`W1`, `F3`, …) and shapes and outcomes
/// by their proto enum names.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// A waiting hand's distance (`None` for a drawn hand).
    pub shanten: Option<i64>,
    /// Per shape: distance and useful tiles.
    pub shapes: BTreeMap<String, (i64, BTreeSet<String>)>,
    pub useful: BTreeSet<String>,
    pub remaining: BTreeMap<String, u64>,
    /// Per waiting tile: its scores on a discard and self-drawn; `None` for a dead wait.
    pub waits: BTreeMap<String, Option<(Score, Score)>>,
    /// Per discarded kind: distance and useful tiles of the tiles left.
    pub discards: BTreeMap<String, (i64, BTreeSet<String>)>,
}

impl Summary {
    /// The differences from `expected`, one line each.
    pub fn differences(&self, expected: &Summary) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |what: &str, got: String, want: String| {
            if got != want {
                out.push(format!("{what}: got {got}, expected {want}"));
            }
        };
        check(
            "shanten",
            format!("{:?}", self.shanten),
            format!("{:?}", expected.shanten),
        );
        check(
            "shapes",
            format!("{:?}", self.shapes),
            format!("{:?}", expected.shapes),
        );
        check(
            "useful",
            format!("{:?}", self.useful),
            format!("{:?}", expected.useful),
        );
        check(
            "remaining",
            format!("{:?}", self.remaining),
            format!("{:?}", expected.remaining),
        );
        check(
            "waits",
            format!("{:?}", self.waits),
            format!("{:?}", expected.waits),
        );
        check(
            "discards",
            format!("{:?}", self.discards),
            format!("{:?}", expected.discards),
        );
        out
    }
}

pub fn shape_name(shape: Shape) -> &'static str {
    match shape {
        Shape::Standard => "SHAPE_STANDARD",
        Shape::SevenPairs => "SHAPE_SEVEN_PAIRS",
        Shape::ThirteenOrphans => "SHAPE_THIRTEEN_ORPHANS",
        Shape::HonorsAndKnitted => "SHAPE_HONORS_AND_KNITTED",
        Shape::KnittedStraight => "SHAPE_KNITTED_STRAIGHT",
    }
}

pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "OUTCOME_WIN",
        Outcome::BelowMinimum => "OUTCOME_BELOW_MINIMUM",
        Outcome::NotWinningShape => "OUTCOME_NOT_WINNING_SHAPE",
    }
}

/// How the corpus's calculator reports a hand with one declared meld: it counts the knitted
/// straight (组合龙 beside a declared meld, docs/rules/examples.md#e16) in the distance, but leaves
/// that shape out of `shapes`, and so out of the useful tiles and the waits.
/// `omit_knitted_straight` reports the engine's analysis the same way; without it, as the
/// engine gives it.
#[derive(Clone, Copy)]
pub struct View {
    pub omit_knitted_straight: bool,
}

impl View {
    fn keeps(self, shape: Shape) -> bool {
        !(self.omit_knitted_straight && shape == Shape::KnittedStraight)
    }

    /// The useful tiles of the kept shapes at the lowest distance.
    fn useful(self, distance: &Distance) -> Vec<TileCopies> {
        let kept: TileSet = distance
            .shapes
            .iter()
            .filter(|s| self.keeps(s.shape) && s.shanten == distance.shanten)
            .fold(TileSet::default(), |acc, s| acc.union(s.useful));
        distance
            .useful
            .iter()
            .filter(|u| kept.contains(u.tile))
            .copied()
            .collect()
    }

    fn waiting(self, w: &Waiting) -> Summary {
        let useful = self.useful(&w.distance);
        Summary {
            shanten: Some(i64::from(w.distance.shanten)),
            shapes: w
                .distance
                .shapes
                .iter()
                .filter(|s| self.keeps(s.shape))
                .map(|s| {
                    (
                        shape_name(s.shape).to_owned(),
                        (
                            i64::from(s.shanten),
                            s.useful.iter().map(Tile::code).collect(),
                        ),
                    )
                })
                .collect(),
            useful: useful.iter().map(|u| u.tile.code()).collect(),
            remaining: useful
                .iter()
                .map(|u| (u.tile.code(), u64::from(u.remaining)))
                .collect(),
            waits: w
                .waits
                .iter()
                .filter(|wait| useful.iter().any(|u| u.tile == wait.tile))
                .map(|wait| {
                    let scores = wait.scores.as_ref().map(|s| {
                        let one = |won: &WonHand| {
                            (
                                outcome_name(won.scoring.outcome).to_owned(),
                                u64::from(won.scoring.total),
                            )
                        };
                        (one(&s.on_discard), one(&s.on_self_drawn))
                    });
                    (wait.tile.code(), scores)
                })
                .collect(),
            discards: BTreeMap::new(),
        }
    }

    pub fn summary(self, analysis: &Analysis) -> Summary {
        match analysis {
            Analysis::Waiting(w) => self.waiting(w),
            Analysis::Drawn(d) => Summary {
                discards: d
                    .discards
                    .iter()
                    .map(|row| {
                        let useful = self.useful(&row.after.distance);
                        (
                            row.tile.code(),
                            (
                                i64::from(row.after.distance.shanten),
                                useful.iter().map(|u| u.tile.code()).collect(),
                            ),
                        )
                    })
                    .collect(),
                ..Summary::default()
            },
        }
    }
}

/// The hands of the corpus where the knitted straight beside a declared meld is at the
/// lowest distance, so that the calculator's omission shows (see [`View`]).
pub const KNITTED_WITH_MELD: [&str; 17] = [
    "ana-public-000007",
    "ana-public-000046",
    "ana-public-000064",
    "ana-public-000162",
    "ana-public-000247",
    "ana-public-000264",
    "ana-public-000281",
    "ana-public-000345",
    "ana-public-000612",
    "ana-public-000660",
    "ana-public-000746",
    "ana-public-000780",
    "ana-public-001090",
    "ana-public-001137",
    "ana-public-001213",
    "ana-public-001246",
    "ana-public-001409",
];

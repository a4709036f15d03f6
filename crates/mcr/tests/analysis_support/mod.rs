//! The public analysis corpus (`tests/data/analysis-public.jsonl`): its cases as engine
//! inputs, and what an analysis must say about each, in one comparable form shared by the
//! engine test and the command-line test.

use std::collections::{BTreeMap, BTreeSet};

use mcr::{Claim, HandInput, MeldInput, MeldKind, Tile, WinContext, Wind};
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

/// Every case, in file order.
pub fn load() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/analysis-public.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
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

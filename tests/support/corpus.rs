//! The public corpus (`tests/data/public.jsonl`) as engine inputs, shared by the corpus test
//! and the benchmark.

use mahjong_referee::api::kit::hand;
use mahjong_referee::api::pb;
use mcr::{Claim, HandInput, MeldInput, MeldKind, Tile, WinContext, WinMethod, Wind};
use serde::Deserialize;

/// A declared meld of a corpus case.
#[derive(Deserialize)]
pub struct CaseMeld {
    pub kind: String,
    pub tiles: Vec<String>,
    pub claimed_from: u8,
}

/// One corpus case (see the corpus README in the shared folder).
#[allow(clippy::struct_excessive_bools)] // the corpus format's own flags
#[derive(Deserialize)]
pub struct Case {
    pub id: String,
    pub melds: Vec<CaseMeld>,
    pub concealed: Vec<String>,
    pub win_tile: String,
    pub flowers: u8,
    pub self_drawn: bool,
    pub fourth_tile: bool,
    pub kong_related: bool,
    pub last_tile: bool,
    pub seat_wind: usize,
    pub prevalent_wind: usize,
    pub expected: serde_json::Value,
}

/// A hand and its context as a `ScoreHandRequest` with a structured hand.
pub fn request(
    hand: &HandInput,
    context: WinContext,
    ruleset: pb::Ruleset,
    view: pb::ScoreView,
) -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        hand_input: Some(pb::score_hand_request::HandInput::Hand(hand::hand_to_pb(
            hand,
        ))),
        context: Some(hand::context_to_pb(&context)),
        ruleset: ruleset as i32,
        view: view as i32,
        overrides: None,
    }
}

/// Every case of the corpus, in file order.
pub fn load() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/public.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{path} line {}: {e}", i + 1))
        })
        .collect()
}

impl Case {
    /// The hand and context, or `None` when a tile or meld code is not valid.
    pub fn input(&self) -> Option<(HandInput, WinContext)> {
        let mut melds = Vec::new();
        for m in &self.melds {
            let tiles = m
                .tiles
                .iter()
                .map(|t| Tile::from_code(t))
                .collect::<Option<Vec<_>>>()?;
            let kind = match m.kind.as_str() {
                "chow" => MeldKind::Chow,
                "pung" => MeldKind::Pung,
                "kong" => MeldKind::Kong,
                "concealed_kong" => MeldKind::ConcealedKong,
                _ => return None,
            };
            melds.push(MeldInput {
                kind,
                tiles,
                claimed_from: Claim::from_digit(m.claimed_from),
                promoted: false,
                claimed_tile: None,
            });
        }
        let standing = self
            .concealed
            .iter()
            .map(|t| Tile::from_code(t))
            .collect::<Option<Vec<_>>>()?;
        let hand = HandInput {
            melds,
            standing,
            winning_tile: Some(Tile::from_code(&self.win_tile)?),
        };
        let context = WinContext {
            method: if self.self_drawn {
                WinMethod::SelfDrawn
            } else {
                WinMethod::Discard
            },
            robbing_kong: self.kong_related && !self.self_drawn,
            replacement_draw: self.kong_related && self.self_drawn,
            last_tile: self.last_tile,
            last_copy: self.fourth_tile,
            seat_wind: *Wind::ALL.get(self.seat_wind)?,
            prevalent_wind: *Wind::ALL.get(self.prevalent_wind)?,
            flowers: self.flowers,
        };
        Some((hand, context))
    }

    /// The expected error code, if the case is not a win.
    pub fn error(&self) -> Option<&str> {
        self.expected.get("error").and_then(|e| e.as_str())
    }
}

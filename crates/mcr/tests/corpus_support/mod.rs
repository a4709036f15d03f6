//! The public corpus (`tests/data/public.jsonl`) as engine inputs: the hand and context of
//! every case that expects a score, built from its fields as the server's corpus test builds
//! them. Shared by the allocation test and the `score_corpus` example.

use mcr::{Claim, HandInput, MeldInput, MeldKind, Tile, WinContext, WinMethod, Wind};
use serde_json::Value;

/// The hand and context of every case that expects a score (not an error), in file order.
pub fn scored_cases() -> Vec<(HandInput, WinContext)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/public.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|case| case["expected"].get("error").is_none())
        .filter_map(|case| input(&case))
        .collect()
}

fn tiles(v: &Value) -> Option<Vec<Tile>> {
    v.as_array()?
        .iter()
        .map(|t| Tile::from_code(t.as_str()?))
        .collect()
}

fn flag(case: &Value, name: &str) -> bool {
    case[name].as_bool().unwrap_or(false)
}

/// The hand and context of one corpus case, as the server's corpus test builds them.
fn input(case: &Value) -> Option<(HandInput, WinContext)> {
    let mut melds = Vec::new();
    for m in case["melds"].as_array()? {
        let kind = match m["kind"].as_str()? {
            "chow" => MeldKind::Chow,
            "pung" => MeldKind::Pung,
            "kong" => MeldKind::Kong,
            "concealed_kong" => MeldKind::ConcealedKong,
            _ => return None,
        };
        melds.push(MeldInput {
            kind,
            tiles: tiles(&m["tiles"])?,
            claimed_from: Claim::from_digit(u8::try_from(m["claimed_from"].as_u64()?).ok()?),
            promoted: false,
            claimed_tile: None,
        });
    }
    let self_drawn = flag(case, "self_drawn");
    let kong = flag(case, "kong_related");
    let wind = |name: &str| {
        usize::try_from(case[name].as_u64()?)
            .ok()
            .and_then(|i| Wind::ALL.get(i).copied())
    };
    Some((
        HandInput {
            melds,
            standing: tiles(&case["concealed"])?,
            winning_tile: Some(Tile::from_code(case["win_tile"].as_str()?)?),
        },
        WinContext {
            method: if self_drawn {
                WinMethod::SelfDrawn
            } else {
                WinMethod::Discard
            },
            robbing_kong: kong && !self_drawn,
            replacement_draw: kong && self_drawn,
            last_tile: flag(case, "last_tile"),
            last_copy: flag(case, "fourth_tile"),
            seat_wind: wind("seat_wind")?,
            prevalent_wind: wind("prevalent_wind")?,
            flowers: u8::try_from(case["flowers"].as_u64()?).ok()?,
        },
    ))
}

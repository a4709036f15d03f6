//! `actions`: a seat's legal actions from its view (`LegalActionsRequest` in proto3 JSON),
//! as `LegalActions` returns them: a readable list, or the response as JSON.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::Args;

use super::accounting::read_request;
use super::text::{EXIT_INVALID, violations_text};
use crate::api::KeptRules;
use crate::api::kit::json;
use crate::api::{pb, play};

/// Arguments of `actions`.
#[derive(Debug, Args)]
pub struct ActionsArgs {
    /// The `LegalActionsRequest` in proto3 JSON, or `@FILE`; read from standard input when
    /// absent.
    #[arg(value_name = "JSON|@FILE")]
    pub request: Option<String>,
    /// Print the `LegalActionsResponse` as proto3 JSON instead of a list.
    #[arg(long)]
    pub json: bool,
}

/// `actions`: the legal actions on `out`, problems on `err`.
pub fn actions(
    args: &ActionsArgs,
    stdin: &mut impl Read,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    let text = match read_request(args.request.as_deref(), stdin) {
        Ok(text) => text,
        Err(message) => {
            writeln!(err, "mahjong-referee actions: {message}")?;
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let request = match json::from_json::<pb::LegalActionsRequest>(&text) {
        Ok(r) => r,
        Err(e) => {
            writeln!(err, "mahjong-referee actions: {}", e.message)?;
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    match play::legal_actions_of(&request, &KeptRules::default()) {
        Err(violations) => {
            write!(err, "{}", violations_text(&violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Ok(response) if args.json => {
            let text = json::to_json::<pb::LegalActionsResponse>(&response, true)
                .map_err(io::Error::other)?;
            writeln!(out, "{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(response) => {
            write!(out, "{}", actions_text(&response))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn tile_name(number: i32) -> String {
    crate::api::kit::values::tile_from_pb(number).map_or_else(|| "?".to_owned(), |t| t.to_string())
}

/// One line per action; a win with its total, a claim with what it leaves.
fn actions_text(response: &pb::LegalActionsResponse) -> String {
    let mut out = String::new();
    if response.actions.is_empty() {
        out.push_str("pass (no action is offered)\n");
    }
    for a in &response.actions {
        let name = pb::PlayAction::try_from(a.action).map_or("?", |k| match k {
            pb::PlayAction::Unspecified => "?",
            pb::PlayAction::Draw => "draw",
            pb::PlayAction::Flower => "flower",
            pb::PlayAction::Discard => "discard",
            pb::PlayAction::Chow => "chow",
            pb::PlayAction::Pung => "pung",
            pb::PlayAction::Kong => "kong",
            pb::PlayAction::ConcealedKong => "concealed kong",
            pb::PlayAction::AddedKong => "added kong",
            pb::PlayAction::Win => "win",
        });
        let _ = write!(out, "{name} {}", tile_name(a.tile));
        if let Some(win) = &a.win {
            let fans: Vec<String> = win
                .fans
                .iter()
                .map(|f| format!("{} {}", f.name_zh, f.points * f.count))
                .collect();
            let _ = write!(out, ": {} fan ({})", win.fan_total, fans.join(", "));
        }
        if let Some(call) = a.call.as_ref().and_then(|c| c.analysis.as_ref()) {
            let _ = write!(out, ": then {}", call_text(call));
        }
        out.push('\n');
    }
    out
}

/// What a claim leaves, in a few words: ready with its waits, or how far from ready.
fn call_text(a: &pb::AnalyzeHandResponse) -> String {
    // After a chow or pung: the best discard (the table is best first).
    if let Some(best) = a.discards.first() {
        let waits: Vec<String> = best
            .waits
            .iter()
            .map(|w| {
                let total = w.on_discard.as_ref().map_or(0, |s| s.total);
                format!("{} worth {total}", tile_name(w.tile))
            })
            .collect();
        return if best.shanten == 0 {
            format!(
                "discard {}: ready, {} wait(s): {}",
                tile_name(best.tile),
                waits.len(),
                waits.join(", ")
            )
        } else {
            format!(
                "discard {}: {} from ready",
                tile_name(best.tile),
                best.shanten
            )
        };
    }
    if a.shanten == 0 {
        format!("ready, {} wait(s)", a.waits.len())
    } else {
        format!("{} from ready", a.shanten)
    }
}

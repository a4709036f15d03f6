//! `mahjong-referee analyze`: a hand in play from its notation and flags, or
//! `AnalyzeHandRequest`s as JSON Lines.

use super::score::TableArgs;
use super::text::{EXIT_INVALID, LastColumn, table, tiles_text, violations_text};
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::Args;
use mcr::Violation;

use crate::api::KeptRules;
use crate::api::kit::{json, values};
use crate::api::{analysis, pb};

/// Arguments of `analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The hand in calculator notation without a winning tile: declared melds in brackets,
    /// then 13 − 3·melds concealed tiles (waiting) or 14 − 3·melds (just drawn, the drawn
    /// tile last), e.g. `[123m]4567m22p345s`.
    #[arg(required_unless_present = "jsonl")]
    pub notation: Option<String>,
    /// Tiles seen on the table outside the hand (discards, other melds), e.g. `44m7m9pEE`.
    #[arg(long, value_name = "TILES", default_value = "")]
    pub visible: String,
    /// Seat, prevalent wind, flowers and ruleset.
    #[command(flatten)]
    pub table: TableArgs,
    /// Print the `AnalyzeHandResponse` as proto3 JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Read `AnalyzeHandRequest` JSON objects from stdin, one per line, and write one
    /// `AnalyzeHandResponse` JSON object (or an error object) per line to stdout.
    #[arg(
        long,
        conflicts_with_all = ["notation", "visible", "seat", "prevalent", "flowers", "ruleset", "overrides", "json"]
    )]
    pub jsonl: bool,
}

/// `analyze '<notation>'`: the analysis as a table (or JSON) on `out`, violations on `err`.
pub fn analyze_one(
    args: &AnalyzeArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    let visible = match mcr::notation::parse_tiles(&args.visible) {
        Ok(tiles) => tiles.into_iter().map(values::tile_to_pb).collect(),
        Err(e) => {
            writeln!(err, "invalid --visible tiles: {e}")?;
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let request = pb::AnalyzeHandRequest {
        hand_input: Some(pb::analyze_hand_request::HandInput::Notation(
            args.notation.clone().unwrap_or_default(),
        )),
        context: Some(pb::AnalysisContext {
            seat_wind: values::wind_to_pb(args.table.seat) as i32,
            prevalent_wind: values::wind_to_pb(args.table.prevalent) as i32,
            flower_count: u32::from(args.table.flowers),
        }),
        ruleset: values::ruleset_to_pb(args.table.rules.ruleset) as i32,
        visible_tiles: visible,
        view: pb::ScoreView::Basic as i32,
        overrides: args.table.rules.overrides.clone(),
    };
    match analysis::analyze_hand(&request, &KeptRules::default()) {
        Err(violations) => {
            write!(err, "{}", violations_text(&violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Ok(response) => {
            if args.json {
                let text = json::to_json::<pb::AnalyzeHandResponse>(&response, true)
                    .map_err(io::Error::other)?;
                writeln!(out, "{text}")?;
            } else {
                write!(out, "{}", analysis_text(&response))?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `analyze --jsonl`: one line per non-blank request line, in order: the response, or an
/// error object with every violation; the run goes on after either.
pub fn analyze_jsonl(input: &mut impl BufRead, out: &mut impl Write) -> io::Result<ExitCode> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let response = match std::str::from_utf8(&buf) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => analyze_json_line(line),
            Err(e) => {
                json::error_line("REQUEST_UNPARSABLE", &format!("the line is not UTF-8: {e}"))
            }
        };
        writeln!(out, "{response}")?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One JSON Lines answer.
fn analyze_json_line(line: &str) -> String {
    match json::from_json::<pb::AnalyzeHandRequest>(line) {
        Err(e) => json::error_line("REQUEST_UNPARSABLE", &e.message),
        Ok(request) => match analysis::analyze_hand(&request, &KeptRules::default()) {
            Ok(response) => json::to_json::<pb::AnalyzeHandResponse>(&response, false)
                .unwrap_or_else(|e| json::error_line("INTERNAL", &e.message)),
            Err(violations) => invalid_line(&violations),
        },
    }
}

/// The error object of a request with violations: code `INVALID_REQUEST`, each violation
/// with its code, field and message.
fn invalid_line(violations: &[Violation]) -> String {
    let list: Vec<serde_json::Value> = violations
        .iter()
        .map(|v| serde_json::json!({ "code": v.code.as_str(), "field": v.path.to_string(), "message": v.message }))
        .collect();
    serde_json::json!({
        "error": {
            "code": "INVALID_REQUEST",
            "message": format!("the request is malformed: {} violation(s)", violations.len()),
            "violations": list,
        }
    })
    .to_string()
}

fn tile_text(tile: i32) -> String {
    tiles_text(&[tile])
}

fn shape_name(shape: i32) -> &'static str {
    match pb::Shape::try_from(shape) {
        Ok(pb::Shape::Standard) => "standard",
        Ok(pb::Shape::SevenPairs) => "seven pairs",
        Ok(pb::Shape::ThirteenOrphans) => "thirteen orphans",
        Ok(pb::Shape::HonorsAndKnitted) => "honours and knitted",
        Ok(pb::Shape::KnittedStraight) => "knitted straight",
        Ok(pb::Shape::Unspecified) | Err(_) => "?",
    }
}

/// A wait's score for people: `WIN 12`, `BELOW 6`.
fn score_text(score: Option<&pb::ScoreHandResponse>) -> String {
    let Some(s) = score else {
        return "-".to_owned();
    };
    let outcome = match pb::Outcome::try_from(s.outcome) {
        Ok(pb::Outcome::Win) => "WIN",
        Ok(pb::Outcome::BelowMinimum) => "under 8:",
        Ok(pb::Outcome::NotWinningShape | pb::Outcome::Invalid | pb::Outcome::Unspecified)
        | Err(_) => "?",
    };
    format!("{outcome} {}", s.total)
}

fn useful_text(useful: &[pb::UsefulTile]) -> String {
    useful
        .iter()
        .map(|u| format!("{}×{}", tile_text(u.tile), u.remaining))
        .collect::<Vec<_>>()
        .join(" ")
}

fn waits_table(waits: &[pb::WaitingTile], indent: usize) -> String {
    let mut rows = vec![vec![
        "wait".to_owned(),
        "left".to_owned(),
        "on a discard".to_owned(),
        "self-drawn".to_owned(),
    ]];
    for w in waits {
        rows.push(vec![
            tile_text(w.tile),
            w.remaining.to_string(),
            if w.dead {
                "dead: all four held".to_owned()
            } else {
                score_text(w.on_discard.as_ref())
            },
            score_text(w.on_self_drawn.as_ref()),
        ]);
    }
    table(&rows, indent, LastColumn::Left)
}

/// The analysis as text: distance, shapes, useful tiles, waits or the discard table.
pub fn analysis_text(r: &pb::AnalyzeHandResponse) -> String {
    let mut out = String::new();
    let drawn = r.state == pb::HandState::Drawn as i32;
    let shanten = match r.shanten {
        -1 => "-1 (complete)".to_owned(),
        0 => "0 (ready)".to_owned(),
        n => format!("{n} (tiles short of ready)"),
    };
    let _ = writeln!(
        out,
        "State      {}",
        if drawn {
            "just drawn: discard one"
        } else {
            "waiting for a tile"
        }
    );
    let _ = writeln!(out, "Shanten    {shanten}");
    let shapes: Vec<String> = r
        .shapes
        .iter()
        .map(|s| format!("{} {}", shape_name(s.shape), s.shanten))
        .collect();
    let _ = writeln!(out, "Shapes     {}", shapes.join(" · "));
    if !drawn {
        let _ = writeln!(out, "Useful     {}", useful_text(&r.useful));
    }
    if !r.waits.is_empty() {
        let _ = writeln!(out, "\n{}", waits_table(&r.waits, 2));
        let _ = writeln!(
            out,
            "Ready to win: {}",
            if r.ready_to_win {
                "yes"
            } else {
                "no: no wait with copies left reaches 8 fan"
            }
        );
    }
    if let Some(complete) = &r.complete {
        let _ = writeln!(
            out,
            "Complete   self-drawn on the last tile: {}",
            score_text(Some(complete))
        );
    }
    if drawn {
        let mut rows = vec![vec![
            "discard".to_owned(),
            "shanten".to_owned(),
            "useful copies".to_owned(),
            "winning copies".to_owned(),
            "waits / useful tiles".to_owned(),
        ]];
        for d in &r.discards {
            let tiles = if d.waits.is_empty() {
                useful_text(&d.useful)
            } else {
                d.waits
                    .iter()
                    .map(|w| {
                        format!(
                            "{} {}",
                            tile_text(w.tile),
                            score_text(w.on_discard.as_ref())
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            rows.push(vec![
                tile_text(d.tile),
                d.shanten.to_string(),
                d.useful_count.to_string(),
                d.winning_count.to_string(),
                tiles,
            ]);
        }
        let _ = writeln!(
            out,
            "\nDiscards (best first)\n{}",
            table(&rows, 2, LastColumn::Left)
        );
    }
    out
}

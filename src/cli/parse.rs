//! `mahjong-referee parse`: notation in any of its forms read back as the hand it denotes
//! (the `ParseHand` RPC): canonical notation, glyphs, melds and tile counts.

use super::text::{EXIT_INVALID, tiles_text, violations_text};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;

use crate::api::kit::{json, path, values};
use crate::api::{pb, scoring};

/// Arguments of `parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The hand in notation, in any form: `[123m2]…`, `[123m,2]…`, `1234567z` honours, tile
    /// glyphs, with spaces or not.
    pub notation: String,
    /// Print the `ParseHandResponse` as proto3 JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `parse '<notation>'`: the hand as text (or JSON) on `out`, violations on `err`.
pub fn parse_one(
    args: &ParseArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    let request = pb::ParseHandRequest {
        notation: args.notation.clone(),
    };
    match scoring::parse_hand(&request) {
        Err(violations) => {
            let violations: Vec<_> = violations.into_iter().map(path::hand_violation).collect();
            write!(err, "{}", violations_text(&violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Ok(response) if args.json => {
            let text = json::to_json::<pb::ParseHandResponse>(&response, true)
                .map_err(io::Error::other)?;
            writeln!(out, "{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(response) => {
            write!(out, "{}", parsed_text(&response))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The parsed hand as text: canonical notation, glyphs, melds, standing tiles, counts.
pub fn parsed_text(r: &pb::ParseHandResponse) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Notation   {}", r.notation);
    let _ = writeln!(out, "Glyphs     {}", r.glyphs);
    let hand = r.hand.clone().unwrap_or_default();
    for (i, m) in hand.melds.iter().enumerate() {
        let kind = match pb::MeldKind::try_from(m.kind) {
            Ok(pb::MeldKind::Chow) => "chow",
            Ok(pb::MeldKind::Pung) => "pung",
            Ok(pb::MeldKind::Kong) if m.promoted => "promoted kong",
            Ok(pb::MeldKind::Kong) => "melded kong",
            Ok(pb::MeldKind::ConcealedKong) => "concealed kong",
            Ok(pb::MeldKind::Unspecified) | Err(_) => "?",
        };
        let mut detail = String::new();
        if m.claimed_tile != pb::Tile::Unspecified as i32 {
            let _ = write!(detail, ", claimed tile {}", tiles_text(&[m.claimed_tile]));
        }
        let from = match pb::ClaimSource::try_from(m.claimed_from) {
            Ok(pb::ClaimSource::Left) => ", from the left",
            Ok(pb::ClaimSource::Opposite) => ", from opposite",
            Ok(pb::ClaimSource::Right) => ", from the right",
            Ok(pb::ClaimSource::Unspecified) | Err(_) => "",
        };
        let label = if i == 0 { "Melds" } else { "" };
        let _ = writeln!(
            out,
            "{label:<11}{kind} {}{detail}{from}",
            tiles_text(&m.tiles)
        );
    }
    let _ = writeln!(out, "Standing   {}", tiles_text(&hand.standing_tiles));
    let _ = writeln!(out, "Winning    {}", tiles_text(&[hand.winning_tile]));
    let counts: Vec<String> = r
        .tile_counts
        .iter()
        .map(|c| {
            let tile =
                values::tile_from_pb(c.tile).map_or_else(|| "?".to_owned(), |t| t.to_string());
            format!("{tile}×{}", c.count)
        })
        .collect();
    let _ = writeln!(out, "Counts     {}", counts.join(" "));
    out
}

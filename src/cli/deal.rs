//! `deal`: the deal and the wall of a 32-byte seed (`mcr::play::seed`, `docs/deal.md`),
//! with the commitment SHA-256(seed) a table publishes before the hand.
//!
//! Without `--json`, the match header in Botzone's line format, ready to append events:
//! `Match <commitment>`, `Wind <0-3>` and the four `Player n Deal …` lines. With `--json`,
//! one object: `{"commitment","wind","deal":[[13 codes] ×4],"wall":[84 codes]}`, each seat's
//! tiles in dealing order and the wall in drawing order.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use mcr::play::Seed;
use mcr::play::botzone;
use mcr::{Seat, Tile, Wind};

use super::match_json;
use super::replay::parse_seed;
use super::score::parse_wind;

/// Arguments of `deal`.
#[derive(Debug, Args)]
pub struct DealArgs {
    /// The seed: 64 hexadecimal digits (32 bytes).
    #[arg(long, value_name = "HEX", value_parser = parse_seed)]
    pub seed: Seed,
    /// The prevalent wind (it sets the `Wind` line only: the seats' slices never rotate).
    #[arg(long, value_name = "E|S|W|N", value_parser = parse_wind, default_value = "E")]
    pub wind: Wind,
    /// One JSON object instead of the match header.
    #[arg(long)]
    pub json: bool,
}

/// `deal --seed HEX`: the seed's deal on `out`.
pub fn deal(args: &DealArgs, out: &mut impl Write) -> io::Result<ExitCode> {
    let deal = args.seed.deal();
    let commitment = args.seed.commitment();
    let wind = Seat::from_wind(args.wind).index();
    let codes = |tiles: &[Tile]| -> Vec<String> { tiles.iter().map(|t| t.code()).collect() };
    if args.json {
        let dealt = match_json::Dealt {
            commitment,
            wind,
            deal: Seat::ALL.iter().map(|&s| codes(&deal.hands[s])).collect(),
            wall: codes(&deal.wall),
        };
        out.write_all(match_json::line(&dealt).as_bytes())?;
    } else {
        let header = botzone::write_match(&commitment, &deal.record(args.wind), None);
        out.write_all(header.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

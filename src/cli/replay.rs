//! `replay`: whole hands refereed from their records, in Botzone's line format
//! (`mcr::play::botzone`): every event judged, the win's circumstances derived from the log,
//! the score and the points.
//!
//! With `--json`, one object per match per line, in input order:
//! `{"match","winner","fan","scores","violations":[{"line","code","message"}],"derived"}`;
//! a match that cannot be read gives `{"match","error":{"line","code","message"}}` with the
//! other fields null. The exit status is 0 whenever the input was read.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use mcr::play::botzone::{self, BotzoneMatch, RecordError, RecordErrorCode, read_matches};
use mcr::play::{PlayFinding, Replay, ReplayOptions, Seed, Unplayable, replay_record};
use mcr::ruleset::{AddedKongTile, WallRule};
use mcr::{Ruleset, RulesetId, Seat};

use super::match_json;
use super::text::EXIT_INVALID;

/// The format of the records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RecordFormat {
    /// Botzone's line format (`Match`, `Wind`, `Player n Deal …`, …).
    Botzone,
}

/// The wall the hands were played from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WallArg {
    /// One shared wall of 136 tiles: 84 draws after the deal (the MCR rule).
    Shared,
    /// One shared wall of 144 tiles with the flowers: 92 draws after the deal.
    #[value(name = "shared-144")]
    Shared144,
    /// Botzone's judge: each seat draws from its own wall of 21; an added kong may use a
    /// tile held since earlier.
    Botzone,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The records: a file, or `-` for standard input; matches are separated by blank lines.
    #[arg(value_name = "FILE|-")]
    pub file: String,
    /// The format of the records.
    #[arg(long, value_enum, default_value = "botzone")]
    pub format: RecordFormat,
    /// The ruleset the wins are scored under (default: MIL for Botzone's records).
    #[arg(long, value_name = "chinese-official-1998|mil|green-book-2006")]
    pub ruleset: Option<RulesetId>,
    /// The wall.
    #[arg(long, value_enum, default_value = "shared")]
    pub wall: WallArg,
    /// The seed the hands were dealt from (64 hex digits, `mahjong-referee deal`): each deal
    /// and draw is checked against it. One shared 136-tile wall only.
    #[arg(long, value_name = "HEX", value_parser = parse_seed)]
    pub seed: Option<Seed>,
    /// One JSON object per match per line instead of a readable account.
    #[arg(long)]
    pub json: bool,
}

/// A seed given on the command line: 64 hexadecimal digits.
pub(crate) fn parse_seed(s: &str) -> Result<Seed, String> {
    Seed::from_hex(s).map_err(|e| e.to_string())
}

/// The ruleset with the play switches `args` choose.
fn ruleset(args: &ReplayArgs) -> Ruleset<'static> {
    ruleset_for(
        args.ruleset.unwrap_or(match args.format {
            RecordFormat::Botzone => botzone::DEFAULT_RULESET,
        }),
        args.wall,
    )
}

/// The ruleset `id` with the play switches of `wall`.
pub(crate) fn ruleset_for(id: RulesetId, wall: WallArg) -> Ruleset<'static> {
    let mut rules = *Ruleset::get(id);
    match wall {
        WallArg::Shared => rules.play.wall = WallRule::Shared136,
        WallArg::Shared144 => rules.play.wall = WallRule::Shared144,
        WallArg::Botzone => {
            rules.play.wall = WallRule::Botzone;
            rules.play.added_kong_tile = AddedKongTile::AnyHeld;
        }
    }
    rules
}

/// `replay FILE`: every match refereed, on `out`.
pub fn replay_file(
    args: &ReplayArgs,
    stdin: &mut impl Read,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    if let Some(problem) = seed_refused(args.seed.as_ref(), args.wall) {
        writeln!(err, "mahjong-referee replay: {problem}")?;
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    let text = match read_input(&args.file, stdin) {
        Ok(text) => text,
        Err(e) => {
            writeln!(
                err,
                "mahjong-referee replay: cannot read {}: {e}",
                args.file
            )?;
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let rules = ruleset(args);
    for (id, read) in read_matches(&text) {
        let line = match read {
            Ok(m) => {
                match replay_record(
                    &m.record,
                    &rules,
                    ReplayOptions::default(),
                    args.seed.as_ref(),
                ) {
                    Ok(r) if args.json => match_json(&m, &r),
                    Ok(r) => match_text(&m, &r, &rules),
                    Err(Unplayable::Deal(found)) => {
                        let e = deal_error(&m, &found);
                        if args.json {
                            error_json(Some(&m.id), &e)
                        } else {
                            unreadable_text(Some(&m.id), &e)
                        }
                    }
                    Err(Unplayable::Seed(v)) => {
                        writeln!(err, "mahjong-referee replay: {}: {}", v.path, v.message)?;
                        return Ok(ExitCode::from(EXIT_INVALID));
                    }
                }
            }
            Err(e) if args.json => error_json(id.as_deref(), &e),
            Err(e) => unreadable_text(id.as_deref(), &e),
        };
        out.write_all(line.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The file's text, or standard input's for `-`.
pub(crate) fn read_input(file: &str, stdin: &mut impl Read) -> io::Result<String> {
    if file == "-" {
        let mut text = String::new();
        stdin.read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(file)
    }
}

/// Why `--seed` cannot be used with `wall`, if it cannot: a seed deals one shared wall of
/// 136 tiles.
pub(crate) fn seed_refused(seed: Option<&Seed>, wall: WallArg) -> Option<&'static str> {
    seed?;
    match wall {
        WallArg::Shared => None,
        WallArg::Shared144 => Some(
            "--seed deals one shared wall of 136 tiles without flowers; it cannot be used with --wall shared-144",
        ),
        WallArg::Botzone => Some(
            "--seed deals one shared wall of 136 tiles; it cannot be used with --wall botzone (Botzone's per-seat walls are not a shared wall)",
        ),
    }
}

/// A deal that cannot be played (a fifth copy, a seat dealt other than 13 tiles) makes the
/// match unreadable, as text that is not the format does: the first of its findings (`found`,
/// [`mcr::play::Unplayable::Deal`]) at its line.
pub(crate) fn deal_error(m: &BotzoneMatch, found: &[PlayFinding]) -> RecordError {
    let first = found
        .iter()
        .find(|f| matches!(f.at, mcr::play::At::Deal(_)))
        .or(found.first());
    let (line, message) = first.map_or_else(
        || (1, "the deal cannot be played".to_owned()),
        |f| {
            (
                m.line_of(f.at),
                format!("{}: {}", f.code.as_str(), f.message),
            )
        },
    );
    RecordError {
        line,
        code: RecordErrorCode::DealInvalid,
        message,
    }
}

/// The findings with their lines, in line order.
fn findings(m: &BotzoneMatch, r: &Replay) -> Vec<(usize, &'static str, String)> {
    findings_of(m, &r.findings)
}

/// `findings` with their lines, in line order.
pub(crate) fn findings_of(
    m: &BotzoneMatch,
    findings: &[PlayFinding],
) -> Vec<(usize, &'static str, String)> {
    let mut found: Vec<(usize, &'static str, String)> = findings
        .iter()
        .map(|v| (m.line_of(v.at), v.code.as_str(), v.message.clone()))
        .collect();
    found.sort_by_key(|f| f.0);
    found
}

fn match_json(m: &BotzoneMatch, r: &Replay) -> String {
    let found = findings(m, r);
    match_json::line(&match_json::Refereed::new(&m.id, r, &found))
}

pub(crate) fn error_json(id: Option<&str>, e: &RecordError) -> String {
    match_json::line(&match_json::Unreadable::new(
        id,
        e,
        match_json::RefereedNulls::default(),
    ))
}

/// The readable line of a match that cannot be read.
pub(crate) fn unreadable_text(id: Option<&str>, e: &RecordError) -> String {
    format!("Match {}: cannot be read: {e}\n", id.unwrap_or("?"))
}

pub(crate) fn seat_name(seat: Seat) -> String {
    format!("player {} ({seat})", seat.index())
}

/// A readable account of one match.
fn match_text(m: &BotzoneMatch, r: &Replay, rules: &Ruleset) -> String {
    let mut out = format!("Match {}\n", m.id);
    out.push_str(&result_text(r, rules));
    out.push_str(&findings_text(&findings(m, r)));
    out
}

/// The result of a replayed hand, readable: the win and its fans, the draw game, or none;
/// the points.
pub(crate) fn result_text(r: &Replay, rules: &Ruleset) -> String {
    let mut out = String::new();
    match &r.end {
        mcr::play::ReplayEnd::Win(w) => {
            let how = match w.source {
                mcr::declaration::WinSource::SelfDrawn => "self-drawn".to_owned(),
                mcr::declaration::WinSource::Discard { discarder } => {
                    format!("on the discard of {}", seat_name(discarder))
                }
                mcr::declaration::WinSource::RobbingKong { robbed } => {
                    format!("robbing the kong of {}", seat_name(robbed))
                }
            };
            let _ = writeln!(
                out,
                "  {} wins on {} {how}: {} fan",
                seat_name(w.seat),
                w.tile.code(),
                w.scoring.fan_total
            );
            let mut fans = String::new();
            for (fan, count) in w.scoring.fans.iter() {
                let _ = write!(fans, " {} {}", fan.spec().name_zh, rules.points(fan));
                if count > 1 {
                    let _ = write!(fans, "×{count}");
                }
                fans.push(';');
            }
            let _ = writeln!(out, "  fans:{}", fans.trim_end_matches(';'));
            let c = w.circumstances;
            let flags: Vec<&str> = [
                (c.self_drawn, "self-drawn"),
                (c.kong_replacement, "kong replacement"),
                (c.robbing_kong, "robbing a kong"),
                (c.last_tile, "last tile"),
                (c.last_copy, "last copy"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| *name)
            .collect();
            if !flags.is_empty() {
                let _ = writeln!(out, "  from the log: {}", flags.join(", "));
            }
        }
        mcr::play::ReplayEnd::DrawGame => out.push_str("  draw game (荒牌)\n"),
        mcr::play::ReplayEnd::NoResult => out.push_str("  no result\n"),
    }
    if let Some(points) = r.deltas() {
        let points: Vec<String> = points.iter().map(|p| format!("{p:+}")).collect();
        let _ = writeln!(out, "  points: {}", points.join(" "));
    }
    out
}

/// Findings, readable, one a line; or that every event is legal.
pub(crate) fn findings_text(found: &[(usize, &'static str, String)]) -> String {
    let mut out = String::new();
    if found.is_empty() {
        out.push_str("  every event is legal\n");
    }
    for (line, code, message) in found {
        let _ = writeln!(out, "  line {line}: {code}: {message}");
    }
    out
}

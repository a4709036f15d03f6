//! `next`: for hands in progress in Botzone's line format (each match cut anywhere after
//! its deal), the phase and every line that may legally come next (`mcr::play::next`), read
//! as `replay` reads the records.
//!
//! With `--json`, one object per match per line, in input order:
//! `{"match","phase":"draw|act|claim|over","next":[…],"violations":[{"line","code","message"}]}`;
//! a match that cannot be read gives `{"match","error":{"line","code","message"}}` with the
//! other fields null. The exit status is 0 whenever the input was read.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::Args;
use mcr::Ruleset;
use mcr::RulesetId;
use mcr::play::botzone::{self, BotzoneMatch, RecordError, action_line, next_lines, read_matches};
use mcr::play::{NextActions, NextOptions, NextPhase, Seed, Then, Unplayable, next_actions};

use super::match_json;
use super::replay::{
    WallArg, deal_error, findings_of, findings_text, parse_seed, read_input, result_text,
    ruleset_for, seat_name, seed_refused, unreadable_text,
};
use super::text::EXIT_INVALID;

/// Arguments of `next`.
#[derive(Debug, Args)]
pub struct NextArgs {
    /// The records so far: a file, or `-` for standard input; matches are separated by blank
    /// lines, each cut anywhere from its last `Deal` line on.
    #[arg(value_name = "FILE|-")]
    pub file: String,
    /// The ruleset the wins are scored under (default: MIL, as for `replay`).
    #[arg(long, value_name = "chinese-official-1998|mil|green-book-2006")]
    pub ruleset: Option<RulesetId>,
    /// The wall.
    #[arg(long, value_enum, default_value = "shared")]
    pub wall: WallArg,
    /// The seed the hands were dealt from (64 hex digits): the deal and draws are checked
    /// against it, and the next draw names its tile. One shared 136-tile wall only.
    #[arg(long, value_name = "HEX", value_parser = parse_seed)]
    pub seed: Option<Seed>,
    /// One JSON object per match per line instead of a readable account.
    #[arg(long)]
    pub json: bool,
}

/// `next FILE`: what may come next in every match, on `out`.
pub fn next_file(
    args: &NextArgs,
    stdin: &mut impl Read,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    if let Some(problem) = seed_refused(args.seed.as_ref(), args.wall) {
        writeln!(err, "mahjong-referee next: {problem}")?;
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    let text = match read_input(&args.file, stdin) {
        Ok(text) => text,
        Err(e) => {
            writeln!(err, "mahjong-referee next: cannot read {}: {e}", args.file)?;
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let rules = ruleset_for(args.ruleset.unwrap_or(botzone::DEFAULT_RULESET), args.wall);
    let options = NextOptions {
        call_analysis: false,
        seed: args.seed,
    };
    for (id, read) in read_matches(&text) {
        let answer = match read {
            Ok(m) => match next_actions(&m.record, &rules, &options) {
                Ok(next) if args.json => next_json(&m, &next),
                Ok(next) => next_text(&m, &next, &rules),
                Err(Unplayable::Deal(found)) => {
                    unreadable(args.json, Some(&m.id), &deal_error(&m, &found))
                }
                Err(Unplayable::Seed(v)) => {
                    writeln!(err, "mahjong-referee next: {}: {}", v.path, v.message)?;
                    return Ok(ExitCode::from(EXIT_INVALID));
                }
            },
            Err(e) => unreadable(args.json, id.as_deref(), &e),
        };
        out.write_all(answer.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn unreadable(json: bool, id: Option<&str>, e: &RecordError) -> String {
    if json {
        match_json::line(&match_json::Unreadable::new(
            id,
            e,
            match_json::NextNulls::default(),
        ))
    } else {
        unreadable_text(id, e)
    }
}

fn next_json(m: &BotzoneMatch, next: &NextActions) -> String {
    let found = findings_of(m, next.findings());
    match_json::line(&match_json::NextLines {
        id: &m.id,
        phase: next.phase.as_str(),
        next: next_lines(next),
        violations: match_json::findings(&found),
    })
}

/// A readable account: the phase, each seat's choices (a win with its fan), what follows
/// when no seat acts, the result when the hand is over, and the findings.
fn next_text(m: &BotzoneMatch, next: &NextActions, rules: &Ruleset) -> String {
    let mut out = format!("Match {}\n  phase: {}\n", m.id, next.phase.as_str());
    for decision in &next.decisions {
        let choices: Vec<String> = decision
            .actions
            .iter()
            .map(|a| {
                let line = action_line(decision.seat, a.action);
                let words = line.splitn(3, ' ').nth(2).unwrap_or_default().to_owned();
                match &a.win {
                    Some(win) => format!("{words} ({} fan)", win.scoring.fan_total),
                    None => words,
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "  {}: {}",
            seat_name(decision.seat),
            choices.join(", ")
        );
    }
    let then = match next.then {
        Some(Then::Draw(draw)) => Some(format!(
            "{} draws{}{}",
            seat_name(draw.seat),
            match draw.kind {
                mcr::play::DrawKind::Normal => "",
                mcr::play::DrawKind::AfterKong
                | mcr::play::DrawKind::AfterFlower
                | mcr::play::DrawKind::DealtFlower => " a replacement",
            },
            draw.tile
                .map(|t| {
                    let line = action_line(draw.seat, mcr::play::Action::Draw(t));
                    format!(" ({})", line.rsplit(' ').next().unwrap_or_default())
                })
                .unwrap_or_default()
        )),
        Some(Then::DrawGame) => Some("the hand is a draw game (Huang)".to_owned()),
        None => None,
    };
    if let Some(then) = then {
        let when = match next.phase {
            NextPhase::Claim => "if every seat passes",
            NextPhase::Draw | NextPhase::Act | NextPhase::Over => "next",
        };
        let _ = writeln!(out, "  {when}: {then}");
    }
    if next.phase == NextPhase::Over {
        out.push_str(&result_text(&next.replay, rules));
    }
    out.push_str(&findings_text(&findings_of(m, next.findings())));
    out
}

//! The accounting subcommands of `mahjong-referee`: `settle`, `penalty` and `standings`.
//!
//! ```text
//! mahjong-referee settle    ['<SettleHandRequest JSON>' | @request.json] [--json]
//! mahjong-referee penalty   ['<AdjudicatePenaltyRequest JSON>' | @request.json] [--json]
//! mahjong-referee standings ['<ComputeStandingsRequest JSON>' | @request.json] [--json]
//! ```
//!
//! Each reads its request in proto3 JSON (`accounting.proto`) from the argument, from a file
//! named `@file`, or from standard input when no argument is given, and prints a readable
//! sheet or, with `--json`, the response in proto3 JSON. Exit codes: 0 for a response, 2 for
//! an invalid request (every violation on stderr, one per line: `CODE at field: message`) or
//! unreadable input, 1 when the output cannot be written.

use super::text::{
    EXIT_INVALID, Lang, LastColumn, SheetLang, fraction_text, ordinal, signed, table, tiles_text,
    violations_of,
};
use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::Args;
use mcr::Violation;
use mcr::violation::FieldPath;

use crate::api::KeptRules;
use crate::api::kit::json;
use crate::api::kit::json::JsonError;
use crate::api::kit::values;
use crate::api::{accounting, pb};

/// Arguments of `settle`, `penalty` and `standings`.
#[derive(Debug, Args)]
pub struct RequestArgs {
    /// The request in proto3 JSON, or `@FILE` to read it from a file; read from standard
    /// input when absent.
    #[arg(value_name = "JSON|@FILE")]
    pub request: Option<String>,
    /// Print the response as proto3 JSON instead of a readable sheet.
    #[arg(long)]
    pub json: bool,
    /// The language of the sheet.
    #[command(flatten)]
    pub sheet: SheetLang,
}

/// `settle`: settles one hand (`SettleHandRequest` → `SettleHandResponse`).
pub fn settle(
    args: &RequestArgs,
    stdin: &mut impl Read,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    run(
        &Command {
            name: "settle",
            parse: json::from_json::<pb::SettleHandRequest>,
            call: accounting::settle_hand,
            to_json: json::to_json::<pb::SettleHandResponse>,
            sheet: settle_sheet,
        },
        args,
        stdin,
        out,
        err,
    )
}

/// `penalty`: rules offences or judges a declared win (`AdjudicatePenaltyRequest` →
/// `AdjudicatePenaltyResponse`).
pub fn penalty(
    args: &RequestArgs,
    stdin: &mut impl Read,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    run(
        &Command {
            name: "penalty",
            parse: json::from_json::<pb::AdjudicatePenaltyRequest>,
            call: accounting::adjudicate_penalty,
            to_json: json::to_json::<pb::AdjudicatePenaltyResponse>,
            sheet: penalty_sheet,
        },
        args,
        stdin,
        out,
        err,
    )
}

/// `standings`: session totals, standard points and the ranking (`ComputeStandingsRequest`
/// → `ComputeStandingsResponse`).
pub fn standings(
    args: &RequestArgs,
    stdin: &mut impl Read,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    run(
        &Command {
            name: "standings",
            parse: json::from_json::<pb::ComputeStandingsRequest>,
            call: accounting::compute_standings,
            to_json: json::to_json::<pb::ComputeStandingsResponse>,
            sheet: standings_sheet,
        },
        args,
        stdin,
        out,
        err,
    )
}

/// What one subcommand does with its request.
pub(crate) struct Command<Req, Resp> {
    pub(crate) name: &'static str,
    pub(crate) parse: fn(&str) -> Result<Req, JsonError>,
    pub(crate) call: fn(&Req, &KeptRules) -> Result<Resp, Vec<Violation>>,
    pub(crate) to_json: fn(&Resp, bool) -> Result<String, JsonError>,
    pub(crate) sheet: fn(&Req, &Resp, Lang) -> String,
}

pub(crate) fn run<Req, Resp>(
    command: &Command<Req, Resp>,
    args: &RequestArgs,
    stdin: &mut impl Read,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExitCode> {
    let name = command.name;
    let text = match read_request(args.request.as_deref(), stdin) {
        Ok(text) => text,
        Err(message) => {
            writeln!(err, "mahjong-referee {name}: {message}")?;
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let request = match (command.parse)(&text) {
        Ok(r) => r,
        Err(e) => {
            writeln!(err, "mahjong-referee {name}: invalid request: {e}")?;
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    match (command.call)(&request, &KeptRules::default()) {
        Err(violations) => {
            write!(err, "{}", violations_of("request", &violations))?;
            Ok(ExitCode::from(EXIT_INVALID))
        }
        Ok(response) => {
            if args.json {
                let text = (command.to_json)(&response, true).map_err(io::Error::other)?;
                writeln!(out, "{text}")?;
            } else {
                write!(
                    out,
                    "{}",
                    (command.sheet)(&request, &response, args.sheet.lang)
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The request text: the argument, the file after `@`, or standard input.
pub(crate) fn read_request(
    argument: Option<&str>,
    stdin: &mut impl Read,
) -> Result<String, String> {
    if let Some(arg) = argument {
        return match arg.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the request from `{path}`: {e}")),
            None => Ok(arg.to_owned()),
        };
    }
    let mut text = String::new();
    stdin
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read the request from standard input: {e}"))?;
    Ok(text)
}

pub(crate) fn seat_name(number: i32) -> &'static str {
    values::seat_from_pb(number).map_or("?", mcr::Seat::name)
}

pub(crate) fn ruleset_name(number: i32) -> &'static str {
    values::ruleset_from_pb(number).map_or("?", mcr::RulesetId::name)
}

/// An infraction's Chinese name in `lang` (`None` in English) and its English name.
pub(crate) fn infraction_names(number: i32, lang: Lang) -> (Option<&'static str>, &'static str) {
    values::infraction_kind_from_pb(number, FieldPath::ROOT)
        .map_or((lang.chinese("?", "?"), "?"), |k| {
            (lang.chinese(k.name_zh(), k.name_zh_hant()), k.name_en())
        })
}

/// The four seats' accounts: each seat's net result, then its itemised lines.
pub(crate) fn accounts_text(accounts: &[pb::SeatAccount], lang: Lang) -> String {
    let mut rows = Vec::new();
    for a in accounts {
        let mut row = vec![seat_name(a.seat).to_owned(), String::new()];
        if lang != Lang::En {
            row.push(String::new());
        }
        row.push(signed(a.delta));
        rows.push(row);
        for l in &a.lines {
            let (zh, en) = match pb::LineKind::try_from(l.kind) {
                Ok(pb::LineKind::Base) => (lang.term("底分"), "base".to_owned()),
                Ok(pb::LineKind::FanPoints) => (lang.term("基本分"), "fan points".to_owned()),
                Ok(pb::LineKind::Penalty) => {
                    let (zh, en) = infraction_names(l.infraction, lang);
                    (zh, format!("penalty: {en}"))
                }
                Ok(pb::LineKind::Unspecified) | Err(_) => (lang.chinese("?", "?"), "?".to_owned()),
            };
            let party = if l.counterparty == pb::Seat::Unspecified as i32 {
                "deducted".to_owned()
            } else if l.amount < 0 {
                format!("to {}", seat_name(l.counterparty))
            } else {
                format!("from {}", seat_name(l.counterparty))
            };
            rows.push(match zh {
                Some(zh) => vec![format!("  {zh}"), en, party, signed(l.amount)],
                None => vec![format!("  {en}"), party, signed(l.amount)],
            });
        }
    }
    table(&rows, 2, LastColumn::Right)
}

/// One sanction in plain English.
pub(crate) fn sanction_text(s: &pb::Sanction, lang: Lang) -> String {
    let graded = if s.referee_graded {
        ", graded by the referee"
    } else {
        ""
    };
    match pb::SanctionKind::try_from(s.kind) {
        Ok(pb::SanctionKind::Warning) => lang.gloss("warning", "警告"),
        Ok(pb::SanctionKind::Deduction) => match lang.term("罚分") {
            Some(zh) => format!("{} points deducted ({zh}{graded})", s.points),
            None if s.referee_graded => {
                format!("{} points deducted (graded by the referee)", s.points)
            }
            None => format!("{} points deducted", s.points),
        },
        Ok(pb::SanctionKind::PayEachOther) => {
            format!("pays {} to each other player", s.points)
        }
        Ok(pb::SanctionKind::PayTo) => {
            format!("pays {} to {}{graded}", s.points, seat_name(s.seat))
        }
        Ok(pb::SanctionKind::LoseRightToWin) => lang.gloss("may not win this hand", "停和"),
        Ok(pb::SanctionKind::DiscardExposedTiles) => lang.gloss(
            &format!("must discard the exposed tiles {}", tiles_text(&s.tiles)),
            "罚张",
        ),
        Ok(pb::SanctionKind::Disqualification) => lang.gloss("disqualified", "取消比赛资格"),
        Ok(pb::SanctionKind::SessionDeduction) => lang.gloss(
            &format!("{} points deducted from the session total", s.points),
            "局分",
        ),
        Ok(pb::SanctionKind::Forfeit) => match lang.term("局分") {
            Some(zh) => format!("forfeits the session: {zh} 0"),
            None => "forfeits the session: session total 0".to_owned(),
        },
        Ok(pb::SanctionKind::Unspecified) | Err(_) => "?".to_owned(),
    }
}

pub(crate) fn is_escalating(infraction: i32) -> bool {
    values::infraction_kind_from_pb(infraction, FieldPath::ROOT)
        .is_ok_and(|k| k.repeated_offence().is_some())
}

/// The rulings, numbered, one per line.
pub(crate) fn rulings_text(rulings: &[pb::Ruling], lang: Lang) -> String {
    let mut out = String::new();
    for (i, r) in rulings.iter().enumerate() {
        let offence = r.offence.clone().unwrap_or_default();
        let occurrence = if is_escalating(offence.infraction) || r.occurrence > 1 {
            format!(", {} in this hand", ordinal(r.occurrence))
        } else {
            String::new()
        };
        let sanctions: Vec<String> = r.sanctions.iter().map(|s| sanction_text(s, lang)).collect();
        let sanctions = if sanctions.is_empty() {
            "no sanction".to_owned()
        } else {
            sanctions.join("; ")
        };
        let name = match lang.chinese(&r.infraction_name_zh, &r.infraction_name_zh_hant) {
            Some(zh) => format!("{zh} ({})", r.infraction_name_en),
            None => r.infraction_name_en.clone(),
        };
        let _ = writeln!(
            out,
            "  {}. {}: {name}{occurrence}: {sanctions}",
            i + 1,
            seat_name(offence.offender),
        );
    }
    out
}

/// A scored hand in one block: notation, fans, totals.
pub(crate) fn score_sheet_text(sheet: &pb::ScoreHandResponse, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Hand       {}", sheet.notation);
    let rows: Vec<Vec<String>> = sheet
        .fans
        .iter()
        .map(|f| {
            let mut row: Vec<String> = lang
                .chinese(&f.name_zh, &f.name_zh_hant)
                .map(str::to_owned)
                .into_iter()
                .collect();
            row.extend([
                f.name_en.clone(),
                format!("{} ×{}", f.points, f.count),
                f.total_points.to_string(),
            ]);
            row
        })
        .collect();
    out.push_str(&table(&rows, 11, LastColumn::Right));
    let outcome = match pb::Outcome::try_from(sheet.outcome) {
        Ok(pb::Outcome::Win) => "a win",
        Ok(pb::Outcome::BelowMinimum) => "under the 8-fan minimum",
        Ok(pb::Outcome::NotWinningShape) => "not a winning shape",
        Ok(pb::Outcome::Invalid | pb::Outcome::Unspecified) | Err(_) => "?",
    };
    let _ = writeln!(
        out,
        "Score      {} fan + {} flower{} = {}: {outcome}",
        sheet.fan_total,
        sheet.flower_points,
        if sheet.flower_points == 1 { "" } else { "s" },
        sheet.total
    );
    out
}

/// A false declaration's name: the Simplified term (see [`Lang::term`]) and the English.
pub(crate) fn false_declaration_names(number: i32) -> (&'static str, &'static str) {
    match pb::FalseDeclaration::try_from(number) {
        Ok(pb::FalseDeclaration::FalseWin) => ("错和", "false win"),
        Ok(pb::FalseDeclaration::WrongWinningTile) => ("和错牌", "wrong winning tile"),
        Ok(pb::FalseDeclaration::NotReadyWin) => ("诈和", "win declared while not ready"),
        Ok(pb::FalseDeclaration::DeliberateFalseWin) => ("有意诈和", "deliberate false win"),
        Ok(pb::FalseDeclaration::Unspecified) | Err(_) => ("?", "?"),
    }
}

pub(crate) fn result_text(result: &pb::HandResult, lang: Lang) -> String {
    match pb::HandOutcome::try_from(result.outcome) {
        Ok(pb::HandOutcome::Win) => {
            let how = match pb::WinSource::try_from(result.source) {
                Ok(pb::WinSource::SelfDrawn) => lang.gloss("self-drawn", "自摸"),
                Ok(pb::WinSource::Discard) => {
                    lang.gloss(&format!("on {}'s discard", seat_name(result.payer)), "点和")
                }
                Ok(pb::WinSource::RobbingKong) => lang.gloss(
                    &format!("robbing {}'s kong", seat_name(result.payer)),
                    "抢杠和",
                ),
                Ok(pb::WinSource::Unspecified) | Err(_) => "?".to_owned(),
            };
            let points = match lang.term("基本分") {
                Some(zh) => format!("{zh} {} (fan points with flowers)", result.basic_points),
                None => format!("{} fan points with flowers", result.basic_points),
            };
            format!("{} wins {how}: {points}", seat_name(result.declarer))
        }
        Ok(pb::HandOutcome::FalseDeclaration) => {
            let (zh, en) = false_declaration_names(result.false_declaration);
            format!(
                "{}'s declaration is false: {}, ruled as a penalty; the hand goes on",
                seat_name(result.declarer),
                lang.named(zh, en)
            )
        }
        Ok(pb::HandOutcome::DrawGame) => {
            format!("{}: no win payments", lang.gloss("draw game", "荒牌"))
        }
        Ok(pb::HandOutcome::Unspecified) | Err(_) => "?".to_owned(),
    }
}

/// The readable sheet of a settled hand.
pub fn settle_sheet(
    _request: &pb::SettleHandRequest,
    r: &pb::SettleHandResponse,
    lang: Lang,
) -> String {
    let mut out = String::new();
    if let Some(result) = &r.result {
        let _ = writeln!(out, "Result     {}", result_text(result, lang));
    }
    if let Some(c) = &r.claim_resolution {
        let intercepted: Vec<&str> = c.intercepted.iter().map(|&s| seat_name(s)).collect();
        let _ = writeln!(
            out,
            "Claims     {} wins, first in turn after the discarder; {}: {}",
            seat_name(c.winner),
            lang.gloss("intercepted", "截和"),
            if intercepted.is_empty() {
                "none".to_owned()
            } else {
                intercepted.join(", ")
            }
        );
    }
    let _ = writeln!(out, "Ruleset    {}", ruleset_name(r.ruleset));
    if let Some(sheet) = &r.score_sheet {
        out.push('\n');
        out.push_str(&score_sheet_text(sheet, lang));
    }
    out.push('\n');
    out.push_str(&accounts_text(&r.accounts, lang));
    if !r.rulings.is_empty() {
        let _ = writeln!(out, "\nRulings");
        out.push_str(&rulings_text(&r.rulings, lang));
    }
    let _ = writeln!(
        out,
        "\nUnpaid penalties  {} (deducted, received by nobody)\nSum of deltas     {}",
        r.unpaid_penalties,
        signed(r.unbalanced_by)
    );
    out
}

pub(crate) fn verdict_text(j: &pb::WinJudgement, lang: Lang) -> String {
    let distance = match j.shanten {
        0 => "the thirteen tiles before the declared one were ready".to_owned(),
        1 => "the thirteen tiles before the declared one were 1 tile short of ready".to_owned(),
        n => format!("the thirteen tiles before the declared one were {n} tiles short of ready"),
    };
    match pb::WinVerdict::try_from(j.verdict) {
        Ok(pb::WinVerdict::Valid) => "valid win: a winning shape of at least 8 fan".to_owned(),
        Ok(pb::WinVerdict::FalseWin) => format!(
            "{}: a winning shape under 8 fan",
            lang.named("错和", "false win")
        ),
        Ok(pb::WinVerdict::WrongWinningTile) => format!(
            "{}: not a winning shape; {distance}",
            lang.named("和错牌", "wrong winning tile")
        ),
        Ok(pb::WinVerdict::NotReadyWin) => format!(
            "{}: {distance}",
            lang.named("诈和", "win declared while not ready")
        ),
        Ok(pb::WinVerdict::DeliberateFalseWin) => format!(
            "{}: {distance}",
            lang.named("有意诈和", "deliberate false win")
        ),
        Ok(pb::WinVerdict::Unspecified) | Err(_) => "?".to_owned(),
    }
}

/// The readable sheet of a penalty ruling or a assessed declaration.
pub fn penalty_sheet(
    request: &pb::AdjudicatePenaltyRequest,
    r: &pb::AdjudicatePenaltyResponse,
    lang: Lang,
) -> String {
    let mut out = String::new();
    if let Some(d) = &request.declared_win {
        let from = match pb::WinSource::try_from(d.source) {
            Ok(pb::WinSource::SelfDrawn) => "on a self-drawn tile".to_owned(),
            Ok(pb::WinSource::Discard) => format!("on {}'s discard", seat_name(d.discarder)),
            Ok(pb::WinSource::RobbingKong) => {
                format!("robbing {}'s kong", seat_name(d.discarder))
            }
            Ok(pb::WinSource::Unspecified) | Err(_) => "?".to_owned(),
        };
        let declares = match lang.term("和") {
            Some(zh) => format!("declares {zh}"),
            None => "declares a win".to_owned(),
        };
        let _ = writeln!(
            out,
            "Declared   {} {declares} {from}",
            seat_name(d.declarer)
        );
    }
    if let Some(j) = &r.judgement {
        let _ = writeln!(out, "Verdict    {}", verdict_text(j, lang));
    }
    let _ = writeln!(out, "Ruleset    {}", ruleset_name(r.ruleset));
    if let Some(sheet) = r.judgement.as_ref().and_then(|j| j.score_sheet.as_ref()) {
        out.push('\n');
        out.push_str(&score_sheet_text(sheet, lang));
    }
    if !r.rulings.is_empty() {
        let _ = writeln!(out, "\nRulings");
        out.push_str(&rulings_text(&r.rulings, lang));
    }
    let _ = writeln!(out, "\nPoints in the hand");
    out.push_str(&accounts_text(&r.accounts, lang));
    let _ = writeln!(
        out,
        "\nUnpaid penalties  {} (deducted, received by nobody)",
        r.unpaid_penalties
    );
    out
}

/// The readable standings table.
pub fn standings_sheet(
    _request: &pb::ComputeStandingsRequest,
    r: &pb::ComputeStandingsResponse,
    lang: Lang,
) -> String {
    let mut out = String::new();
    let method = match pb::StandardPointsMethod::try_from(r.standard_points_method) {
        Ok(pb::StandardPointsMethod::GroupFormula) => "1998 group formula (N, N-2, N-3, …, 0)",
        Ok(pb::StandardPointsMethod::Table4210) => "per table 4/2/1/0, ties share",
        Ok(pb::StandardPointsMethod::Unspecified) | Err(_) => "?",
    };
    let _ = writeln!(out, "Ruleset    {}", ruleset_name(r.ruleset));
    let _ = writeln!(out, "Standard   {method}");
    out.push('\n');
    let sessions = r.standings.first().map_or(0, |p| p.sessions.len());
    let standard = lang.term("标准分").unwrap_or("Standard");
    let total = lang.term("比赛分").unwrap_or("Total");
    let session = if lang == Lang::En { "Session " } else { "局" };
    let mut header = vec![
        "Place".to_owned(),
        "Player".to_owned(),
        standard.to_owned(),
        total.to_owned(),
        "Best".to_owned(),
        "×".to_owned(),
    ];
    header.extend((1..=sessions).map(|j| format!("{session}{j}")));
    let mut rows = vec![header];
    for p in &r.standings {
        let mut row = vec![
            p.place.to_string(),
            if p.name.is_empty() {
                format!("#{}", p.player_index)
            } else {
                p.name.clone()
            },
            fraction_text(p.standard_points.as_ref()),
            p.total_score.to_string(),
            fraction_text(p.best_session.as_ref()),
            p.top_results.to_string(),
        ];
        row.extend(p.sessions.iter().map(|s| {
            let late = if s.forfeit {
                " forfeit".to_owned()
            } else if s.late_points > 0 {
                format!(" late -{}", s.late_points)
            } else {
                String::new()
            };
            format!(
                "{} ({}){late}",
                s.score,
                fraction_text(s.standard_points.as_ref())
            )
        }));
        rows.push(row);
    }
    out.push_str(&table(&rows, 0, LastColumn::Left));
    let legend = match (lang.term("标准分"), lang.term("比赛分"), lang.term("局分")) {
        (Some(standard), Some(total), Some(session_total)) => format!(
            "{standard} standard points; {total} total of the session totals ({session_total}); Best: best single\nsession's standard points, ×: sessions reaching it; 局n: {session_total} ({standard}) of session n."
        ),
        _ => "Standard: standard points; Total: total of the session totals; Best: best single\nsession's standard points, ×: sessions reaching it; Session n: session total (standard\npoints) of session n.".to_owned(),
    };
    let _ = writeln!(out, "\n{legend}");
    out
}

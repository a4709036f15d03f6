//! Botzone's line format for Chinese Official Mahjong records, read and written.
//!
//! A match is a block of lines (blocks are separated by blank lines), numbered from 1 at its
//! `Match` line:
//!
//! ```text
//! Match <id>
//! Wind <0-3>                        prevalent wind: 0..3 = East, South, West, North
//! Player <n> Deal <13 tiles>        once for each player 0..3; player n's seat wind is wind n
//! Player <n> Draw <tile>            also a replacement draw after a kong or a flower
//! Player <n> Play <tile>            a discard
//! Player <n> Chi <middle tile>      chow of the last discard, named by its middle tile
//! Player <n> Peng|Gang <tile>       pung or exposed kong of the last discard
//! Player <n> AnGang|BuGang <tile>   concealed kong; the fourth tile added to a melded pung
//! Player <n> BuHua <flower>         a flower shown (144-tile walls only)
//! Player <n> Hu <tile>              a win
//!   … Ignore Player <m> <Chi|Peng|Gang|Hu> <tile>   after a claim: claims it overrode
//! Fan <total> <fans>                the record's fan total (flowers excluded) and fans
//! Score <4 numbers>                 net points per player
//! Huang                             a draw game
//! ```
//!
//! Tiles are `W1`–`W9`, `B1`–`B9`, `T1`–`T9`, `F1`–`F4` (E S W N), `J1`–`J3` (red, green,
//! white) and the flowers `H1`–`H8`. Keywords are read without regard to case. Text that
//! cannot be read as this format is a [`RecordError`] with its line; a record that reads is
//! judged by [`super::replay()`], whatever it holds.

use std::fmt::{self, Write as _};

use crate::ruleset::RulesetId;
use crate::seat::{BySeat, Seat};
use crate::tile::{Tile, Wind};

use super::code::At;
use super::next::{NextActions, Then};
use super::record::{Action, Drawn, Event, Flower, MAX_EVENTS, OverriddenClaim, Record};
use super::replay::{Replay, ReplayEnd};

/// The ruleset Botzone's records are scored under when the caller names none: MIL, whose
/// readings are those of the fan calculator Botzone's judge uses (an 8-fan minimum, flowers
/// not counted towards it).
pub const DEFAULT_RULESET: RulesetId = RulesetId::Mil;

/// The most lines a match may have: its events and seven lines of table and result.
pub const MAX_MATCH_LINES: usize = MAX_EVENTS + 7;

/// Why a match cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordErrorCode {
    /// A line that is not one of the format's.
    Syntax,
    /// A tile code that names no tile.
    TileUnknown,
    /// A player other than 0–3, or a wind other than 0–3.
    SeatInvalid,
    /// A chow named by a tile that cannot be the middle of one.
    ChowInvalid,
    /// The deal holds a fifth copy of a tile, or other than 13 tiles.
    DealInvalid,
    /// More lines than a hand can have.
    TooLong,
}

impl RecordErrorCode {
    /// The stable `UPPER_SNAKE_CASE` code.
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordErrorCode::Syntax => "RECORD_SYNTAX",
            RecordErrorCode::TileUnknown => "TILE_UNKNOWN",
            RecordErrorCode::SeatInvalid => "SEAT_INVALID",
            RecordErrorCode::ChowInvalid => "CHOW_INVALID",
            RecordErrorCode::DealInvalid => "DEAL_INVALID",
            RecordErrorCode::TooLong => "RECORD_TOO_LONG",
        }
    }
}

/// A match that cannot be read: where, why, and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordError {
    /// The line, 1-based within the match.
    pub line: usize,
    /// Why.
    pub code: RecordErrorCode,
    /// An English sentence a person understands.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}: {}",
            self.line,
            self.code.as_str(),
            self.message
        )
    }
}

/// A match read from the text: its id, the record, and the line of each part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotzoneMatch {
    /// The id after `Match`.
    pub id: String,
    /// The record.
    pub record: Record,
    /// The line of each seat's deal.
    pub deal_lines: BySeat<usize>,
    /// The line of each event.
    pub event_lines: Vec<usize>,
    /// The line of `Fan`, `Score` and `Huang`, when present.
    pub fan_line: Option<usize>,
    /// The line of `Score`.
    pub score_line: Option<usize>,
    /// The line of `Huang`.
    pub huang_line: Option<usize>,
    /// The fans as the `Fan` line writes them (not compared: records name fans their own way).
    pub fan_text: Option<String>,
    /// The number of lines.
    pub lines: usize,
}

impl BotzoneMatch {
    /// The line a finding is at.
    pub fn line_of(&self, at: At) -> usize {
        match at {
            At::Deal(seat) => self.deal_lines[seat],
            At::Event(i) => self.event_lines.get(i).copied().unwrap_or(self.lines),
            At::End => self.huang_line.unwrap_or(self.lines),
            At::StatedFan => self.fan_line.unwrap_or(self.lines),
            At::StatedScores => self.score_line.unwrap_or(self.lines),
            At::StatedCircumstances => self.lines,
        }
    }
}

/// The matches of a text, in order: blocks of non-blank lines. Each is read on its own, so
/// one unreadable match does not stop the others. The id of an unreadable match is given
/// when its `Match` line could be read.
pub fn read_matches(text: &str) -> Vec<(Option<String>, Result<BotzoneMatch, RecordError>)> {
    let mut out = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    for line in text_lines(text).chain(std::iter::once("")) {
        if line.bytes().all(|b| b.is_ascii_whitespace()) {
            if !block.is_empty() {
                let id = match_id(block[0]);
                out.push((id, read_match(&block)));
                block.clear();
            }
        } else {
            block.push(line);
        }
    }
    out
}

/// The lines of `text`, each without its `\n` (or `\r\n`): one pass over the bytes (the
/// lines are short, where `str::lines` spends more on each search than on the bytes).
fn text_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.bytes().position(|b| b == b'\n').unwrap_or(rest.len());
        let line = &rest[..end];
        rest = rest.get(end + 1..).unwrap_or("");
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// The words of `line` (separated by ASCII whitespace) into `words`: how many, or `None`
/// when there are more than [`MAX_WORDS`]. One pass over the bytes.
fn split_words<'a>(line: &'a str, words: &mut [&'a str; MAX_WORDS]) -> Option<usize> {
    let mut count = 0;
    let mut rest = line.trim_ascii_start();
    while !rest.is_empty() {
        let end = rest
            .bytes()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        *words.get_mut(count)? = word;
        count += 1;
        rest = after.trim_ascii_start();
    }
    Some(count)
}

fn match_id(first: &str) -> Option<String> {
    let mut words = first.split_ascii_whitespace();
    (words.next()? == "Match").then(|| words.collect::<Vec<_>>().join(" "))
}

/// Reads one match from its lines (the `Match` line first).
pub fn read_match(lines: &[&str]) -> Result<BotzoneMatch, RecordError> {
    if lines.len() > MAX_MATCH_LINES {
        return Err(error(
            MAX_MATCH_LINES + 1,
            RecordErrorCode::TooLong,
            format!(
                "a match has at most {MAX_MATCH_LINES} lines; this one has {}",
                lines.len()
            ),
        ));
    }
    let id = lines
        .first()
        .and_then(|l| match_id(l))
        .filter(|id| !id.is_empty())
        .ok_or_else(|| syntax(1, "a match starts with `Match <id>`"))?;
    let mut reader = Reader {
        m: BotzoneMatch {
            id,
            record: Record::default(),
            deal_lines: BySeat::default(),
            event_lines: Vec::new(),
            fan_line: None,
            score_line: None,
            huang_line: None,
            fan_text: None,
            lines: lines.len(),
        },
        wind: None,
        dealt: [false; 4],
    };
    reader.m.record.events.reserve(lines.len());
    reader.m.event_lines.reserve(lines.len());
    for (i, raw) in lines.iter().enumerate().skip(1) {
        let mut words = [""; MAX_WORDS];
        let count = split_words(raw, &mut words)
            .ok_or_else(|| syntax(i + 1, "the line has too many words"))?;
        reader.line(i + 1, &words[..count])?;
    }
    let Reader {
        mut m, wind, dealt, ..
    } = reader;
    m.record.prevalent_wind =
        wind.ok_or_else(|| syntax(lines.len(), "a match has a `Wind` line"))?;
    if let Some(seat) = Seat::ALL.into_iter().find(|s| !dealt[s.index()]) {
        return Err(syntax(
            lines.len(),
            &format!("player {} is not dealt", seat.index()),
        ));
    }
    Ok(m)
}

/// A match being read, line by line.
struct Reader {
    m: BotzoneMatch,
    wind: Option<Wind>,
    dealt: [bool; 4],
}

impl Reader {
    fn ended(&self) -> bool {
        self.m.fan_line.is_some() || self.m.score_line.is_some() || self.m.huang_line.is_some()
    }

    fn line(&mut self, n: usize, words: &[&str]) -> Result<(), RecordError> {
        let keyword = words.first().copied().unwrap_or("");
        if keyword.eq_ignore_ascii_case("Player") {
            self.player(n, words)
        } else if keyword.eq_ignore_ascii_case("Wind") {
            if self.wind.is_some() || words.len() != 2 {
                return Err(syntax(n, "`Wind <0-3>` once, after `Match`"));
            }
            let w = number(n, words[1])?;
            self.wind = Some(Seat::from_index(w).map(Wind::from).ok_or_else(|| {
                error(
                    n,
                    RecordErrorCode::SeatInvalid,
                    format!("wind {w} is not 0–3"),
                )
            })?);
            Ok(())
        } else if keyword.eq_ignore_ascii_case("Fan") {
            if self.ended() || words.len() < 2 {
                return Err(syntax(n, "`Fan <total> <fans>` once, after the events"));
            }
            self.m.record.stated.fan = Some(signed(n, words[1])?);
            self.m.fan_line = Some(n);
            self.m.fan_text = Some(words[2..].join(" "));
            Ok(())
        } else if keyword.eq_ignore_ascii_case("Score") {
            if self.m.score_line.is_some() || words.len() != 5 {
                return Err(syntax(n, "`Score <4 numbers>` once, at the end"));
            }
            let mut scores = [0i64; 4];
            for (s, w) in scores.iter_mut().zip(&words[1..]) {
                *s = signed(n, w)?;
            }
            self.m.record.stated.scores = Some(BySeat::from_array(scores));
            self.m.score_line = Some(n);
            Ok(())
        } else if keyword.eq_ignore_ascii_case("Huang") {
            if self.ended() || words.len() != 1 {
                return Err(syntax(n, "`Huang` once, after the events"));
            }
            self.m.record.draw_game = true;
            self.m.huang_line = Some(n);
            Ok(())
        } else {
            Err(syntax(
                n,
                &format!("`{keyword}` begins no line of the format"),
            ))
        }
    }

    /// `Player <n> Deal …` or `Player <n> <action> <tile> [Ignore …]`.
    fn player(&mut self, n: usize, words: &[&str]) -> Result<(), RecordError> {
        if self.wind.is_none() {
            return Err(syntax(n, "`Wind <0-3>` comes before the players"));
        }
        if self.ended() {
            return Err(syntax(n, "no event follows the result lines"));
        }
        let seat = seat(n, words.get(1).copied())?;
        let verb = words.get(2).copied().unwrap_or("");
        if verb.eq_ignore_ascii_case("Deal") {
            if self.dealt[seat.index()] || !self.m.record.events.is_empty() {
                return Err(syntax(
                    n,
                    "each player is dealt once, before the first event",
                ));
            }
            self.dealt[seat.index()] = true;
            self.m.deal_lines[seat] = n;
            self.m.record.deal[seat] = words[3..]
                .iter()
                .map(|w| drawn(n, w))
                .collect::<Result<_, _>>()?;
            return Ok(());
        }
        if self.dealt.contains(&false) {
            return Err(syntax(n, "every player is dealt before the first event"));
        }
        let (action, rest) = action(n, &words[2..])?;
        let overridden = overridden(n, rest)?;
        if !overridden.is_empty() && !action.is_claim_kind() {
            return Err(syntax(
                n,
                "`Ignore` follows only a claim (Chi, Peng, Gang, Hu)",
            ));
        }
        if self.m.record.events.len() >= MAX_EVENTS {
            return Err(error(
                n,
                RecordErrorCode::TooLong,
                format!("a match has at most {MAX_EVENTS} events"),
            ));
        }
        self.m.record.events.push(Event {
            seat,
            action,
            overridden,
        });
        self.m.event_lines.push(n);
        Ok(())
    }
}

fn error(line: usize, code: RecordErrorCode, message: String) -> RecordError {
    RecordError {
        line,
        code,
        message,
    }
}

fn syntax(line: usize, message: &str) -> RecordError {
    error(line, RecordErrorCode::Syntax, message.to_owned())
}

/// A number written as Botzone writes it: decimal digits, no sign, no leading zero (`00` and
/// `+0` are not 0).
fn number(line: usize, word: &str) -> Result<usize, RecordError> {
    match word.as_bytes() {
        &[digit @ b'0'..=b'9'] => Ok(usize::from(digit - b'0')),
        [b'1'..=b'9', rest @ ..] if rest.iter().all(u8::is_ascii_digit) => word
            .parse()
            .map_err(|_| syntax(line, &format!("`{word}` is not a number"))),
        _ => Err(syntax(line, &format!("`{word}` is not a number"))),
    }
}

fn signed(line: usize, word: &str) -> Result<i64, RecordError> {
    word.parse::<i64>()
        .ok()
        .filter(|v| v.unsigned_abs() <= 1_000_000)
        .ok_or_else(|| syntax(line, &format!("`{word}` is not a number of points")))
}

fn seat(line: usize, word: Option<&str>) -> Result<Seat, RecordError> {
    let word = word.ok_or_else(|| syntax(line, "`Player` is followed by its number"))?;
    let n = number(line, word)?;
    Seat::from_index(n).ok_or_else(|| {
        error(
            line,
            RecordErrorCode::SeatInvalid,
            format!("player {n} is not 0–3"),
        )
    })
}

fn tile(line: usize, word: &str) -> Result<Tile, RecordError> {
    Tile::from_code(word).ok_or_else(|| {
        error(
            line,
            RecordErrorCode::TileUnknown,
            format!("`{word}` is not a tile (W1–W9, B1–B9, T1–T9, F1–F4, J1–J3)"),
        )
    })
}

fn drawn(line: usize, word: &str) -> Result<Drawn, RecordError> {
    if let Some(f) = flower(word) {
        return Ok(Drawn::Flower(f));
    }
    tile(line, word).map(Drawn::Tile)
}

fn flower(word: &str) -> Option<Flower> {
    let digit = word.strip_prefix('H')?;
    Flower::new(digit.parse().ok()?).filter(|_| digit.len() == 1)
}

/// The actions, as the format writes them (read without regard to case).
const VERBS: [&str; 9] = [
    "draw", "buhua", "play", "chi", "peng", "gang", "angang", "bugang", "hu",
];

/// `word` in lower case when it is one of [`VERBS`] in any case; "" otherwise.
fn lower_verb(word: &str) -> &'static str {
    let mut lower = [0u8; 6];
    let Some(bytes) = lower.get_mut(..word.len()) else {
        return "";
    };
    for (l, b) in bytes.iter_mut().zip(word.bytes()) {
        *l = b.to_ascii_lowercase();
    }
    VERBS
        .iter()
        .find(|v| v.as_bytes() == bytes)
        .copied()
        .unwrap_or("")
}

/// The most words a line may have: a claim with three overridden claims has 18.
const MAX_WORDS: usize = 24;

/// The action at the head of `words` and the words after it.
fn action<'a, 'b>(
    line: usize,
    words: &'a [&'b str],
) -> Result<(Action, &'a [&'b str]), RecordError> {
    let (Some(verb), Some(arg)) = (words.first(), words.get(1)) else {
        return Err(syntax(line, "an event is `Player <n> <action> <tile>`"));
    };
    let verb = lower_verb(verb);
    let action = match verb {
        "draw" => Action::Draw(drawn(line, arg)?),
        "buhua" => Action::Flower(flower(arg).ok_or_else(|| {
            error(
                line,
                RecordErrorCode::TileUnknown,
                format!("`{arg}` is not a flower (H1–H8)"),
            )
        })?),
        "play" => Action::Discard(tile(line, arg)?),
        "chi" => {
            let middle = tile(line, arg)?;
            if !matches!(middle.rank(), Some(2..=8)) {
                return Err(error(
                    line,
                    RecordErrorCode::ChowInvalid,
                    format!(
                        "a chow is named by its middle tile, a numbered tile of rank 2–8; `{arg}` is not"
                    ),
                ));
            }
            Action::Chow(middle)
        }
        "peng" => Action::Pung(tile(line, arg)?),
        "gang" => Action::Kong(tile(line, arg)?),
        "angang" => Action::ConcealedKong(tile(line, arg)?),
        "bugang" => Action::AddedKong(tile(line, arg)?),
        "hu" => Action::Win(tile(line, arg)?),
        _ => return Err(syntax(line, &format!("`{}` is not an action", words[0]))),
    };
    Ok((action, &words[2..]))
}

/// `Ignore Player <m> <claim> <tile>`, repeated.
fn overridden(line: usize, mut words: &[&str]) -> Result<Vec<OverriddenClaim>, RecordError> {
    let mut claims = Vec::new();
    while !words.is_empty() {
        if !words[0].eq_ignore_ascii_case("Ignore")
            || words.len() < 5
            || !words[1].eq_ignore_ascii_case("Player")
        {
            return Err(syntax(
                line,
                "after an event only `Ignore Player <n> <claim> <tile>` may follow",
            ));
        }
        let seat = seat(line, Some(words[2]))?;
        let (action, rest) = action(line, &words[3..])?;
        if !action.is_claim_kind() {
            return Err(syntax(line, "an ignored claim is Chi, Peng, Gang or Hu"));
        }
        if claims.len() >= 3 {
            return Err(syntax(line, "at most three claims can be overridden"));
        }
        claims.push(OverriddenClaim { seat, action });
        words = rest;
    }
    Ok(claims)
}

/// The record as a Botzone match: `Match`, `Wind`, the deal, the events, and the result of
/// `replay` when given (`Fan` with the fans, `Score`, or `Huang` and `Score 0 0 0 0`),
/// otherwise the record's own statements.
pub fn write_match(id: &str, record: &Record, replay: Option<&Replay>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Match {id}");
    let _ = writeln!(out, "Wind {}", Seat::from(record.prevalent_wind).index());
    for (seat, tiles) in record.deal.entries() {
        let _ = write!(out, "Player {} Deal", seat.index());
        for d in tiles {
            let _ = write!(out, " {}", drawn_code(*d));
        }
        out.push('\n');
    }
    for event in &record.events {
        write_action(&mut out, event.seat, event.action);
        for claim in &event.overridden {
            out.push_str(" Ignore ");
            write_action(&mut out, claim.seat, claim.action);
        }
        out.push('\n');
    }
    let (draw_game, fan, scores) = match replay {
        Some(r) => match &r.end {
            ReplayEnd::Win(win) => {
                let mut fans = String::new();
                for (fan, count) in win.scoring.fans.iter() {
                    if fan == crate::Fan::FlowerTiles {
                        continue;
                    }
                    if !fans.is_empty() {
                        fans.push('+');
                    }
                    let _ = write!(fans, "{}*{count}", fan.spec().name_zh);
                }
                (
                    false,
                    Some(format!("{} {fans}", win.scoring.fan_total)),
                    r.deltas(),
                )
            }
            ReplayEnd::DrawGame => (true, None, r.deltas()),
            ReplayEnd::NoResult => (false, None, None),
        },
        None => (
            record.draw_game,
            record.stated.fan.map(|f| f.to_string()),
            record.stated.scores,
        ),
    };
    if draw_game {
        out.push_str("Huang\n");
    }
    if let Some(fan) = fan {
        let _ = writeln!(out, "Fan {fan}");
    }
    if let Some(scores) = scores {
        let [a, b, c, d] = scores.into_array();
        let _ = writeln!(out, "Score {a} {b} {c} {d}");
    }
    out
}

/// Every line that may come next ([`NextActions`]), in Botzone's syntax without `Ignore`
/// clauses: each decision's actions in order, then what follows when no seat acts
/// (`Player p Draw`, with its tile when the wall is known, or `Huang`).
pub fn next_lines(next: &NextActions) -> Vec<String> {
    let mut lines = Vec::new();
    for decision in &next.decisions {
        for legal in &decision.actions {
            lines.push(action_line(decision.seat, legal.action));
        }
    }
    match next.then {
        Some(Then::Draw(draw)) => lines.push(match draw.tile {
            Some(tile) => format!("Player {} Draw {}", draw.seat.index(), drawn_code(tile)),
            None => format!("Player {} Draw", draw.seat.index()),
        }),
        Some(Then::DrawGame) => lines.push("Huang".to_owned()),
        None => {}
    }
    lines
}

/// One event as its line writes it, without `Ignore` clauses (`Player 2 Chi T5`).
pub fn action_line(seat: Seat, action: Action) -> String {
    let mut line = String::new();
    write_action(&mut line, seat, action);
    line
}

fn write_action(out: &mut String, seat: Seat, action: Action) {
    let (verb, code) = match action {
        Action::Draw(d) => ("Draw", drawn_code(d)),
        Action::Flower(f) => ("BuHua", format!("H{}", f.number())),
        Action::Discard(t) => ("Play", t.code()),
        Action::Chow(t) => ("Chi", t.code()),
        Action::Pung(t) => ("Peng", t.code()),
        Action::Kong(t) => ("Gang", t.code()),
        Action::ConcealedKong(t) => ("AnGang", t.code()),
        Action::AddedKong(t) => ("BuGang", t.code()),
        Action::Win(t) => ("Hu", t.code()),
    };
    let _ = write!(out, "Player {} {verb} {code}", seat.index());
}

fn drawn_code(d: Drawn) -> String {
    match d {
        Drawn::Tile(t) => t.code(),
        Drawn::Flower(f) => format!("H{}", f.number()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_words_split_as_the_standard_library_splits_them() {
        for text in [
            "",
            "\n",
            "Match a\r\nWind 0\n\nPlayer 0  Draw\tW1 \n",
            "  lead and trail  \nlast line without newline",
            "ünï cödé\n  \n",
        ] {
            let ours: Vec<&str> = text_lines(text).collect();
            let std: Vec<&str> = text.lines().collect();
            assert_eq!(ours, std, "{text:?}");
            for line in ours {
                let mut words = [""; MAX_WORDS];
                let n = split_words(line, &mut words).unwrap();
                let std: Vec<&str> = line.split_ascii_whitespace().collect();
                assert_eq!(&words[..n], std.as_slice(), "{line:?}");
            }
        }
        let many = "w ".repeat(MAX_WORDS + 1);
        assert_eq!(split_words(&many, &mut [""; MAX_WORDS]), None);
        let exactly = "w ".repeat(MAX_WORDS);
        assert_eq!(split_words(&exactly, &mut [""; MAX_WORDS]), Some(MAX_WORDS));
    }

    #[test]
    fn a_player_number_is_one_digit_as_botzone_writes_it() {
        for (word, read) in [("0", Some(0)), ("3", Some(3)), ("12", Some(12))] {
            assert_eq!(number(1, word).ok(), read, "{word}");
        }
        for word in ["00", "+0", "-0", "03", " 1", "1x", "", "+1"] {
            assert!(number(1, word).is_err(), "{word:?}");
        }
        for word in ["00", "+0", "01"] {
            assert!(seat(1, Some(word)).is_err(), "Player {word}");
        }
        assert_eq!(seat(1, Some("2")).ok(), Some(Seat::West));
    }
}

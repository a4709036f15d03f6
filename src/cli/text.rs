//! What the subcommands share in writing: the exit code of invalid input, violations
//! one a line, padded columns and tables, signed points, ordinals, tiles and fractions.

use std::fmt::Write as _;

use mcr::Violation;

use crate::api::kit::values;
use crate::api::pb;

/// Exit code for invalid input (the same as clap's usage errors).
pub(crate) const EXIT_INVALID: u8 = 2;

/// The language of a sheet's Chinese: fan and infraction names (from the engine's tables)
/// and the sheets' own terms (from `TERMS`). The rest of a sheet is English.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Lang {
    /// Chinese in Simplified characters beside the English (the default).
    #[default]
    #[value(name = "zh-hans")]
    ZhHans,
    /// Chinese in Traditional characters beside the English.
    #[value(name = "zh-hant")]
    ZhHant,
    /// English only.
    #[value(name = "en")]
    En,
}

/// `--lang`: the language of a sheet's Chinese.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct SheetLang {
    /// The Chinese of the sheet (fan and infraction names, terms): Simplified or
    /// Traditional beside the English, or English only.
    #[arg(
        long,
        value_enum,
        value_name = "zh-hans|zh-hant|en",
        default_value = "zh-hans"
    )]
    pub lang: Lang,
}

/// The Chinese terms the sheets write themselves, (Simplified, Traditional), written by
/// hand; the fan and infraction names are the engine's.
const TERMS: [(&str, &str); 20] = [
    ("底分", "底分"),
    ("基本分", "基本分"),
    ("警告", "警告"),
    ("罚分", "罰分"),
    ("停和", "停和"),
    ("罚张", "罰張"),
    ("取消比赛资格", "取消比賽資格"),
    ("局分", "局分"),
    ("自摸", "自摸"),
    ("点和", "點和"),
    ("抢杠和", "搶槓和"),
    ("荒牌", "荒牌"),
    ("截和", "截和"),
    ("和", "和"),
    ("标准分", "標準分"),
    ("比赛分", "比賽分"),
    ("错和", "錯和"),
    ("和错牌", "和錯牌"),
    ("诈和", "詐和"),
    ("有意诈和", "有意詐和"),
];

impl Lang {
    /// The Chinese to show of a (Simplified, Traditional) pair; `None` in English.
    pub(crate) fn chinese<'a>(self, hans: &'a str, hant: &'a str) -> Option<&'a str> {
        match self {
            Lang::ZhHans => Some(hans),
            Lang::ZhHant => Some(hant),
            Lang::En => None,
        }
    }

    /// One of the sheets' own terms ([`TERMS`], given in Simplified); `None` in English.
    pub(crate) fn term(self, hans: &'static str) -> Option<&'static str> {
        let hant = TERMS
            .iter()
            .find(|(s, _)| *s == hans)
            .map_or(hans, |(_, t)| t);
        self.chinese(hans, hant)
    }

    /// English text with a term as its gloss: `warning (警告)`, or `warning` in English.
    pub(crate) fn gloss(self, english: &str, hans: &'static str) -> String {
        match self.term(hans) {
            Some(zh) => format!("{english} ({zh})"),
            None => english.to_owned(),
        }
    }

    /// A term followed by English: `错和 (false win)`, or `false win` in English.
    pub(crate) fn named(self, hans: &'static str, english: &str) -> String {
        match self.term(hans) {
            Some(zh) => format!("{zh} ({english})"),
            None => english.to_owned(),
        }
    }
}

/// Every violation of a hand, one per line: `CODE at field: message`.
pub fn violations_text(violations: &[Violation]) -> String {
    violations_of("hand", violations)
}

/// Every violation, one per line (`CODE at field: message`), under a heading that names what
/// is invalid (`invalid hand: 2 violations`).
pub(crate) fn violations_of(what: &str, violations: &[Violation]) -> String {
    let mut out = format!(
        "invalid {what}: {} violation{}\n",
        violations.len(),
        if violations.len() == 1 { "" } else { "s" }
    );
    for v in violations {
        let _ = writeln!(out, "  {v}");
    }
    out
}

/// Terminal columns of a string: CJK characters take two.
pub(crate) fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let wide = ('\u{2E80}'..='\u{9FFF}').contains(&c)
                || ('\u{F900}'..='\u{FAFF}').contains(&c)
                || ('\u{FF00}'..='\u{FF60}').contains(&c);
            if wide { 2 } else { 1 }
        })
        .sum()
}

/// `s` followed by spaces up to `to` terminal columns.
pub(crate) fn pad(s: &str, to: usize) -> String {
    format!("{s}{}", " ".repeat(to.saturating_sub(width(s))))
}

/// How the last column of a [`table`] is aligned.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LastColumn {
    /// To the right (numbers).
    Right,
    /// To the left, like the others.
    Left,
}

/// Rows of cells in aligned columns, each line indented by `indent`.
pub(crate) fn table(rows: &[Vec<String>], indent: usize, last: LastColumn) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| width(s))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = " ".repeat(indent);
        for (c, cell) in row.iter().enumerate() {
            let w = widths.get(c).copied().unwrap_or(0);
            if c + 1 == columns && last == LastColumn::Right {
                line.push_str(&" ".repeat(w.saturating_sub(width(cell))));
                line.push_str(cell);
            } else {
                line.push_str(&pad(cell, w));
                line.push_str("  ");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// Points with their sign: `+38`, `-8`, `0`.
pub(crate) fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
pub(crate) fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

pub(crate) fn tiles_text(tiles: &[i32]) -> String {
    let tiles: Vec<mcr::Tile> = tiles
        .iter()
        .filter_map(|&t| values::tile_from_pb(t))
        .collect();
    let mut out = String::new();
    mcr::notation::write_tiles(&mut out, &tiles);
    out
}

/// A fraction for people: `4`, `1.5`, `10/3`.
pub(crate) fn fraction_text(f: Option<&pb::Fraction>) -> String {
    match f {
        None => "-".to_owned(),
        Some(f) if f.denominator == 1 => f.numerator.to_string(),
        Some(f) if f.denominator == 2 => {
            let whole = f.numerator / 2;
            if f.numerator < 0 && whole == 0 {
                "-0.5".to_owned()
            } else {
                format!("{whole}.5")
            }
        }
        Some(f) => format!("{}/{}", f.numerator, f.denominator),
    }
}

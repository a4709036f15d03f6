//! Properties of validation, notation and scoring over generated hands.
//!
//! Winning hands are built from random sets and a pair (or a special shape), random declared
//! melds, a random context and a random ruleset; hands holding a fifth copy of a tile are
//! rejected by the generator. Case counts are kept small enough for debug builds.

use std::collections::BTreeSet;

use mcr::notation::{format_canonical, format_hand, parse_hand};
use mcr::{
    Claim, Fan, HandInput, MeldInput, MeldKind, Outcome, Ruleset, RulesetId, Scoring, Suit, Tile,
    ViolationCode, WinContext, WinMethod, Wind, score,
};
use proptest::prelude::*;
use proptest::sample::{Index, select};

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

fn tile_at(index: usize) -> Tile {
    Tile::from_index(u8::try_from(index).expect("tile index")).expect("tile index below 34")
}

/// 0, 1, 2 for the suits, 3 for honours.
fn group(t: Tile) -> usize {
    t.suit().map_or(3, Suit::index)
}

fn next(t: Tile, by: usize) -> Option<Tile> {
    let r = t.rank()?;
    let s = t.suit()?;
    Tile::numbered(s, r + u8::try_from(by).ok()?)
}

/// The tiles a hand may use: everything, some of the four groups, or a narrow run of ranks of
/// one suit (dense hands with many readings).
fn palette() -> impl Strategy<Value = Vec<Tile>> {
    prop_oneof![
        3 => Just(Tile::ALL.to_vec()),
        3 => (1u8..16).prop_map(|mask| {
            Tile::ALL
                .into_iter()
                .filter(|&t| mask & (1 << group(t)) != 0)
                .collect()
        }),
        2 => (0usize..3, 1u8..=7, 3u8..=5).prop_map(|(suit, low, width)| {
            (low..=(low + width - 1).min(9))
                .filter_map(|r| Tile::numbered(Suit::ALL[suit], r))
                .collect()
        }),
    ]
}

/// A set: a chow (by its lowest tile), a pung or a kong.
#[derive(Clone, Copy, Debug)]
enum Part {
    Chow(Tile),
    Pung(Tile),
    Kong(Tile),
}

impl Part {
    fn tiles(self) -> Vec<Tile> {
        match self {
            Part::Chow(t) => vec![t, next(t, 1).expect("chow"), next(t, 2).expect("chow")],
            Part::Pung(t) => vec![t; 3],
            Part::Kong(t) => vec![t; 4],
        }
    }
}

/// A concealed set (chow or pung) from the palette.
fn concealed_part(pal: &[Tile]) -> BoxedStrategy<Part> {
    let starts: Vec<Tile> = pal
        .iter()
        .copied()
        .filter(|&t| {
            next(t, 1).is_some_and(|u| pal.contains(&u))
                && next(t, 2).is_some_and(|u| pal.contains(&u))
        })
        .collect();
    let pungs = select(pal.to_vec()).prop_map(Part::Pung);
    if starts.is_empty() {
        pungs.boxed()
    } else {
        prop_oneof![3 => select(starts).prop_map(Part::Chow), 2 => pungs].boxed()
    }
}

/// A declared meld in notation-expressible form (a melded kong always names its source).
fn meld(pal: &[Tile]) -> BoxedStrategy<MeldInput> {
    let claim = || select(vec![Claim::Left, Claim::Opposite, Claim::Right]);
    let kong = (select(pal.to_vec()), 0u8..3, claim()).prop_map(|(t, how, from)| MeldInput {
        kind: if how == 0 {
            MeldKind::ConcealedKong
        } else {
            MeldKind::Kong
        },
        tiles: Part::Kong(t).tiles(),
        claimed_from: (how != 0).then_some(from),
        promoted: how == 2,
        claimed_tile: None,
    });
    let set = (concealed_part(pal), proptest::option::of(claim())).prop_map(|(p, from)| match p {
        // A chow's digit names its claimed tile (the 1st, 2nd or 3rd); its source is the left.
        Part::Chow(_) => MeldInput {
            kind: MeldKind::Chow,
            tiles: p.tiles(),
            claimed_from: None,
            promoted: false,
            claimed_tile: from.map(|c| p.tiles()[usize::from(c.digit() - 1)]),
        },
        Part::Pung(_) | Part::Kong(_) => MeldInput {
            kind: MeldKind::Pung,
            tiles: p.tiles(),
            claimed_from: from,
            promoted: false,
            claimed_tile: None,
        },
    });
    prop_oneof![3 => set, 1 => kong].boxed()
}

fn copies_ok(hand: &HandInput) -> bool {
    let mut counts = [0u8; 34];
    for t in hand
        .melds
        .iter()
        .flat_map(|m| m.tiles.iter())
        .chain(hand.standing.iter())
        .chain(hand.winning_tile.iter())
    {
        counts[t.index()] += 1;
    }
    counts.iter().all(|&n| n <= 4)
}

/// Splits the concealed tiles into standing tiles and the winning tile.
fn finish(melds: Vec<MeldInput>, mut concealed: Vec<Tile>, win: Index) -> Option<HandInput> {
    let w = concealed.remove(win.index(concealed.len()));
    let hand = HandInput {
        melds,
        standing: concealed,
        winning_tile: Some(w),
    };
    copies_ok(&hand).then_some(hand)
}

/// Four sets and a pair, `k` of the sets declared.
fn standard_hand() -> impl Strategy<Value = HandInput> {
    (palette(), 0usize..=4)
        .prop_flat_map(|(pal, k)| {
            (
                proptest::collection::vec(meld(&pal), k),
                proptest::collection::vec(concealed_part(&pal), 4 - k),
                select(pal),
                any::<Index>(),
            )
        })
        .prop_filter_map("a fifth copy", |(melds, parts, pair, win)| {
            let mut concealed: Vec<Tile> = parts.iter().flat_map(|p| p.tiles()).collect();
            concealed.extend([pair, pair]);
            finish(melds, concealed, win)
        })
}

fn seven_pairs_hand() -> impl Strategy<Value = HandInput> {
    palette()
        .prop_flat_map(|pal| (proptest::collection::vec(select(pal), 7), any::<Index>()))
        .prop_filter_map("a fifth copy", |(pairs, win)| {
            let concealed = pairs.iter().flat_map(|&t| [t, t]).collect();
            finish(Vec::new(), concealed, win)
        })
}

fn orphans() -> Vec<Tile> {
    Tile::ALL
        .into_iter()
        .filter(|t| t.is_terminal_or_honor())
        .collect()
}

fn thirteen_orphans_hand() -> impl Strategy<Value = HandInput> {
    (select(orphans()), any::<Index>()).prop_filter_map("a fifth copy", |(dup, win)| {
        let mut concealed = orphans();
        concealed.push(dup);
        finish(Vec::new(), concealed, win)
    })
}

/// The nine knitted tiles for an assignment of 147/258/369 to the suits.
fn knitted(perm: [usize; 3]) -> Vec<Tile> {
    (0..3)
        .flat_map(|k| {
            (0..3).filter_map(move |j| {
                Tile::numbered(Suit::ALL[perm[k]], u8::try_from(1 + k + 3 * j).ok()?)
            })
        })
        .collect()
}

const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// 全不靠 / 七星不靠: 14 of the 9 knitted tiles and the 7 honours.
fn honors_and_knitted_hand() -> impl Strategy<Value = HandInput> {
    (
        select(PERMS.to_vec()),
        0usize..16,
        0usize..15,
        any::<Index>(),
    )
        .prop_filter_map("a fifth copy", |(perm, a, b, win)| {
            let mut tiles = knitted(perm);
            tiles.extend(Tile::ALL.into_iter().filter(|t| t.is_honor()));
            tiles.remove(a);
            tiles.remove(b);
            finish(Vec::new(), tiles, win)
        })
}

/// 组合龙 + one set (possibly declared) + a pair.
fn knitted_straight_hand() -> impl Strategy<Value = HandInput> {
    let all = Tile::ALL.to_vec();
    (
        select(PERMS.to_vec()),
        proptest::option::of(meld(&all)),
        concealed_part(&all),
        select(all),
        any::<Index>(),
    )
        .prop_filter_map("a fifth copy", |(perm, declared, part, pair, win)| {
            let mut concealed = knitted(perm);
            let melds: Vec<MeldInput> = declared.into_iter().collect();
            if melds.is_empty() {
                concealed.extend(part.tiles());
            }
            concealed.extend([pair, pair]);
            finish(melds, concealed, win)
        })
}

/// A winning hand of any shape.
fn winning_hand() -> impl Strategy<Value = HandInput> {
    prop_oneof![
        8 => standard_hand(),
        2 => seven_pairs_hand(),
        1 => thirteen_orphans_hand(),
        1 => honors_and_knitted_hand(),
        1 => knitted_straight_hand(),
    ]
}

#[derive(Clone, Copy, Debug)]
#[allow(clippy::struct_excessive_bools)]
struct Flags {
    self_drawn: bool,
    robbing_kong: bool,
    replacement_draw: bool,
    last_tile: bool,
    last_copy: bool,
    seat: usize,
    prevalent: usize,
    flowers: u8,
}

fn flags() -> impl Strategy<Value = Flags> {
    let rare = || proptest::bool::weighted(0.2);
    (
        (any::<bool>(), rare(), rare(), rare(), rare()),
        0usize..4,
        0usize..4,
        prop_oneof![2 => Just(0u8), 1 => 1u8..=8],
    )
        .prop_map(|(b, seat, prevalent, flowers)| Flags {
            self_drawn: b.0,
            robbing_kong: b.1,
            replacement_draw: b.2,
            last_tile: b.3,
            last_copy: b.4,
            seat,
            prevalent,
            flowers,
        })
}

/// The flags made consistent with the hand (the rules `validate` enforces on a context).
fn fit(f: Flags, hand: &HandInput) -> WinContext {
    let w = hand
        .winning_tile
        .expect("generated hands have a winning tile");
    let in_standing = hand.standing.contains(&w);
    let in_melds = hand.melds.iter().any(|m| m.tiles.contains(&w));
    let has_kong = hand
        .melds
        .iter()
        .any(|m| matches!(m.kind, MeldKind::Kong | MeldKind::ConcealedKong));
    let robbing_kong = !f.self_drawn && f.robbing_kong && !in_standing && !in_melds;
    WinContext {
        method: if f.self_drawn {
            WinMethod::SelfDrawn
        } else {
            WinMethod::Discard
        },
        robbing_kong,
        replacement_draw: f.self_drawn && f.replacement_draw && has_kong,
        last_tile: f.last_tile && !robbing_kong,
        last_copy: f.last_copy && !in_standing,
        seat_wind: Wind::ALL[f.seat],
        prevalent_wind: Wind::ALL[f.prevalent],
        flowers: f.flowers,
    }
}

fn ruleset() -> impl Strategy<Value = &'static Ruleset<'static>> {
    select(RulesetId::ALL.to_vec()).prop_map(Ruleset::get)
}

/// A winning hand, a context that fits it, a ruleset.
fn scored_case() -> impl Strategy<Value = (HandInput, WinContext, &'static Ruleset<'static>)> {
    (winning_hand(), flags(), ruleset()).prop_map(|(h, f, r)| {
        let ctx = fit(f, &h);
        (h, ctx, r)
    })
}

fn score_input(hand: &HandInput, ctx: WinContext, rules: &Ruleset) -> Result<Scoring, String> {
    hand.validate(&ctx)
        .map(|valid| score(&valid, &ctx, rules))
        .map_err(|v| format!("{} rejected: {v:?}", format_hand(hand)))
}

/// `cases` runs, or `PROPTEST_CASES` when set (for longer runs).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        max_global_rejects: 100_000,
        max_local_rejects: u32::MAX,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// (a) Standing-tile order never changes a result
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn standing_tile_order_never_changes_the_result(
        (hand, ctx, rules) in scored_case(),
        keys in proptest::collection::vec(any::<u32>(), 14),
    ) {
        let before = score_input(&hand, ctx, rules).map_err(TestCaseError::fail)?;
        prop_assert_ne!(
            before.outcome,
            Outcome::NotWinningShape,
            "{} is built from a winning shape", format_hand(&hand)
        );
        let mut shuffled = hand.clone();
        let mut keyed: Vec<(u32, Tile)> =
            keys.iter().copied().zip(hand.standing.iter().copied()).collect();
        keyed.sort_by_key(|&(k, _)| k);
        shuffled.standing = keyed.into_iter().map(|(_, t)| t).collect();
        let after = score_input(&shuffled, ctx, rules).map_err(TestCaseError::fail)?;
        prop_assert_eq!(
            before, after,
            "{} vs {} under {} ({:?})",
            format_hand(&hand), format_hand(&shuffled), rules.name, ctx
        );
        prop_assert_eq!(before.lines(rules), after.lines(rules));
    }
}

// ---------------------------------------------------------------------------------------------
// (b) Notation round trips
// ---------------------------------------------------------------------------------------------

/// Fragments of plausible notation, so that a good share of the strings parse.
fn notation_fragments() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            "[0-9]{1,4}[mps]",
            "[ESWNCFP]{1,3}",
            "\\[[1-9]{1,4}[mps][0-9]?\\]",
            "\\[[ESWNCFP]{1,5}[0-9]?\\]",
            " ",
        ],
        0..10,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn valid_hands_round_trip_through_notation((hand, ctx, _rules) in scored_case()) {
        let text = format_hand(&hand);
        let parsed = parse_hand(&text);
        prop_assert_eq!(parsed.as_ref(), Ok(&hand), "`{}`", text);
        prop_assert_eq!(format_hand(&hand), text.clone());
        // A validated hand printed from its own `to_input` parses to the same hand.
        let valid = hand.validate(&ctx).map_err(|v| TestCaseError::fail(format!("{text}: {v:?}")))?;
        let again = format_hand(&valid.to_input());
        let reparsed = parse_hand(&again)
            .map_err(|e| TestCaseError::fail(format!("`{again}`: {e}")))?
            .validate(&ctx)
            .map_err(|v| TestCaseError::fail(format!("`{again}`: {v:?}")))?;
        prop_assert_eq!(&reparsed, &valid, "`{}` → `{}`", text, again);
        // The canonical notation is the declared notation with the standing tiles sorted and
        // a chow's digit only for its claimed tile, and it reads back to the same hand
        // (standing tiles aside).
        let canonical = format_canonical(&valid);
        let mut expected = valid.to_input();
        expected.standing.sort_unstable();
        for m in &mut expected.melds {
            if m.kind == MeldKind::Chow {
                m.claimed_from = None;
            }
        }
        prop_assert_eq!(&canonical, &format_hand(&expected));
        let mut back = parse_hand(&canonical)
            .map_err(|e| TestCaseError::fail(format!("`{canonical}`: {e}")))?;
        back.standing.sort_unstable();
        prop_assert_eq!(back, expected, "`{}`", canonical);
    }

    #[test]
    fn print_parse_print_is_stable(src in notation_fragments()) {
        if let Ok(first) = parse_hand(&src) {
            let printed = format_hand(&first);
            let second = parse_hand(&printed);
            prop_assert_eq!(second.as_ref(), Ok(&first), "`{}` printed as `{}`", src, printed);
            prop_assert_eq!(format_hand(&first), printed);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (c) The total is the sum of the sheet; (d) flowers never make a win
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn the_total_is_the_sum_of_the_listed_fans((hand, ctx, rules) in scored_case()) {
        let s = score_input(&hand, ctx, rules).map_err(TestCaseError::fail)?;
        let lines = s.lines(rules);
        let all: u32 = lines.iter().map(mcr::FanLine::total).sum();
        let without_flowers: u32 = lines
            .iter()
            .filter(|l| l.fan != Fan::FlowerTiles)
            .map(mcr::FanLine::total)
            .sum();
        let text = format_hand(&hand);
        prop_assert_eq!(all, s.total, "{} under {}: {:?}", text, rules.name, s.fans);
        prop_assert_eq!(without_flowers, s.fan_total, "{} under {}", text, rules.name);
        prop_assert_eq!(s.flower_points, u32::from(ctx.flowers));
        prop_assert_eq!(s.total, s.fan_total + s.flower_points);
        prop_assert_eq!(s.fans.get(Fan::FlowerTiles), ctx.flowers);
        for l in &lines {
            prop_assert_eq!(l.points, rules.points(l.fan));
            prop_assert_eq!(l.count, s.fans.get(l.fan));
            prop_assert!(l.count > 0);
        }
        prop_assert_eq!(
            s.outcome == Outcome::Win,
            s.fan_total >= mcr::MINIMUM_FAN,
            "{} under {}: outcome {:?}, fan total {}", text, rules.name, s.outcome, s.fan_total
        );
    }

    #[test]
    fn flowers_never_turn_an_under_eight_hand_into_a_win(
        (hand, ctx, rules) in scored_case(),
        flowers in 1u8..=8,
    ) {
        let bare = WinContext { flowers: 0, ..ctx };
        let with = WinContext { flowers, ..ctx };
        let a = score_input(&hand, bare, rules).map_err(TestCaseError::fail)?;
        let b = score_input(&hand, with, rules).map_err(TestCaseError::fail)?;
        let text = format_hand(&hand);
        prop_assert_eq!(
            a.outcome, b.outcome,
            "{} with {} flowers under {}", text, flowers, rules.name
        );
        prop_assert_eq!(a.fan_total, b.fan_total);
        prop_assert_eq!(b.total, a.total + u32::from(flowers));
        prop_assert_eq!(a.reading, b.reading);
        let mut fans = b.fans;
        fans.set(Fan::FlowerTiles, 0);
        prop_assert_eq!(a.fans, fans);
        if a.fan_total < mcr::MINIMUM_FAN {
            prop_assert_eq!(b.outcome, Outcome::BelowMinimum, "{} with {} flowers", text, flowers);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (e) No input panics
// ---------------------------------------------------------------------------------------------

fn any_context() -> impl Strategy<Value = WinContext> {
    (any::<[bool; 6]>(), 0usize..4, 0usize..4, any::<u8>()).prop_map(
        |(b, seat, prevalent, flowers)| WinContext {
            method: if b[0] {
                WinMethod::SelfDrawn
            } else {
                WinMethod::Discard
            },
            robbing_kong: b[1],
            replacement_draw: b[2],
            last_tile: b[3],
            last_copy: b[4],
            seat_wind: Wind::ALL[seat],
            prevalent_wind: Wind::ALL[prevalent],
            flowers: if b[5] { flowers % 9 } else { flowers },
        },
    )
}

/// Validates and, when valid, scores under every ruleset and prints the sheet.
fn run_everything(hand: &HandInput, ctx: WinContext) {
    let _ = format_hand(hand);
    if let Ok(valid) = hand.validate(&ctx) {
        for id in RulesetId::ALL {
            let rules = Ruleset::get(id);
            let s = score(&valid, &ctx, rules);
            let lines = s.lines(rules);
            // Every attributed element is one of the reading's, which has at most 14.
            let elements = s.reading.map(|r| r.elements()).unwrap_or_default();
            assert!(elements.len() <= 14, "{}: {elements:?}", format_hand(hand));
            for line in &lines {
                assert!(
                    line.elements.iter().all(|i| i < elements.len()),
                    "{}: {line:?} over {} elements",
                    format_hand(hand),
                    elements.len()
                );
            }
        }
    }
}

fn any_tile() -> impl Strategy<Value = Tile> {
    (0usize..34).prop_map(tile_at)
}

fn any_meld() -> impl Strategy<Value = MeldInput> {
    (
        select(vec![
            MeldKind::Chow,
            MeldKind::Pung,
            MeldKind::Kong,
            MeldKind::ConcealedKong,
        ]),
        proptest::collection::vec(any_tile(), 0..6),
        proptest::option::of(select(vec![Claim::Left, Claim::Opposite, Claim::Right])),
        any::<bool>(),
        proptest::option::of(any_tile()),
    )
        .prop_map(
            |(kind, tiles, claimed_from, promoted, claimed_tile)| MeldInput {
                kind,
                tiles,
                claimed_from,
                promoted,
                claimed_tile,
            },
        )
}

/// Random melds and random standing tiles, in arbitrary counts.
fn any_hand() -> impl Strategy<Value = HandInput> {
    (
        proptest::collection::vec(any_meld(), 0..6),
        proptest::collection::vec(any_tile(), 0..=20),
        proptest::option::of(any_tile()),
    )
        .prop_map(|(melds, standing, winning_tile)| HandInput {
            melds,
            standing,
            winning_tile,
        })
}

/// Valid melds and random standing tiles in the right number: mostly passes validation and
/// reaches the scorer with tiles that are rarely a winning shape.
fn well_formed_random_hand() -> impl Strategy<Value = HandInput> {
    (palette(), 0usize..=4)
        .prop_flat_map(|(pal, k)| {
            (
                proptest::collection::vec(meld(&pal), k),
                proptest::collection::vec(select(pal.clone()), 13 - 3 * k),
                select(pal),
            )
        })
        .prop_map(|(melds, standing, w)| HandInput {
            melds,
            standing,
            winning_tile: Some(w),
        })
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn random_bytes_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..48),
        ctx in any_context(),
    ) {
        let src = String::from_utf8_lossy(&bytes);
        if let Ok(hand) = parse_hand(&src) {
            run_everything(&hand, ctx);
        }
    }

    #[test]
    fn random_notation_alphabet_never_panics(
        src in "[0-9mpsESWNCFP\\[\\] ]{0,48}",
        ctx in any_context(),
    ) {
        if let Ok(hand) = parse_hand(&src) {
            run_everything(&hand, ctx);
        }
    }

    #[test]
    fn random_notation_fragments_never_panic(src in notation_fragments(), ctx in any_context()) {
        if let Ok(hand) = parse_hand(&src) {
            run_everything(&hand, ctx);
        }
    }

    #[test]
    fn random_tile_lists_never_panic(hand in any_hand(), ctx in any_context()) {
        run_everything(&hand, ctx);
    }

    #[test]
    fn random_well_formed_hands_never_panic(
        hand in well_formed_random_hand(),
        ctx in any_context(),
    ) {
        run_everything(&hand, ctx);
    }
}

// ---------------------------------------------------------------------------------------------
// (f) Validation collects every violation
// ---------------------------------------------------------------------------------------------

fn t(code: &str) -> Tile {
    code.parse().expect("tile code")
}

/// A valid hand: `[234m][456p1][888s2][7777p1]` + `E`, winning on `E`.
fn base_hand() -> HandInput {
    parse_hand("[234m][456p1][888s2][7777p1]EE").expect("base notation")
}

/// Independent defects, each touching its own part of the hand or the context, with the
/// code it must produce.
const DEFECTS: [ViolationCode; 9] = [
    ViolationCode::ChowInvalid,
    ViolationCode::ChowNotFromLeft,
    ViolationCode::PungInvalid,
    ViolationCode::TooManyCopies,
    ViolationCode::TileCountWrong,
    ViolationCode::WinningTileMissing,
    ViolationCode::FlowerCount,
    ViolationCode::ContextConflict,
    ViolationCode::ConcealedKongClaimed,
];

fn inject(mask: u16, flowers: u8) -> (HandInput, WinContext) {
    let mut hand = base_hand();
    let mut ctx = WinContext::default();
    let on = |i: usize| mask & (1 << i) != 0;
    if on(0) {
        hand.melds[0].tiles = vec![t("2m"), t("3m"), t("5m")];
    }
    if on(1) {
        hand.melds[1].claimed_from = Some(Claim::Right);
    }
    if on(2) {
        hand.melds[2].tiles = vec![t("8s"), t("8s"), t("9s")];
    }
    if on(3) {
        // A fifth 7p besides the kong, not relying on the winning tile.
        hand.standing = vec![t("7p")];
    }
    if on(4) {
        hand.standing.push(t("9p"));
    }
    if on(5) {
        hand.winning_tile = None;
    }
    if on(6) {
        ctx.flowers = 9 + flowers % 247;
    }
    if on(7) {
        ctx.method = WinMethod::SelfDrawn;
        ctx.robbing_kong = true;
    }
    if on(8) {
        hand.melds[3].kind = MeldKind::ConcealedKong;
    }
    (hand, ctx)
}

fn codes(hand: &HandInput, ctx: WinContext) -> BTreeSet<&'static str> {
    match hand.validate(&ctx) {
        Ok(_) => BTreeSet::new(),
        Err(v) => v.iter().map(|v| v.code.as_str()).collect(),
    }
}

#[test]
fn a_bad_chow_and_a_fifth_copy_are_both_reported() {
    let ctx = WinContext::default();
    let hand = parse_hand("[124m][5555p1]5p11s234sEE").expect("notation");
    let got = codes(&hand, ctx);
    assert_eq!(
        got,
        BTreeSet::from(["CHOW_INVALID", "TILE_COPIES_EXCEEDED"]),
        "{}",
        format_hand(&hand)
    );
    // The same with a wrong tile count and a conflicting context on top.
    let hand = parse_hand("[124m][5555p1]5p11s234sEEEE").expect("notation");
    let ctx = WinContext {
        method: WinMethod::Discard,
        replacement_draw: true,
        flowers: 9,
        ..WinContext::default()
    };
    assert_eq!(
        codes(&hand, ctx),
        BTreeSet::from([
            "CHOW_INVALID",
            "TILE_COPIES_EXCEEDED",
            "TILE_COUNT_WRONG",
            "CONTEXT_CONFLICT",
            "FLOWER_COUNT_INVALID",
        ])
    );
}

#[test]
fn the_defect_base_hand_is_valid() {
    let (hand, ctx) = inject(0, 0);
    assert_eq!(codes(&hand, ctx), BTreeSet::new(), "{}", format_hand(&hand));
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn validation_collects_every_violation(
        mask in 0u16..(1 << DEFECTS.len()),
        flowers in any::<u8>(),
    ) {
        let (hand, ctx) = inject(mask, flowers);
        let want: BTreeSet<&str> = DEFECTS
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, c)| c.as_str())
            .collect();
        prop_assert_eq!(codes(&hand, ctx), want, "{} {:?}", format_hand(&hand), ctx);
    }
}

//! Every input form of the notation on the public corpus: each winning hand, rewritten in
//! every form (calculator chow digits at random, a comma before meld digits, `z` honours,
//! glyphs, whitespace, all mixed), reads back as the same hand and scores exactly as the
//! original; and the canonical notation and its glyphs read back as the hand, whatever form
//! it was read from.

#[allow(dead_code)] // the request strategies this test does not use
mod support;

use mcr::notation::{format_canonical, format_glyphs, parse_hand};
use mcr::{Ruleset, WinContext, score};
use proptest::prelude::*;
use support::corpus;
use support::forms::{self, Choices, FORMS};

/// The corpus cases that are wins, with their hand and context.
fn winning_hands() -> Vec<(String, mcr::HandInput, WinContext)> {
    corpus::load()
        .into_iter()
        .filter(|case| case.error().is_none())
        .filter_map(|case| case.input().map(|(h, ctx)| (case.id.clone(), h, ctx)))
        .collect()
}

#[test]
fn every_winning_corpus_hand_scores_the_same_in_every_form() {
    let hands = winning_hands();
    assert!(hands.len() > 2000, "{} winning hands", hands.len());
    let mut failures = Vec::new();
    for (i, (id, original, ctx)) in hands.iter().enumerate() {
        let valid = original
            .validate(ctx)
            .unwrap_or_else(|v| panic!("{id}: {v:?}"));
        let expected = score(&valid, ctx, &Ruleset::MIL);
        let mut choices = Choices::new(u64::try_from(i).unwrap_or(0));
        for form in FORMS {
            let hand = forms::with_random_claimed_tiles(original, &mut choices);
            let text = forms::write(&hand, form, &mut choices);
            let read = match parse_hand(&text) {
                Ok(read) => read,
                Err(e) => {
                    failures.push(format!("{id} {form:?} `{text}`: {e}"));
                    continue;
                }
            };
            if read != forms::as_notation_reads(&hand) {
                failures.push(format!("{id} {form:?} `{text}` reads as {read:?}"));
                continue;
            }
            let scored = read.validate(ctx).map(|h| score(&h, ctx, &Ruleset::MIL));
            if scored.as_ref() != Ok(&expected) {
                failures.push(format!(
                    "{id} {form:?} `{text}`: {scored:?}, not {expected:?}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} hands × forms differ, first: {:#?}",
        failures.len(),
        hands.len() * FORMS.len(),
        &failures[..failures.len().min(5)]
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// parse(canonical(hand)) is the hand (its standing tiles sorted), from every form, and
    /// so is parse(glyphs(hand)).
    #[test]
    fn the_canonical_notation_reads_back_from_every_form(index in any::<prop::sample::Index>(), seed in any::<u64>()) {
        static HANDS: std::sync::LazyLock<Vec<(String, mcr::HandInput, WinContext)>> =
            std::sync::LazyLock::new(winning_hands);
        let (id, original, ctx) = &HANDS[index.index(HANDS.len())];
        let mut choices = Choices::new(seed);
        for form in FORMS {
            let hand = forms::as_notation_reads(&forms::with_random_claimed_tiles(original, &mut choices));
            let text = forms::write(&hand, form, &mut choices);
            let read = parse_hand(&text).map_err(|e| TestCaseError::fail(format!("{id} `{text}`: {e}")))?;
            prop_assert_eq!(&read, &hand, "{} {:?} `{}`", id, form, text);
            let valid = read.validate(ctx).map_err(|v| TestCaseError::fail(format!("{id}: {v:?}")))?;
            let mut sorted = hand.clone();
            sorted.standing.sort_unstable();
            for written in [format_canonical(&valid), format_glyphs(&valid)] {
                let back = parse_hand(&written).map_err(|e| TestCaseError::fail(format!("`{written}`: {e}")))?;
                prop_assert_eq!(&back, &sorted, "{} {:?} `{}`", id, form, written);
            }
        }
    }
}

//! The notation parser on arbitrary text: it never panics, and a hand it reads is written
//! back (`format_hand`) as notation that reads as the same hand. A hand that also validates
//! has a canonical notation that reads and validates to the same canonical notation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcr::WinContext;
use mcr::notation::{format_canonical, format_hand, parse_hand};

fuzz_target!(|text: &str| {
    let Ok(hand) = parse_hand(text) else {
        return;
    };
    let written = format_hand(&hand);
    let again = parse_hand(&written)
        .unwrap_or_else(|e| panic!("{text:?} → {written:?} does not parse: {e}"));
    assert_eq!(again, hand, "{text:?} → {written:?}");
    assert_eq!(format_hand(&again), written);

    let context = WinContext::default();
    if let Ok(valid) = hand.validate(&context) {
        let canonical = format_canonical(&valid);
        let reread = parse_hand(&canonical)
            .unwrap_or_else(|e| panic!("{text:?} → canonical {canonical:?} does not parse: {e}"));
        let revalid = reread
            .validate(&context)
            .unwrap_or_else(|v| panic!("{text:?} → canonical {canonical:?}: {v:?}"));
        assert_eq!(format_canonical(&revalid), canonical, "{text:?}");
    }
});

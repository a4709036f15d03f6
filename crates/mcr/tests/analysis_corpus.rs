//! The public analysis corpus (1,500 hands in play analysed by an independent calculator
//! under MIL) through the engine: distance to ready per shape, useful tiles and the copies
//! left, every wait scored both ways, and the discard table must agree on every case.

mod analysis_support;

use analysis_support::{KNITTED_WITH_MELD, View, load};
use mcr::Ruleset;
use mcr::analysis::{Analysis, InPlay, analyze};

#[test]
fn public_analysis_corpus_agrees_completely_under_mil() {
    let cases = load();
    assert_eq!(cases.len(), 1500);
    let mut failures = Vec::new();
    let (mut waiting, mut drawn, mut waits) = (0, 0, 0);
    let mut knitted_with_meld = Vec::new();
    for case in &cases {
        let (hand, visible, context) = case.input();
        let in_play = match InPlay::new(&hand, &visible) {
            Ok(h) => h,
            Err(v) => {
                failures.push(format!("{}: rejected: {v:?}", case.id));
                continue;
            }
        };
        assert_eq!(in_play.is_waiting(), case.kind == "waiting", "{}", case.id);
        let analysis = analyze(&in_play, &context, &Ruleset::MIL);
        match &analysis {
            Analysis::Waiting(w) => {
                waiting += 1;
                waits += w.waits.len();
            }
            Analysis::Drawn(_) => drawn += 1,
        }
        let corpus_view = View {
            omit_knitted_straight: hand.melds.len() == 1,
        };
        let got = corpus_view.summary(&analysis);
        for d in got.differences(&case.expected()) {
            failures.push(format!("{} {}: {d}", case.id, case.notation));
        }
        let mut full = View {
            omit_knitted_straight: false,
        }
        .summary(&analysis);
        // Every hand with one meld lists the shape; it matters where it is the nearest.
        full.shapes.clone_from(&got.shapes);
        if full != got {
            knitted_with_meld.push(case.id.as_str());
            // The waits the calculator misses complete the hand as a knitted straight.
            if let Analysis::Waiting(w) = &analysis {
                for wait in &w.waits {
                    let shape = wait
                        .scores
                        .as_ref()
                        .and_then(|s| s.on_discard.scoring.reading);
                    assert!(
                        wait.scores.is_none() || shape.is_some(),
                        "{}: wait {} does not complete the hand",
                        case.id,
                        wait.tile
                    );
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
    assert_eq!((waiting, drawn), (1225, 275));
    assert_eq!(knitted_with_meld, KNITTED_WITH_MELD);
    assert!(waits > 1500, "{waits} waits scored");
}

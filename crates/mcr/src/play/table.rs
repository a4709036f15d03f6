//! A whole table in one process: a hand dealt from a seed, played one decision at a time,
//! for bots and training environments (docs/python.md, "A table").
//!
//! The table keeps the hand's record and the state it leaves ([`PlayState`]), applies each
//! event once ([`PlayState::apply`]) and asks the same functions as [`super::next_actions`]
//! what each seat may do: no rule is written here. What it adds is the table's own part:
//! - it draws for the seats (the seed makes the wall known), and declares the draw game when
//!   the wall has no tile for a draw;
//! - it passes through a tile on offer that no seat can claim;
//! - it arbitrates the claims made on one tile ([`super::arbitrate()`]), the others written
//!   into the record as overridden;
//! - it gives each action a number in a fixed space ([`ACTION_SPACE`]), for action masks.
//!
//! Its record is a valid hand at every step: replayed with the seed it finds nothing, and
//! its result is the table's.

use crate::house_rules::Rules;
use crate::ruleset::Ruleset;
use crate::seat::{BySeat, Seat};
use crate::tile::{Tile, Wind};
use crate::violation::{Violation, ViolationCode};

use super::arbitrate::{ClaimMade, arbitrate};
use super::botzone::write_match;
use super::code::{At, PlayCode, PlayFinding};
use super::legal::{LegalAction, Offer};
use super::next::{Decision, NextOptions, Then, claims, decision, draw_or_end};
use super::record::{Action, Event, Flower, OverriddenClaim, Record};
use super::replay::{Replay, conclude, deal_record};
use super::seed::Seed;
use super::state::{Discard, DrawKind, Phase, PlayState, WallLeft};
use super::step::Effects;
use crate::hand::{KongExposure, Meld};

/// The size of the action space: an action's number ([`action_id`]) is below it.
///
/// The number is `kind × 34 + tile`, the tile its index in [`Tile::ALL`] (1m = 0 … white
/// dragon = 33), the kinds in this order: discard 0, chow 1 (named by its middle tile),
/// pung 2, kong of a discard 3, concealed kong 4, added kong 5, win 6, flower 7 (the tile
/// part is then the flower's number less one, 0–7).
pub const ACTION_SPACE: usize = 8 * 34;

/// Where the hand is, as the table leaves it between decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TablePhase {
    /// One seat holds a full hand: it discards, declares a kong, shows a flower or wins.
    Act,
    /// A tile is on offer and at least one seat can claim it.
    Claim,
    /// The hand is over: a win or a draw game.
    Over,
}

impl TablePhase {
    /// `act`, `claim` or `over`.
    pub const fn as_str(self) -> &'static str {
        match self {
            TablePhase::Act => "act",
            TablePhase::Claim => "claim",
            TablePhase::Over => "over",
        }
    }
}

/// The stable code of a step refused: a play code when the record would have got that
/// finding, an input code otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableCode {
    /// The finding the action would be in the record.
    Play(PlayCode),
    /// The choice itself is wrong (a seat that must act did not).
    Input(ViolationCode),
}

impl TableCode {
    /// The code's stable name (`DISCARD_NOT_HELD`, `VALUE_INVALID`).
    pub const fn as_str(self) -> &'static str {
        match self {
            TableCode::Play(code) => code.as_str(),
            TableCode::Input(code) => code.as_str(),
        }
    }
}

/// Why a step was refused; the table is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The stable code.
    pub code: TableCode,
    /// The seat whose choice it is, when one.
    pub seat: Option<Seat>,
    /// An English sentence.
    pub message: String,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for TableError {}

/// What one seat sees of another (or of itself, in public).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicSeat {
    /// Its exposed melds in declaration order (its concealed kongs are not among them).
    pub melds: Vec<Meld>,
    /// How many concealed kongs it holds (face down: their tiles are not shown).
    pub concealed_kongs: u8,
    /// How many tiles it holds concealed.
    pub concealed_count: u8,
    /// How many flowers it has shown.
    pub flowers: u8,
    /// Its discards in order, each with whether another seat took it.
    pub discards: Vec<Discard>,
}

/// One seat's view of the table, with no tile it cannot see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The seat observing.
    pub seat: Seat,
    /// The prevalent wind.
    pub prevalent_wind: Wind,
    /// Where the hand is.
    pub phase: TablePhase,
    /// The seat that acts, or that offers the tile in a claim window.
    pub turn: Option<Seat>,
    /// The tile on offer in a claim window.
    pub offered: Option<Tile>,
    /// The seat's concealed tiles, sorted.
    pub concealed: Vec<Tile>,
    /// The tile the seat just drew, when it is the one to act after a draw.
    pub drawn: Option<Tile>,
    /// The seat's own concealed kongs.
    pub own_concealed_kongs: Vec<Tile>,
    /// Every seat in public, East first (the observer's own concealed kongs counted, not
    /// shown).
    pub seats: BySeat<PublicSeat>,
    /// Tiles left to draw in the wall.
    pub wall_left: u16,
    /// The seat's legal actions now (none when it has no decision).
    pub legal: Vec<LegalAction>,
}

/// A hand in play at one table.
#[derive(Clone, Debug)]
pub struct Table {
    rules: Rules,
    seed: Seed,
    record: Record,
    state: PlayState,
    effects: Effects,
    decisions: Vec<Decision>,
    phase: TablePhase,
    result: Option<Replay>,
}

impl Table {
    /// A hand dealt from `seed` under `rules`, with `prevalent_wind`; play is moved on to
    /// the dealer's first decision.
    ///
    /// # Errors
    /// The seed cannot deal under `rules`: a seed deals the shared 136-tile wall, and the
    /// rules play another.
    pub fn new(seed: Seed, prevalent_wind: Wind, rules: Rules) -> Result<Table, Violation> {
        let record = seed.deal().record(prevalent_wind);
        let state = match deal_record(&record, &rules.ruleset(), Some(&seed))? {
            Ok(state) => state,
            // The seed's own deal is always playable (a shuffle of the 136 tiles).
            Err(found) => unreachable!("a seed's deal has findings: {found:?}"),
        };
        let mut table = Table {
            rules,
            seed,
            record,
            state,
            effects: Effects::default(),
            decisions: Vec::new(),
            phase: TablePhase::Act,
            result: None,
        };
        table.advance();
        Ok(table)
    }

    /// Where the hand is.
    pub const fn phase(&self) -> TablePhase {
        self.phase
    }

    /// The seed the hand was dealt from.
    pub const fn seed(&self) -> &Seed {
        &self.seed
    }

    /// The rules played.
    pub fn rules(&self) -> Ruleset<'_> {
        self.rules.ruleset()
    }

    /// Each seat with a decision now, in turn order from the seat that acts or offers, with
    /// its legal actions (passing a claim is always allowed and not listed).
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The legal actions of `seat` now, empty when it has no decision.
    pub fn legal(&self, seat: Seat) -> &[LegalAction] {
        self.decisions
            .iter()
            .find(|d| d.seat == seat)
            .map_or(&[], |d| d.actions.as_slice())
    }

    /// The record so far (the deal, the wall, the events; the draw game once declared).
    pub const fn record(&self) -> &Record {
        &self.record
    }

    /// The state the record leaves.
    pub const fn state(&self) -> &PlayState {
        &self.state
    }

    /// The verdict once the hand is over: the win (fans, points) or the draw game, and the
    /// settlement; `None` before.
    pub const fn result(&self) -> Option<&Replay> {
        self.result.as_ref()
    }

    /// Moves the hand on by one decision.
    ///
    /// - In the act phase, `choices` holds the acting seat's action, and only it.
    /// - In a claim window, each seat that claims gives its claim; a seat left out passes
    ///   (no choice at all: every seat passes). Claims on one tile are arbitrated; the
    ///   others are written into the record as overridden.
    ///
    /// # Errors
    /// A choice that is not legal, by a seat with no decision, a missing act, or a step
    /// after the end: the table is unchanged.
    pub fn step(&mut self, choices: &[(Seat, Action)]) -> Result<(), TableError> {
        for (i, &(seat, action)) in choices.iter().enumerate() {
            if choices[..i].iter().any(|&(s, _)| s == seat) {
                return Err(TableError {
                    code: TableCode::Input(ViolationCode::ValueInvalid),
                    seat: Some(seat),
                    message: format!("{seat} makes two choices at once"),
                });
            }
            self.check_legal(seat, action)?;
        }
        match self.phase {
            TablePhase::Over => Err(TableError {
                code: TableCode::Play(PlayCode::EventAfterEnd),
                seat: None,
                message: "the hand is over".to_owned(),
            }),
            TablePhase::Act => {
                let Some(&(seat, action)) = choices.first() else {
                    let seat = self.decisions.first().map(|d| d.seat);
                    return Err(TableError {
                        code: TableCode::Input(ViolationCode::ValueInvalid),
                        seat,
                        message: format!(
                            "{} must act: discard, declare a kong or a win",
                            seat.map_or("the seat", Seat::name)
                        ),
                    });
                };
                self.push(Event::new(seat, action));
                self.advance();
                Ok(())
            }
            TablePhase::Claim => {
                self.claim(choices);
                self.advance();
                Ok(())
            }
        }
    }

    /// The hand so far in Botzone's line format (`docs/replay.md`), headed `Match {id}`:
    /// the deal, every event with its `Ignore` clauses and, once the hand is over, its `Fan`
    /// and `Score` lines (or `Huang`).
    pub fn log(&self, id: &str) -> String {
        write_match(id, &self.record, self.result.as_ref())
    }

    /// What `seat` sees now: its own tiles, every seat's public part, the tile on offer, its
    /// legal actions.
    pub fn observation(&self, seat: Seat) -> Observation {
        let (turn, offered, drawn) = match self.state.phase() {
            Phase::Act {
                seat: actor, drawn, ..
            } => (Some(actor), None, drawn.filter(|_| actor == seat)),
            Phase::Discarded {
                seat: from, tile, ..
            }
            | Phase::AddingKong { seat: from, tile } => (Some(from), Some(tile), None),
            Phase::Draw { seat: next, .. } => (Some(next), None, None),
            Phase::Over(_) => (None, None, None),
        };
        let own = &self.state.seats()[seat];
        Observation {
            seat,
            prevalent_wind: self.state.prevalent_wind(),
            phase: self.phase,
            turn,
            offered,
            concealed: own.concealed_tiles(),
            drawn,
            own_concealed_kongs: own
                .melds()
                .iter()
                .filter_map(|m| match *m {
                    Meld::Kong {
                        tile,
                        exposure: KongExposure::Concealed,
                    } => Some(tile),
                    Meld::Kong { .. } | Meld::Pung { .. } | Meld::Chow { .. } => None,
                })
                .collect(),
            seats: BySeat::new_with(|s| public_seat(&self.state, s)),
            wall_left: match self.state.wall().left() {
                WallLeft::Shared(n) => *n,
                WallLeft::PerSeat(left) => left.iter().map(|&n| u16::from(n)).sum(),
            },
            legal: self.legal(seat).to_vec(),
        }
    }

    /// Refuses `action` by `seat` unless it is among the seat's legal actions now, with the
    /// finding the record would get for it.
    fn check_legal(&self, seat: Seat, action: Action) -> Result<(), TableError> {
        if self.phase == TablePhase::Over {
            return Err(TableError {
                code: TableCode::Play(PlayCode::EventAfterEnd),
                seat: Some(seat),
                message: "the hand is over".to_owned(),
            });
        }
        if self.legal(seat).iter().any(|l| l.action == action) {
            return Ok(());
        }
        // What the record would say of it: the transition's own finding.
        let index = self.record.events.len();
        let (_, effects) = self
            .state
            .next(index, &Event::new(seat, action), &self.rules.ruleset());
        Err(match effects.findings.into_iter().next() {
            Some(PlayFinding { code, message, .. }) => TableError {
                code: TableCode::Play(code),
                seat: Some(seat),
                message,
            },
            None => TableError {
                code: TableCode::Input(ViolationCode::ValueInvalid),
                seat: Some(seat),
                message: format!(
                    "{} is not among {seat}'s legal actions now",
                    super::botzone::action_line(seat, action)
                ),
            },
        })
    }

    /// The claims of a window arbitrated into the event that follows, or the draw when all
    /// pass.
    fn claim(&mut self, choices: &[(Seat, Action)]) {
        let offer = match self.state.phase() {
            Phase::Discarded { seat, tile, .. } => Offer::Discard { tile, from: seat },
            Phase::AddingKong { seat, tile } => Offer::AddedKong { tile, from: seat },
            Phase::Act { .. } | Phase::Draw { .. } | Phase::Over(_) => {
                unreachable!("a claim window without a tile on offer")
            }
        };
        // In turn order from the offerer: the order arbitration breaks ties by anyway.
        let mut made: Vec<ClaimMade> = choices
            .iter()
            .map(|&(seat, action)| ClaimMade {
                seat,
                action,
                view: None,
            })
            .collect();
        made.sort_by_key(|c| offer.from().turns_until(c.seat));
        if made.is_empty() {
            self.pass();
            return;
        }
        let ruling = arbitrate(offer, &made, &self.rules.ruleset())
            .expect("claims among the legal actions can be arbitrated");
        let stands = ruling
            .stands
            .expect("claims among the legal actions are legal");
        let claim = &made[stands];
        self.push(Event {
            seat: claim.seat,
            action: claim.action,
            overridden: ruling
                .overridden
                .iter()
                .map(|&i| OverriddenClaim {
                    seat: made[i].seat,
                    action: made[i].action,
                })
                .collect(),
        });
    }

    /// Every seat passes on the tile offered: the draw that follows.
    fn pass(&mut self) {
        let then = match self.state.phase() {
            Phase::Discarded { seat, .. } => {
                draw_or_end(&self.state, seat.next(), DrawKind::Normal)
            }
            Phase::AddingKong { seat, .. } => draw_or_end(&self.state, seat, DrawKind::AfterKong),
            Phase::Act { .. } | Phase::Draw { .. } | Phase::Over(_) => return,
        };
        self.follow(then);
    }

    /// The draw (with the wall's tile) or the draw game.
    fn follow(&mut self, then: Then) {
        match then {
            Then::Draw(draw) => {
                let tile = draw.tile.expect("a seeded wall knows every tile it deals");
                self.push(Event::new(draw.seat, Action::Draw(tile)));
            }
            Then::DrawGame => {
                self.record.draw_game = true;
                self.state.declare_draw_game(At::End, &mut self.effects);
            }
        }
    }

    fn push(&mut self, event: Event) {
        let index = self.record.events.len();
        self.state
            .apply(index, &event, &self.rules.ruleset(), &mut self.effects);
        self.record.events.push(event);
    }

    /// Draws, and passes through windows no seat can claim in, until a seat has a decision
    /// or the hand is over.
    fn advance(&mut self) {
        let options = NextOptions::default();
        loop {
            match self.state.phase() {
                Phase::Draw { seat, kind } => {
                    let then = draw_or_end(&self.state, seat, kind);
                    self.follow(then);
                }
                Phase::Act { seat, .. } => {
                    self.decisions = decision(&self.state, seat, &self.rules.ruleset(), &options)
                        .into_iter()
                        .collect();
                    self.phase = TablePhase::Act;
                    return;
                }
                Phase::Discarded { seat, .. } | Phase::AddingKong { seat, .. } => {
                    let decisions = claims(&self.state, seat, &self.rules.ruleset(), &options);
                    if decisions.is_empty() {
                        self.pass();
                    } else {
                        self.decisions = decisions;
                        self.phase = TablePhase::Claim;
                        return;
                    }
                }
                Phase::Over(_) => {
                    self.decisions.clear();
                    self.phase = TablePhase::Over;
                    let effects = std::mem::take(&mut self.effects);
                    self.result = Some(conclude(
                        &self.state,
                        &self.record,
                        effects,
                        Vec::new(),
                        &self.rules.ruleset(),
                    ));
                    return;
                }
            }
        }
    }
}

/// What every seat sees of `seat`: its concealed kongs (the only melds not claimed) are
/// counted, not shown.
fn public_seat(state: &PlayState, seat: Seat) -> PublicSeat {
    let s = &state.seats()[seat];
    let (shown, concealed): (Vec<Meld>, Vec<Meld>) = s.melds().iter().partition(|m| m.is_claimed());
    PublicSeat {
        melds: shown,
        concealed_kongs: u8::try_from(concealed.len()).unwrap_or(u8::MAX),
        concealed_count: u8::try_from(s.concealed_len()).unwrap_or(u8::MAX),
        flowers: s.flower_count(),
        discards: s.discards().to_vec(),
    }
}

/// The number of `action` in the fixed space ([`ACTION_SPACE`]); `None` for a draw, which
/// is the table's, not a seat's.
pub fn action_id(action: Action) -> Option<usize> {
    let (kind, part) = match action {
        Action::Draw(_) => return None,
        Action::Discard(t) => (0, t.index()),
        Action::Chow(t) => (1, t.index()),
        Action::Pung(t) => (2, t.index()),
        Action::Kong(t) => (3, t.index()),
        Action::ConcealedKong(t) => (4, t.index()),
        Action::AddedKong(t) => (5, t.index()),
        Action::Win(t) => (6, t.index()),
        Action::Flower(f) => (7, usize::from(f.number()) - 1),
    };
    Some(kind * 34 + part)
}

/// The action of number `id` ([`action_id`]'s inverse); `None` outside the space.
pub fn action_of_id(id: usize) -> Option<Action> {
    let (kind, part) = (id / 34, id % 34);
    let tile = Tile::ALL[part];
    Some(match kind {
        0 => Action::Discard(tile),
        1 => Action::Chow(tile),
        2 => Action::Pung(tile),
        3 => Action::Kong(tile),
        4 => Action::ConcealedKong(tile),
        5 => Action::AddedKong(tile),
        6 => Action::Win(tile),
        7 => Action::Flower(Flower::new(u8::try_from(part + 1).ok()?)?),
        _ => return None,
    })
}

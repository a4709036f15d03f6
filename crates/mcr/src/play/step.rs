//! The transition of play: one event applied to a state, every check citing its rule
//! ([`PlayCode::rule`]). A finding that [`Consequence::Stops`] leaves the seats as they were
//! and ends the hand as [`Ending::Stopped`].

use std::fmt;

use crate::hand::{KongExposure, Meld};
use crate::ruleset::{
    AddedKongTile, LastDiscardClaims, MultipleWinners, PlayRules, Ruleset, WallRule,
};
use crate::seat::{BySeat, Seat};
use crate::tile::{Tile, Wind};

use super::code::{At, Consequence, PlayCode, PlayFinding};
use super::record::{Action, DEALT_TILES, Drawn, Event, Flower, OverriddenClaim, chow_others};
use super::state::{DrawKind, Ending, Phase, PlayState, Wall};
use super::win::{JudgedWin, judge};
use crate::declaration::WinSource;

/// What events did besides changing the state: the findings, and every declaration of 和
/// judged (the valid one and the false ones).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// The findings, in order.
    pub findings: Vec<PlayFinding>,
    /// The declarations of 和, judged, in order.
    pub wins: Vec<JudgedWin>,
}

impl Effects {
    fn add(&mut self, at: At, code: PlayCode, seat: Option<Seat>, message: String) {
        self.findings.push(PlayFinding {
            at,
            code,
            seat,
            message,
        });
    }
}

/// Why an event (or a dealt tile) cannot be taken as the record gives it: the finding's
/// code, the seat whose event or deal it is, and a sentence for people. The transition turns
/// it into a [`PlayFinding`] at the event's place ([`StepError::finding`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StepError {
    /// The finding's stable code; [`PlayCode::consequence`] says whether play goes on.
    pub code: PlayCode,
    /// The seat whose event (or deal) it is.
    pub seat: Seat,
    /// An English sentence a person understands.
    pub message: String,
}

impl StepError {
    fn new(code: PlayCode, seat: Seat, message: String) -> StepError {
        StepError {
            code,
            seat,
            message,
        }
    }

    /// The finding at `at` in the record.
    #[must_use]
    pub fn finding(self, at: At) -> PlayFinding {
        PlayFinding {
            at,
            code: self.code,
            seat: Some(self.seat),
            message: self.message,
        }
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.code, self.seat, self.message)
    }
}

impl std::error::Error for StepError {}

impl PlayState {
    /// The state after the deal: each seat's 13 tiles (flowers among them are shown and
    /// replaced before the dealer's first draw), under `rules`, with the wall's order when
    /// the record gives it. Every problem of the deal is reported.
    pub fn deal(
        rules: PlayRules,
        prevalent_wind: Wind,
        deal: &BySeat<Vec<Drawn>>,
        wall: Option<Vec<Drawn>>,
    ) -> Result<PlayState, Vec<PlayFinding>> {
        let mut state = PlayState::empty(rules, prevalent_wind, Wall::new(rules.wall, wall));
        let mut effects = Effects::default();
        for (seat, tiles) in deal.entries() {
            if tiles.len() != DEALT_TILES {
                effects.add(
                    At::Deal(seat),
                    PlayCode::DealSize,
                    Some(seat),
                    format!("{seat} is dealt {} tiles, not 13", tiles.len()),
                );
            }
            for &drawn in tiles {
                if let Err(error) = state.enter(seat, drawn) {
                    effects.findings.push(error.finding(At::Deal(seat)));
                } else {
                    state.seats[seat].take(drawn);
                }
            }
        }
        if effects.findings.is_empty() {
            Ok(state)
        } else {
            Err(effects.findings)
        }
    }

    /// The state after `event` (the record's `index`-th), with what it did: the pure form of
    /// [`PlayState::apply`].
    #[must_use]
    pub fn next(&self, index: usize, event: &Event, rules: &Ruleset) -> (PlayState, Effects) {
        let mut state = self.clone();
        let mut effects = Effects::default();
        state.apply(index, event, rules, &mut effects);
        (state, effects)
    }

    /// Applies `event` (the record's `index`-th), adding what it finds to `effects`.
    pub fn apply(&mut self, index: usize, event: &Event, rules: &Ruleset, effects: &mut Effects) {
        let at = At::Event(index);
        let seat = event.seat;
        if let Phase::Over(ending) = self.phase {
            if ending != Ending::Stopped {
                effects.add(
                    at,
                    PlayCode::EventAfterEnd,
                    Some(seat),
                    format!(
                        "the hand is over ({}); nothing follows",
                        ending_text(ending)
                    ),
                );
            }
            return;
        }
        let claim = matches!(
            self.phase,
            Phase::Discarded { .. } | Phase::AddingKong { .. }
        ) && event.action.is_claim_kind();
        if !event.overridden.is_empty() && !claim {
            effects.add(
                at,
                PlayCode::OverriddenClaimInvalid,
                Some(seat),
                "claims are shown as overridden only on a claim of a discard or added kong"
                    .to_owned(),
            );
        }
        let outcome = match self.phase {
            Phase::Over(_) => Ok(()),
            Phase::Draw { seat: drawer, kind } => self.on_draw_phase(event, drawer, kind, rules),
            Phase::Act {
                seat: actor,
                drawn,
                kind,
                claimed,
            } => self.on_act(event, actor, drawn, kind, claimed, rules, at, effects),
            Phase::Discarded {
                seat: discarder,
                tile,
                last,
            } => self.on_discard(event, discarder, tile, last, rules, at, effects),
            Phase::AddingKong { seat: adder, tile } => {
                self.on_adding_kong(event, adder, tile, rules, at, effects)
            }
        };
        if let Err(error) = outcome {
            let stops = error.code.consequence() == Consequence::Stops;
            effects.findings.push(error.finding(at));
            if stops {
                self.phase = Phase::Over(Ending::Stopped);
            }
        }
    }

    /// The record declares a draw game (荒牌) after its events.
    pub fn declare_draw_game(&mut self, at: At, effects: &mut Effects) {
        let allowed = match self.phase {
            Phase::Discarded { seat, .. } => !self.wall.can_draw(seat.next()),
            Phase::Draw { seat, .. } => !self.wall.can_draw(seat),
            Phase::Act { .. } | Phase::AddingKong { .. } => false,
            Phase::Over(Ending::Stopped) => return,
            Phase::Over(ending) => {
                effects.add(
                    at,
                    PlayCode::EventAfterEnd,
                    None,
                    format!(
                        "the hand is over ({}); no draw game follows",
                        ending_text(ending)
                    ),
                );
                return;
            }
        };
        if allowed {
            self.phase = Phase::Over(Ending::DrawGame);
        } else {
            effects.add(
                at,
                PlayCode::DrawGameEarly,
                None,
                format!(
                    "a draw game is declared while {}",
                    match self.phase {
                        Phase::Discarded { .. } | Phase::Draw { .. } =>
                            "the next seat can still draw",
                        Phase::Act { .. } => "a seat is still to discard",
                        Phase::AddingKong { .. } => "a kong is still to be completed",
                        Phase::Over(_) => "the hand is over",
                    }
                ),
            );
            self.phase = Phase::Over(Ending::Stopped);
        }
    }

    /// The finding when the record ends here, if the hand is not over.
    pub fn unfinished(&self) -> Option<PlayFinding> {
        let (seat, what) = match self.phase {
            Phase::Over(_) => return None,
            Phase::Draw { seat, .. } => (seat, "draw"),
            Phase::Act { seat, .. } => (seat, "discard"),
            Phase::Discarded { seat, .. } => (seat.next(), "draw or claim"),
            Phase::AddingKong { seat, .. } => (seat, "complete the kong"),
        };
        Some(PlayFinding {
            at: At::End,
            code: PlayCode::HandNotEnded,
            seat: Some(seat),
            message: format!("the record ends while {seat} is to {what}"),
        })
    }

    /// Counts a tile that comes into the game (dealt or drawn).
    fn enter(&mut self, seat: Seat, drawn: Drawn) -> Result<(), StepError> {
        match drawn {
            Drawn::Tile(t) => {
                if self.entered[t.index()] >= 4 {
                    return Err(StepError::new(
                        PlayCode::TileCopiesExceeded,
                        seat,
                        format!("a fifth copy of {t} comes into play"),
                    ));
                }
                self.entered[t.index()] += 1;
            }
            Drawn::Flower(f) => {
                if self.rules.wall != WallRule::Shared144 {
                    return Err(StepError::new(
                        PlayCode::WallMismatch,
                        seat,
                        format!("flower {} is drawn from a wall without flowers", f.number()),
                    ));
                }
                if self.flowers_entered & f.bit() != 0 {
                    return Err(StepError::new(
                        PlayCode::TileCopiesExceeded,
                        seat,
                        format!("flower {} comes into play twice", f.number()),
                    ));
                }
                self.flowers_entered |= f.bit();
            }
        }
        Ok(())
    }

    fn on_draw_phase(
        &mut self,
        event: &Event,
        drawer: Seat,
        kind: DrawKind,
        _rules: &Ruleset,
    ) -> Result<(), StepError> {
        let seat = event.seat;
        match event.action {
            Action::Draw(drawn) if seat == drawer => self.draw(seat, kind, drawn),
            Action::Flower(flower) if self.opening && kind == DrawKind::Normal => {
                self.show_flower(seat, flower, DrawKind::DealtFlower)
            }
            Action::Draw(_)
            | Action::Flower(_)
            | Action::Discard(_)
            | Action::Chow(_)
            | Action::Pung(_)
            | Action::Kong(_)
            | Action::ConcealedKong(_)
            | Action::AddedKong(_)
            | Action::Win(_) => Err(out_of_turn(seat, &format!("{drawer} is to draw"))),
        }
    }

    fn draw(&mut self, seat: Seat, kind: DrawKind, drawn: Drawn) -> Result<(), StepError> {
        if !self.wall.can_draw(seat) {
            return Err(StepError::new(
                PlayCode::DrawFromEmptyWall,
                seat,
                format!("{seat} draws, but the wall has no tile left for it"),
            ));
        }
        if let Some(expected) = self.wall.expected(kind)
            && expected != drawn
        {
            return Err(StepError::new(
                PlayCode::WallMismatch,
                seat,
                format!(
                    "{seat} draws {}, but the wall's tile is {}",
                    drawn_text(drawn),
                    drawn_text(expected)
                ),
            ));
        }
        self.enter(seat, drawn)?;
        self.wall.take(seat, kind);
        self.seats[seat].take(drawn);
        self.phase = if kind == DrawKind::DealtFlower {
            Phase::Draw {
                seat: Seat::East,
                kind: DrawKind::Normal,
            }
        } else {
            let tile = match drawn {
                Drawn::Tile(t) => Some(t),
                Drawn::Flower(_) => None,
            };
            Phase::Act {
                seat,
                drawn: tile,
                kind,
                claimed: false,
            }
        };
        Ok(())
    }

    fn show_flower(&mut self, seat: Seat, flower: Flower, then: DrawKind) -> Result<(), StepError> {
        if !self.seats[seat].holds_this_flower(flower) {
            return Err(StepError::new(
                PlayCode::FlowerNotHeld,
                seat,
                format!(
                    "{seat} shows flower {}, which it does not hold",
                    flower.number()
                ),
            ));
        }
        self.seats[seat].show_flower(flower);
        self.phase = Phase::Draw { seat, kind: then };
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn on_act(
        &mut self,
        event: &Event,
        actor: Seat,
        drawn: Option<Tile>,
        kind: DrawKind,
        claimed: bool,
        rules: &Ruleset,
        at: At,
        effects: &mut Effects,
    ) -> Result<(), StepError> {
        let seat = event.seat;
        if seat != actor {
            return Err(out_of_turn(seat, &format!("{actor} is to discard")));
        }
        if self.seats[seat].holds_flower() && !matches!(event.action, Action::Flower(_)) {
            return Err(StepError::new(
                PlayCode::FlowerNotShown,
                seat,
                format!("{seat} holds a flower it has not shown and replaced"),
            ));
        }
        match event.action {
            Action::Discard(tile) => self.discard(seat, tile),
            Action::Flower(flower) => self.show_flower(seat, flower, DrawKind::AfterFlower),
            Action::ConcealedKong(tile) => self.concealed_kong(seat, tile, claimed),
            Action::AddedKong(tile) => self.added_kong(seat, tile, drawn, claimed),
            Action::Win(named) => {
                if claimed {
                    return Err(out_of_turn(
                        seat,
                        "a seat that just claimed a discard discards; it cannot declare a self-drawn win",
                    ));
                }
                let Some(tile) = drawn else {
                    return Err(out_of_turn(seat, "there is no drawn tile to win on"));
                };
                if named != tile {
                    effects.add(
                        at,
                        PlayCode::WinTileMismatch,
                        Some(seat),
                        format!("{seat} declares a self-drawn win on {named}, but drew {tile}: the win is judged on {tile}"),
                    );
                }
                self.declare(seat, tile, (WinSource::SelfDrawn, kind), rules, at, effects);
                Ok(())
            }
            Action::Draw(_) | Action::Chow(_) | Action::Pung(_) | Action::Kong(_) => Err(
                out_of_turn(seat, &format!("{seat} holds a full hand and is to discard")),
            ),
        }
    }

    fn discard(&mut self, seat: Seat, tile: Tile) -> Result<(), StepError> {
        if self.seats[seat].concealed()[tile.index()] == 0 {
            return Err(StepError::new(
                PlayCode::DiscardNotHeld,
                seat,
                format!("{seat} discards {tile}, which it does not hold"),
            ));
        }
        self.seats[seat].remove(tile, 1);
        self.seats[seat].push_discard(tile);
        self.visible[tile.index()] += 1;
        self.opening = false;
        self.phase = Phase::Discarded {
            seat,
            tile,
            last: self.wall.discard_is_last(seat),
        };
        Ok(())
    }

    fn concealed_kong(&mut self, seat: Seat, tile: Tile, claimed: bool) -> Result<(), StepError> {
        self.kong_from_hand_checks(seat, claimed)?;
        if self.seats[seat].concealed()[tile.index()] < 4 {
            return Err(StepError::new(
                PlayCode::KongWithoutTiles,
                seat,
                format!("{seat} declares a concealed kong of {tile} without four of them"),
            ));
        }
        self.seats[seat].remove(tile, 4);
        self.seats[seat].push_meld(Meld::Kong {
            tile,
            exposure: KongExposure::Concealed,
        });
        self.phase = Phase::Draw {
            seat,
            kind: DrawKind::AfterKong,
        };
        Ok(())
    }

    fn added_kong(
        &mut self,
        seat: Seat,
        tile: Tile,
        drawn: Option<Tile>,
        claimed: bool,
    ) -> Result<(), StepError> {
        self.kong_from_hand_checks(seat, claimed)?;
        let holder = &self.seats[seat];
        if holder.pung_of(tile).is_none() || holder.concealed()[tile.index()] == 0 {
            return Err(StepError::new(
                PlayCode::AddedKongWithoutPung,
                seat,
                format!(
                    "{seat} adds {tile} to a kong without {}",
                    if holder.pung_of(tile).is_none() {
                        "a melded pung of it"
                    } else {
                        "the tile in hand"
                    }
                ),
            ));
        }
        if self.rules.added_kong_tile == AddedKongTile::JustDrawn && drawn != Some(tile) {
            return Err(StepError::new(
                PlayCode::AddedKongNotDrawn,
                seat,
                format!("{seat} adds {tile} to its pung, but did not just draw it"),
            ));
        }
        self.seats[seat].remove(tile, 1);
        self.visible[tile.index()] += 1;
        self.phase = Phase::AddingKong { seat, tile };
        Ok(())
    }

    fn kong_from_hand_checks(&self, seat: Seat, claimed: bool) -> Result<(), StepError> {
        if claimed {
            return Err(StepError::new(
                PlayCode::KongAfterClaim,
                seat,
                format!("{seat} declares a kong right after a chow or pung, before drawing"),
            ));
        }
        if !self.wall.kong_from_hand_allowed(seat) {
            return Err(StepError::new(
                PlayCode::KongOnEmptyWall,
                seat,
                format!("{seat} declares a kong, but no replacement tile can be drawn"),
            ));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn on_discard(
        &mut self,
        event: &Event,
        discarder: Seat,
        tile: Tile,
        last: bool,
        rules: &Ruleset,
        at: At,
        effects: &mut Effects,
    ) -> Result<(), StepError> {
        let seat = event.seat;
        if let Action::Draw(drawn) = event.action {
            if seat != discarder.next() {
                return Err(out_of_turn(
                    seat,
                    &format!("{} is to draw", discarder.next()),
                ));
            }
            return self.draw(seat, DrawKind::Normal, drawn);
        }
        if !event.action.is_claim_kind() {
            return Err(out_of_turn(
                seat,
                &format!(
                    "{discarder} discarded {tile}: it may be claimed, or {} draws",
                    discarder.next()
                ),
            ));
        }
        if seat == discarder {
            return Err(StepError::new(
                PlayCode::ClaimNotPending,
                seat,
                format!("{seat} claims its own discard"),
            ));
        }
        self.check_overridden(event, discarder, tile, at, effects)?;
        if last
            && self.rules.last_discard_claims == LastDiscardClaims::WinsOnly
            && !matches!(event.action, Action::Win(_))
        {
            return Err(StepError::new(
                PlayCode::ClaimOnLastDiscard,
                seat,
                format!("{seat} claims the last discard {tile} other than to win"),
            ));
        }
        match event.action {
            Action::Chow(middle) => self.chow(seat, discarder, tile, middle, at, effects),
            Action::Pung(named) | Action::Kong(named) if named != tile => Err(StepError::new(
                PlayCode::ClaimNotPending,
                seat,
                format!("{seat} claims {named}, but the discard is {tile}"),
            )),
            Action::Pung(_) => self.pung(seat, discarder, tile),
            Action::Kong(_) => self.claimed_kong(seat, discarder, tile),
            Action::Win(named) => {
                if named != tile {
                    return Err(StepError::new(
                        PlayCode::ClaimNotPending,
                        seat,
                        format!("{seat} declares a win on {named}, but the discard is {tile}"),
                    ));
                }
                self.declare(
                    seat,
                    tile,
                    (WinSource::Discard { discarder }, DrawKind::Normal),
                    rules,
                    at,
                    effects,
                );
                Ok(())
            }
            Action::Draw(_)
            | Action::Flower(_)
            | Action::Discard(_)
            | Action::ConcealedKong(_)
            | Action::AddedKong(_) => Err(out_of_turn(seat, "not a claim")),
        }
    }

    fn chow(
        &mut self,
        seat: Seat,
        discarder: Seat,
        tile: Tile,
        middle: Tile,
        at: At,
        effects: &mut Effects,
    ) -> Result<(), StepError> {
        let [low, high] = chow_others(middle, tile).ok_or_else(|| {
            StepError::new(
                PlayCode::ChowInvalid,
                seat,
                format!("{seat} cannot chow {tile} with {middle} as the middle tile"),
            )
        })?;
        let holder = &self.seats[seat];
        if holder.concealed()[low.index()] == 0 || holder.concealed()[high.index()] == 0 {
            return Err(StepError::new(
                PlayCode::ChowWithoutTiles,
                seat,
                format!("{seat} chows {tile} without holding {low} and {high}"),
            ));
        }
        if seat != discarder.next() {
            effects.add(
                at,
                PlayCode::ChowNotFromLeft,
                Some(seat),
                format!("{seat} chows {tile} from {discarder}, who is not on its left: it loses the right to win this hand"),
            );
            self.seats[seat].bar();
        }
        let first = Tile::from_index(middle.index_u8() - 1).unwrap_or(middle);
        self.take_discard(discarder, seat, &[low, high]);
        self.seats[seat].push_meld(Meld::Chow {
            first,
            claimed: Some(tile),
        });
        self.after_claim(seat);
        Ok(())
    }

    fn pung(&mut self, seat: Seat, discarder: Seat, tile: Tile) -> Result<(), StepError> {
        let from = seat.relation_to(discarder);
        if self.seats[seat].concealed()[tile.index()] < 2 {
            return Err(StepError::new(
                PlayCode::PungWithoutPair,
                seat,
                format!("{seat} pungs {tile} without a pair of it"),
            ));
        }
        self.take_discard(discarder, seat, &[tile, tile]);
        self.seats[seat].push_meld(Meld::Pung { tile, from });
        self.after_claim(seat);
        Ok(())
    }

    fn claimed_kong(&mut self, seat: Seat, discarder: Seat, tile: Tile) -> Result<(), StepError> {
        let from = seat.relation_to(discarder);
        if self.seats[seat].concealed()[tile.index()] < 3 {
            return Err(StepError::new(
                PlayCode::KongWithoutTiles,
                seat,
                format!("{seat} declares a kong of {tile} without a concealed pung of it"),
            ));
        }
        if !self.wall.claimed_kong_allowed(seat) {
            return Err(StepError::new(
                PlayCode::KongOnEmptyWall,
                seat,
                format!("{seat} declares a kong of {tile}, but no replacement tile can be drawn"),
            ));
        }
        self.take_discard(discarder, seat, &[tile, tile, tile]);
        self.seats[seat].push_meld(Meld::Kong {
            tile,
            exposure: KongExposure::Direct(from),
        });
        self.phase = Phase::Draw {
            seat,
            kind: DrawKind::AfterKong,
        };
        Ok(())
    }

    /// The claimer takes the discard, exposing `from_hand` with it.
    fn take_discard(&mut self, discarder: Seat, claimer: Seat, from_hand: &[Tile]) {
        self.seats[discarder].mark_last_discard_taken();
        for &t in from_hand {
            self.seats[claimer].remove(t, 1);
            self.visible[t.index()] += 1;
        }
    }

    fn after_claim(&mut self, seat: Seat) {
        self.phase = Phase::Act {
            seat,
            drawn: None,
            kind: DrawKind::Normal,
            claimed: true,
        };
    }

    fn on_adding_kong(
        &mut self,
        event: &Event,
        adder: Seat,
        tile: Tile,
        rules: &Ruleset,
        at: At,
        effects: &mut Effects,
    ) -> Result<(), StepError> {
        let seat = event.seat;
        match event.action {
            Action::Draw(drawn) if seat == adder => {
                if let Some(index) = self.seats[seat].pung_of(tile) {
                    self.seats[seat].promote(index);
                }
                self.phase = Phase::Draw {
                    seat,
                    kind: DrawKind::AfterKong,
                };
                self.draw(seat, DrawKind::AfterKong, drawn)
            }
            Action::Win(named) if seat != adder => {
                if named != tile {
                    return Err(StepError::new(
                        PlayCode::ClaimNotPending,
                        seat,
                        format!("{seat} declares a win on {named}, but the tile added is {tile}"),
                    ));
                }
                self.check_overridden(event, adder, tile, at, effects)?;
                self.declare(
                    seat,
                    tile,
                    (WinSource::RobbingKong { robbed: adder }, DrawKind::Normal),
                    rules,
                    at,
                    effects,
                );
                Ok(())
            }
            Action::Draw(_)
            | Action::Win(_)
            | Action::Flower(_)
            | Action::Discard(_)
            | Action::Chow(_)
            | Action::Pung(_)
            | Action::Kong(_)
            | Action::ConcealedKong(_)
            | Action::AddedKong(_) => Err(out_of_turn(
                seat,
                &format!(
                    "{adder} adds {tile} to a kong: it may be robbed, or {adder} draws a replacement"
                ),
            )),
        }
    }

    /// The claims shown as overridden by `event`'s: each must be one that could be made on
    /// `tile`, and none may rank above it (docs/rules/tiles-and-play.md#claims-priority).
    fn check_overridden(
        &self,
        event: &Event,
        offerer: Seat,
        tile: Tile,
        at: At,
        effects: &mut Effects,
    ) -> Result<(), StepError> {
        let mut seen = [false; 4];
        seen[event.seat.index()] = true;
        for &OverriddenClaim { seat, action } in &event.overridden {
            let valid = seat != offerer && !seen[seat.index()] && action.claims_tile(tile);
            seen[seat.index()] = true;
            if !valid {
                effects.add(
                    at,
                    PlayCode::OverriddenClaimInvalid,
                    Some(seat),
                    format!(
                        "the overridden claim of {seat} could not be made on {offerer}'s {tile}"
                    ),
                );
                continue;
            }
            let (mine, theirs) = (event.action.claim_rank(), action.claim_rank());
            let earlier = offerer.turns_until(seat) < offerer.turns_until(event.seat);
            let outranks = theirs > mine
                || (theirs == mine
                    && matches!(action, Action::Win(_))
                    && earlier
                    && self.rules.multiple_winners == MultipleWinners::HeadBump);
            if outranks && !self.seats[seat].barred() {
                return Err(StepError::new(
                    PlayCode::ClaimPriority,
                    event.seat,
                    format!(
                        "{}'s {} is taken over {seat}'s {}, which comes first",
                        event.seat,
                        action_name(event.action),
                        action_name(action)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Judges a declaration of 和 and ends the hand on a win; a false one costs the seat its
    /// right to win (when the ruleset says so) and play goes on.
    fn declare(
        &mut self,
        seat: Seat,
        tile: Tile,
        on: (WinSource, DrawKind),
        rules: &Ruleset,
        at: At,
        effects: &mut Effects,
    ) {
        if self.seats[seat].barred() {
            effects.add(
                at,
                PlayCode::WinnerBarred,
                Some(seat),
                format!("{seat} lost the right to win this hand; its declaration is void"),
            );
            return;
        }
        let judged = judge(self, seat, tile, on, rules);
        if judged.is_valid() {
            self.phase = Phase::Over(Ending::Win(seat));
        } else {
            let loses = judged.ruling.as_ref().is_some_and(|r| {
                r.sanctions
                    .iter()
                    .any(|s| matches!(s, crate::penalty::Sanction::LoseRightToWin))
            });
            effects.add(
                at,
                PlayCode::FalseWin,
                Some(seat),
                format!(
                    "{seat} declares a win on {tile} that is not one ({}){}",
                    false_reason(&judged),
                    if loses {
                        "; it loses the right to win this hand"
                    } else {
                        ""
                    }
                ),
            );
            if loses {
                self.seats[seat].bar();
            }
        }
        effects.wins.push(judged);
    }
}

fn false_reason(judged: &JudgedWin) -> String {
    match judged.scoring.outcome {
        crate::score::Outcome::BelowMinimum => {
            format!("{} fan, under the minimum", judged.scoring.fan_total)
        }
        crate::score::Outcome::NotWinningShape | crate::score::Outcome::Win => {
            "not a winning shape".to_owned()
        }
    }
}

fn out_of_turn(seat: Seat, why: &str) -> StepError {
    StepError::new(
        PlayCode::OutOfTurn,
        seat,
        format!("{seat} acts out of turn: {why}"),
    )
}

fn ending_text(ending: Ending) -> &'static str {
    match ending {
        Ending::Win(_) => "won",
        Ending::DrawGame => "a draw game",
        Ending::Stopped => "stopped",
    }
}

fn drawn_text(drawn: Drawn) -> String {
    match drawn {
        Drawn::Tile(t) => t.to_string(),
        Drawn::Flower(f) => format!("flower {}", f.number()),
    }
}

fn action_name(action: Action) -> &'static str {
    match action {
        Action::Draw(_) => "draw",
        Action::Flower(_) => "flower",
        Action::Discard(_) => "discard",
        Action::Chow(_) => "chow",
        Action::Pung(_) => "pung",
        Action::Kong(_) => "kong",
        Action::ConcealedKong(_) => "concealed kong",
        Action::AddedKong(_) => "added kong",
        Action::Win(_) => "win",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_tiles;
    use crate::play::state::WallLeft;

    fn tile(text: &str) -> Tile {
        parse_tiles(text).expect("a tile")[0]
    }

    /// A hand in play with these concealed tiles (East, South, West, North), East to draw from a
    /// full shared wall: positions are set up directly, not dealt.
    fn table(rules: &Ruleset, hands: [&str; 4]) -> PlayState {
        let mut state = PlayState::empty(rules.play, Wind::East, Wall::new(rules.play.wall, None));
        for (seat, hand) in Seat::ALL.into_iter().zip(hands) {
            for t in parse_tiles(hand).expect("tiles") {
                state.seats[seat].take(Drawn::Tile(t));
            }
        }
        state
    }

    /// `seat` holds a full hand, having drawn `drawn`.
    fn to_act(state: &mut PlayState, seat: Seat, drawn: &str) {
        state.seats[seat].take(Drawn::Tile(tile(drawn)));
        state.phase = Phase::Act {
            seat,
            drawn: Some(tile(drawn)),
            kind: DrawKind::Normal,
            claimed: false,
        };
    }

    /// The codes of what `event` finds.
    fn codes(state: &mut PlayState, event: &Event, rules: &Ruleset) -> Vec<PlayCode> {
        let mut effects = Effects::default();
        state.apply(0, event, rules, &mut effects);
        effects.findings.iter().map(|f| f.code).collect()
    }

    const OTHERS: [&str; 3] = ["369m369p369sSSWW", "28m28p28sEESSWWN", "47m47p47sCCFFPPN"];

    fn hands(east: &'static str) -> [&'static str; 4] {
        [east, OTHERS[0], OTHERS[1], OTHERS[2]]
    }

    #[test]
    fn no_kong_from_the_hand_when_the_wall_has_no_replacement() {
        let rules = Ruleset::MIL;
        let mut state = table(&rules, hands("1111m258p258s147s"));
        to_act(&mut state, Seat::East, "C");
        state.wall = Wall::with_left(WallLeft::Shared(0));
        let before = state.seats[Seat::East].clone();
        let kong = Event::new(Seat::East, Action::ConcealedKong(tile("1m")));
        assert_eq!(
            codes(&mut state, &kong, &rules),
            [PlayCode::KongOnEmptyWall]
        );
        // The finding stops the hand and leaves the seat as it was.
        assert_eq!(state.phase, Phase::Over(Ending::Stopped));
        assert_eq!(state.seats[Seat::East], before);
        // One tile left: the kong is declared and its replacement is next.
        let mut state = table(&rules, hands("1111m258p258s147s"));
        to_act(&mut state, Seat::East, "C");
        state.wall = Wall::with_left(WallLeft::Shared(1));
        assert_eq!(codes(&mut state, &kong, &rules), []);
        assert_eq!(
            state.phase,
            Phase::Draw {
                seat: Seat::East,
                kind: DrawKind::AfterKong
            }
        );
    }

    #[test]
    fn under_botzone_walls_a_kong_needs_the_next_seats_wall_too() {
        let mut rules = Ruleset::MIL;
        rules.play.wall = WallRule::Botzone;
        let mut state = table(&rules, hands("1111m258p258s147s"));
        to_act(&mut state, Seat::East, "C");
        state.wall = Wall::with_left(WallLeft::PerSeat(BySeat::from_array([5, 0, 5, 5])));
        let kong = Event::new(Seat::East, Action::ConcealedKong(tile("1m")));
        assert_eq!(
            codes(&mut state, &kong, &rules),
            [PlayCode::KongOnEmptyWall]
        );
    }

    #[test]
    fn a_chow_from_other_than_the_left_bars_the_seat_and_stands() {
        let rules = Ruleset::MIL;
        let mut state = table(
            &rules,
            ["258p258s147sCCFF", OTHERS[0], "24m8p28sEESSWWN", OTHERS[2]],
        );
        to_act(&mut state, Seat::East, "3m");
        let discard = Event::new(Seat::East, Action::Discard(tile("3m")));
        assert_eq!(codes(&mut state, &discard, &rules), []);
        // West sits across from East: its chow is 错吃.
        let chow = Event::new(Seat::West, Action::Chow(tile("3m")));
        assert_eq!(
            codes(&mut state, &chow, &rules),
            [PlayCode::ChowNotFromLeft]
        );
        assert!(state.seats[Seat::West].barred());
        assert_eq!(state.seats[Seat::West].melds().len(), 1);
        assert!(matches!(
            state.phase,
            Phase::Act {
                seat: Seat::West,
                claimed: true,
                ..
            }
        ));
        // South is the next seat: its chow is the legal one.
        let mut state = table(
            &rules,
            ["258p258s147sCCFF", "24m999p369sSSWWN", OTHERS[1], OTHERS[2]],
        );
        to_act(&mut state, Seat::East, "3m");
        assert_eq!(codes(&mut state, &discard, &rules), []);
        let chow = Event::new(Seat::South, Action::Chow(tile("3m")));
        assert_eq!(codes(&mut state, &chow, &rules), []);
        assert!(!state.seats[Seat::South].barred());
    }

    #[test]
    fn on_a_shared_wall_the_added_kong_adds_the_tile_just_drawn() {
        let mut rules = Ruleset::MIL;
        rules.play.added_kong_tile = AddedKongTile::JustDrawn;
        let mut state = table(&rules, hands("5p258s147sCCF"));
        state.seats[Seat::East].push_meld(Meld::Pung {
            tile: tile("5p"),
            from: None,
        });
        to_act(&mut state, Seat::East, "9s");
        let added = Event::new(Seat::East, Action::AddedKong(tile("5p")));
        let mut held = state.clone();
        assert_eq!(
            codes(&mut held, &added, &rules),
            [PlayCode::AddedKongNotDrawn]
        );
        // Any copy held, where the ruleset allows it (Botzone's records): the state keeps
        // the rules of play it was made under.
        rules.play.added_kong_tile = AddedKongTile::AnyHeld;
        let mut any = state.clone();
        any.rules = rules.play;
        assert_eq!(codes(&mut any, &added, &rules), []);
        assert_eq!(
            any.phase,
            Phase::AddingKong {
                seat: Seat::East,
                tile: tile("5p")
            }
        );
        // Just drawn: allowed under both.
        rules.play.added_kong_tile = AddedKongTile::JustDrawn;
        let mut state = table(&rules, hands("258s147sCCF9s"));
        state.seats[Seat::East].push_meld(Meld::Pung {
            tile: tile("5p"),
            from: None,
        });
        to_act(&mut state, Seat::East, "5p");
        assert_eq!(codes(&mut state, &added, &rules), []);
    }

    #[test]
    fn a_barred_seats_declaration_is_void() {
        let rules = Ruleset::MIL;
        let mut state = table(
            &rules,
            ["258p258s147sCCFF", OTHERS[0], OTHERS[1], "1112345678999m"],
        );
        to_act(&mut state, Seat::East, "5m");
        let discard = Event::new(Seat::East, Action::Discard(tile("5m")));
        assert_eq!(codes(&mut state, &discard, &rules), []);
        let win = Event::new(Seat::North, Action::Win(tile("5m")));
        let mut won = state.clone();
        assert_eq!(codes(&mut won, &win, &rules), []);
        assert_eq!(won.phase, Phase::Over(Ending::Win(Seat::North)));
        state.seats[Seat::North].bar();
        let phase = state.phase;
        assert_eq!(codes(&mut state, &win, &rules), [PlayCode::WinnerBarred]);
        assert_eq!(state.phase, phase, "play goes on");
    }

    #[test]
    fn a_claim_taken_over_a_win_shown_overridden_is_out_of_priority() {
        let rules = Ruleset::MIL;
        let mut state = table(
            &rules,
            [
                "258p258s147sCCFF",
                "55m999p369sSSWWN",
                OTHERS[1],
                "1112345678999m",
            ],
        );
        to_act(&mut state, Seat::East, "5m");
        let discard = Event::new(Seat::East, Action::Discard(tile("5m")));
        assert_eq!(codes(&mut state, &discard, &rules), []);
        let mut pung = Event::new(Seat::South, Action::Pung(tile("5m")));
        pung.overridden.push(OverriddenClaim {
            seat: Seat::North,
            action: Action::Win(tile("5m")),
        });
        assert_eq!(codes(&mut state, &pung, &rules), [PlayCode::ClaimPriority]);
        assert_eq!(state.phase, Phase::Over(Ending::Stopped));
    }

    #[test]
    fn a_dealt_state_keeps_the_invariants_and_a_lost_tile_breaks_them() {
        let rules = Ruleset::MIL;
        let deal = BySeat::from_array(hands("1111m258p258s147s").map(|h| {
            parse_tiles(h)
                .expect("tiles")
                .into_iter()
                .map(Drawn::Tile)
                .collect()
        }));
        let mut state = PlayState::deal(rules.play, Wind::East, &deal, None).expect("dealt");
        assert_eq!(state.check_invariants(), Ok(()));
        let draw = Event::new(Seat::East, Action::Draw(Drawn::Tile(tile("C"))));
        assert_eq!(codes(&mut state, &draw, &rules), []);
        assert_eq!(state.check_invariants(), Ok(()));
        let mut lost = state.clone();
        lost.seats[Seat::East].remove(tile("C"), 1);
        let broken = lost.check_invariants().expect_err("a tile lost");
        assert!(broken.to_string().contains("copies of C"), "{broken}");
        let mut fifteen = state;
        fifteen.seats[Seat::South].take(Drawn::Tile(tile("1p")));
        assert!(fifteen.check_invariants().is_err());
    }

    #[test]
    fn a_step_error_is_a_finding_at_its_event_and_reads_as_one() {
        let rules = Ruleset::MIL;
        let mut state = table(&rules, hands("1111m258p258s147s"));
        to_act(&mut state, Seat::East, "C");
        let mut effects = Effects::default();
        let discard = Event::new(Seat::East, Action::Discard(tile("9m")));
        state.apply(7, &discard, &rules, &mut effects);
        let [finding] = effects.findings.as_slice() else {
            panic!("{:?}", effects.findings);
        };
        assert_eq!(
            (finding.at, finding.code, finding.seat),
            (At::Event(7), PlayCode::DiscardNotHeld, Some(Seat::East))
        );
        let error = StepError::new(
            PlayCode::DiscardNotHeld,
            Seat::East,
            finding.message.clone(),
        );
        assert_eq!(error.clone().finding(At::Event(7)), *finding);
        assert!(
            error.to_string().starts_with("DISCARD_NOT_HELD ("),
            "{error}"
        );
        // The hand is stopped: what follows is not judged.
        let next = Event::new(Seat::South, Action::Draw(Drawn::Tile(tile("1p"))));
        assert_eq!(codes(&mut state, &next, &rules), []);
    }
}

"""The in-process Table: random hands whose logs replay legal with the table's result, the
action space, refused steps, and observations without hidden tiles."""

from __future__ import annotations

import random

import pytest

import mahjong_mcr
from mahjong_mcr import ACTION_SPACE, McrError, Table


def play(table: Table, rng: random.Random) -> int:
    steps = 0
    while table.phase != "over":
        legal = table.legal()
        if table.phase == "act":
            ((seat, actions),) = legal.items()
            wins = [a for a in actions if a.kind == "win"]
            table.step({seat: wins[0] if wins else rng.choice(actions)})
        else:
            choice = {}
            for seat, actions in legal.items():
                wins = [a for a in actions if a.kind == "win"]
                if wins or rng.random() < 0.5:
                    choice[seat] = wins[0] if wins else rng.choice(actions)
            table.step(choice)
        steps += 1
        assert steps < 1_000
    return steps


def test_random_tables_replay_legal_with_the_tables_result() -> None:
    rng = random.Random(2026)
    outcomes = {"win": 0, "draw": 0}
    for _ in range(1_000):
        seed = rng.randbytes(32)
        table = Table(seed)
        play(table, rng)
        result = table.result()
        assert result is not None
        replayed = mahjong_mcr.replay(table.log(), seed=seed)
        assert replayed.legal, replayed.findings
        assert replayed.points == result.points
        assert replayed.winner == result.winner
        if result.winner is None:
            assert result.draw_game and replayed.outcome == "REPLAY_OUTCOME_DRAW_GAME"
            outcomes["draw"] += 1
        else:
            assert replayed.fan == result.fan == sum(f.points * f.count for f in result.fans
                                                      if f.en != "Flower Tiles")
            assert replayed.circumstances.get("selfDrawn", False) == result.self_drawn
            outcomes["win"] += 1
    assert outcomes["win"] > 0 and outcomes["draw"] > 0, outcomes


def test_the_log_is_botzone_text_with_the_result() -> None:
    table = Table(bytes(range(32)), wind="S")
    play(table, random.Random(1))
    log = table.log("t1").splitlines()
    assert log[0] == "Match t1" and log[1] == "Wind 1"
    assert log[-1].startswith("Score ")
    assert table.commitment == __import__("hashlib").sha256(bytes(range(32))).hexdigest()


def test_actions_have_numbers_and_masks() -> None:
    table = Table(bytes(32))
    ((seat, actions),) = table.legal().items()
    mask = table.action_mask(seat)
    assert len(mask) == ACTION_SPACE
    assert sorted(i for i, on in enumerate(mask) if on) == sorted(a.id for a in actions)
    for a in actions:
        assert mahjong_mcr.action_of_id(seat, a.id) == a
        assert a.line.startswith(f"Player {seat} ")
    assert not any(table.action_mask((seat + 1) % 4))
    table.step({seat: actions[0].id})  # a number works as the action
    assert table.phase in ("act", "claim")


def test_illegal_steps_are_refused_with_the_records_code() -> None:
    table = Table(bytes(32))
    ((seat, actions),) = table.legal().items()
    held = set(table.observation(seat).concealed)
    absent = next(a for a in range(34) if mahjong_mcr.action_of_id(seat, a).tile not in held)
    with pytest.raises(McrError) as caught:
        table.step({seat: absent})
    assert caught.value.code == "DISCARD_NOT_HELD"
    assert caught.value.violations[0].field == f"choice[{seat}]"
    with pytest.raises(McrError) as caught:
        table.step({(seat + 1) % 4: actions[0].id})
    assert caught.value.code == "OUT_OF_TURN"
    with pytest.raises(McrError) as caught:
        table.step({(seat + 1) % 4: actions[0]})  # another seat's Action
    assert caught.value.code == "VALUE_INVALID"
    assert caught.value.violations[0].field == f"choice[{(seat + 1) % 4}]"
    with pytest.raises(McrError):
        table.step({})
    with pytest.raises(McrError) as caught:
        table.step({7: actions[0]})
    assert caught.value.code == "SEAT_INVALID"
    with pytest.raises(McrError):
        Table(b"short")
    assert [a.id for a in table.legal()[seat]] == [a.id for a in actions]


def test_observations_hide_what_a_seat_cannot_see() -> None:
    rng = random.Random(9)
    table = Table(rng.randbytes(32))
    for _ in range(60):
        if table.phase == "over":
            break
        for seat in range(4):
            seen = table.observation(seat)
            assert seen.seat == seat and len(seen.seats) == 4
            assert len(seen.concealed) == seen.seats[seat].concealed_count
            names = set(dir(seen))
            assert not any("wall" in n and n != "wall_left" for n in names)
            assert [a.id for a in seen.legal] == [a.id for a in table.legal().get(seat, [])]
        legal = table.legal()
        if table.phase == "act":
            ((seat, actions),) = legal.items()
            table.step({seat: rng.choice(actions)})
        else:
            table.step({})

from __future__ import annotations

import pytest

from replay._core.errors import ConfigError
from replay._core.modes import Action, Mode, action_for


@pytest.mark.parametrize(
    ("mode", "recorded", "played", "existed", "expected"),
    [
        (Mode.ONCE, 0, 0, False, Action.RECORD),
        (Mode.ONCE, 1, 1, False, Action.RECORD),  # the same request again while recording
        (Mode.ONCE, 1, 0, True, Action.REPLAY),
        (Mode.ONCE, 0, 0, True, Action.MISS),
        (Mode.NEW_EPISODES, 1, 0, True, Action.REPLAY),
        (Mode.NEW_EPISODES, 1, 1, True, Action.RECORD),
        (Mode.NONE, 0, 0, False, Action.MISS),
        (Mode.NONE, 2, 1, True, Action.REPLAY),
        (Mode.NONE, 2, 2, True, Action.MISS),
        (Mode.ALL, 3, 0, True, Action.RECORD),
    ],
)
def test_decision_table(
    mode: Mode, recorded: int, played: int, existed: bool, expected: Action
) -> None:
    action, reason = action_for(mode, recorded=recorded, played=played, file_existed=existed)
    assert action is expected
    assert bool(reason) == (expected is Action.MISS)


def test_repeats_replay_the_last_response_when_allowed() -> None:
    action, _ = action_for(Mode.NONE, recorded=1, played=5, file_existed=True, repeat=True)
    assert action is Action.REPLAY


def test_exhausted_responses_say_so() -> None:
    _, reason = action_for(Mode.NONE, recorded=2, played=2, file_existed=True)
    assert "all 2 recorded responses were already replayed" in reason


def test_environment_overrides_the_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPLAY_MODE", "none")
    assert Mode.resolve("all") is Mode.NONE


def test_unknown_mode_names_the_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with pytest.raises(ConfigError, match=r"mode='sometimes': not a record mode \(one of once"):
        Mode.resolve("sometimes")
    monkeypatch.setenv("REPLAY_MODE", "bogus")
    with pytest.raises(ConfigError) as caught:
        Mode.resolve("once")
    assert caught.value.option == "REPLAY_MODE" and caught.value.value == "bogus"

"""Record modes, named as in vcrpy so that muscle memory carries over, and the decision they make.

========== ==================================================================
``once``   record while the cassette file does not exist yet, else replay only
``new_episodes`` replay what is recorded, record what is not
``none``   replay only; never touches the network
``all``    always go to the network and re-record
========== ==================================================================

``REPLAY_MODE`` in the environment overrides the mode for a whole run.
"""

from __future__ import annotations

import os
from enum import Enum, StrEnum

from replay._core.errors import ConfigError

MODE_VARIABLE = "REPLAY_MODE"


class Mode(StrEnum):
    ONCE = "once"
    NEW_EPISODES = "new_episodes"
    NONE = "none"
    ALL = "all"

    @classmethod
    def resolve(cls, mode: Mode | str) -> Mode:
        """The mode in force: ``REPLAY_MODE`` if set, else ``mode``."""
        chosen = os.environ.get(MODE_VARIABLE) or mode
        source = MODE_VARIABLE if os.environ.get(MODE_VARIABLE) else "mode"
        try:
            return cls(chosen)
        except ValueError:
            names = ", ".join(m.value for m in cls)
            raise ConfigError(source, chosen, f"not a record mode (one of {names})") from None


class Action(Enum):
    REPLAY = "replay"
    RECORD = "record"
    MISS = "miss"


def action_for(
    mode: Mode, *, recorded: int, played: int, file_existed: bool, repeat: bool = False
) -> tuple[Action, str]:
    """What to do with a request that has ``recorded`` responses of which ``played`` were given.

    Returns the action and, for a miss, why.
    """
    if mode is Mode.ALL:
        return Action.RECORD, ""
    if played < recorded:
        return Action.REPLAY, ""
    may_record = mode is Mode.NEW_EPISODES or (mode is Mode.ONCE and not file_existed)
    if may_record:
        return Action.RECORD, ""
    if recorded and repeat:
        return Action.REPLAY, ""
    if recorded:
        return Action.MISS, (
            f"all {recorded} recorded responses were already replayed "
            f"(mode {mode.value!r}; allow_playback_repeats=True replays the last again, "
            "mode 'new_episodes' records another)"
        )
    if mode is Mode.NONE:
        return Action.MISS, "mode 'none' never records"
    return Action.MISS, (
        "mode 'once' records only into a cassette that does not exist yet "
        "(to record this request: mode 'new_episodes', or delete the cassette to record anew)"
    )

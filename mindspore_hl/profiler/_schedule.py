"""``mindspore.profiler.schedule``: which steps of a run are recorded.

After ``skip_first`` steps, each cycle waits ``wait`` steps, warms up ``warmup`` steps and records ``active``
steps, the last of which saves (``RECORD_AND_SAVE``); ``repeat`` cycles (0: until the run ends).

>>> s = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
>>> [s(i).name for i in range(6)]
['NONE', 'NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
"""
import logging
from enum import Enum

__all__ = ["ProfilerAction", "schedule"]


class ProfilerAction(Enum):
    """What the profiler does at a step."""
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def _check(name, value, minimum):
    # MindSpore warns and falls back to the minimum for an out-of-range value; a non-int is an error.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"schedule: '{name}' must be an int, but got {type(value).__name__} {value!r}.")
    if value < minimum:
        logging.getLogger(__name__).warning("schedule: '%s' must be >= %d, but got %d; using %d.",
                                            name, minimum, value, minimum)
        return minimum
    return value


class schedule:  # noqa: N801  (MindSpore's spelling)
    """The per-step action of a :class:`~mindspore_hl.profiler.profile` run (see the module docstring)."""

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0, skip_first: int = 0) -> None:
        wait, active, warmup = _check("wait", wait, 0), _check("active", active, 1), _check("warmup", warmup, 0)
        repeat, skip_first = _check("repeat", repeat, 0), _check("skip_first", skip_first, 0)
        self.wait, self.active, self.warmup, self.repeat, self.skip_first = wait, active, warmup, repeat, skip_first

    def __call__(self, step: int) -> ProfilerAction:
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if self.repeat > 0 and step // cycle >= self.repeat:
            return ProfilerAction.NONE
        pos = step % cycle
        if pos < self.wait:
            return ProfilerAction.NONE
        if pos < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if pos < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    def to_dict(self) -> dict:
        """The parameters, as MindSpore's ``schedule.to_dict`` gives them."""
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup, "repeat": self.repeat,
                "skip_first": self.skip_first}

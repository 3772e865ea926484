"""What the PettingZoo and Gymnasium environments share: pickling and copying (docs/interop.md).

An environment pickles as PettingZoo's classic games do, through Gymnasium's
``EzPickle``: its constructor's arguments, from which the unpickling process
builds it again (loading the installed plugins there; a ``plugins`` object
given to the constructor is not carried, it holds modules).  On top of that
the episode so far is carried (the node, the random streams, the agents'
bookkeeping), so ``copy.deepcopy`` and ``pickle`` of an environment in the
middle of a game give one that plays on from the same point with the same
draws.  Needs Gymnasium (both environments' extras bring it).
"""

from __future__ import annotations

from typing import Any

from gymnasium.utils import EzPickle


class EpisodePickle(EzPickle):
    """``EzPickle`` plus the attributes named in ``EPISODE`` (those set so far)."""

    #: the attributes that make up the episode so far
    EPISODE: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        state = EzPickle.__getstate__(self)
        state["episode"] = {name: self.__dict__[name] for name in self.EPISODE if name in self.__dict__}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        EzPickle.__setstate__(self, state)
        self.__dict__.update(state.get("episode", {}))

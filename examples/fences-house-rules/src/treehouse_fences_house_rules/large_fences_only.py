"""large-fences-only: medium Fences block but never Hit.

Every Hit a Fences check finds passes through the ``treehouse_fences_hits``
hook, which returns the Hits that stand; this rule drops those whose source
is a medium Fence.  The bots' evaluation asks the same hook, so they stop
fearing medium Fences too.
"""

from __future__ import annotations

from treehouse.hookspecs import hookimpl
from treehouse.kernel.pieces import Size


def medium_fence(hit) -> bool:
    source = hit.source
    return source is not None and source.seat is None and source.size == Size.MEDIUM


class LargeFencesOnly:
    def __init__(self, variant, options) -> None:
        pass

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        return tuple(hit for hit in standing if not medium_fence(hit))

"""large-fences-only: medium Fences block but never Hit.

Every Hit a Fences check finds passes through the ``treehouse_fences_hits``
hook, which returns the Hits that stand; this rule drops those whose source
is a medium Fence.  The bots' evaluation asks the same hook, so they stop
fearing medium Fences too.  It judges a Hit by its source alone (whatever
its cause), so it is
written as a :class:`~treehouse.variants.fences.hits.JudgedBySource` rule:
Fences derives the hook's answer from :meth:`LargeFencesOnly.verdict`, and
its compiled core reads the same verdicts, so games under this rule run on
the core (docs/fences-api.md).
"""

from __future__ import annotations

from treehouse.kernel.pieces import Size
from treehouse.variants.fences.hits import JudgedBySource, Verdict


class LargeFencesOnly(JudgedBySource):
    def verdict(self, size, cause):
        """A medium Fence's Hit is dropped (a Stack's size is small, so this is a Fence's); every other stands."""
        return Verdict.DROPPED if size is Size.MEDIUM else Verdict.STANDS

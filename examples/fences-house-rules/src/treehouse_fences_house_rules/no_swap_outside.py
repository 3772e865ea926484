"""no-swap-outside: a Swap with an Outside Fence no longer Hits.

The seed makes such a Swap Hit the Stack, which stays where it is.  This
rule drops that Hit: the Swap is a free way to stay put.  It judges a Hit
by its cause alone (``Cause.SWAP_OUTSIDE``), whatever the position, so it
is written as a :class:`~treehouse.variants.fences.hits.JudgedBySource`
rule, which says so in its own words.  Games under it run on the compiled
core, as they do under the same rule written as a plain wrapper
(docs/fences-api.md's first example).
"""

from __future__ import annotations

from treehouse.variants.fences.hits import Cause, JudgedBySource, Verdict


class NoSwapOutside(JudgedBySource):
    def verdict(self, size, cause):
        """A Swap with an Outside Fence's Hit is dropped, whatever the Fence; every other stands."""
        return Verdict.DROPPED if cause is Cause.SWAP_OUTSIDE else Verdict.STANDS

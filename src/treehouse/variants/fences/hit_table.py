"""House rules on Hits read as the compiled core's table of verdicts.

The core cannot call a house rule's ``treehouse_fences_hits`` wrapper in the
middle of a search; it can read a table: a :class:`~treehouse.variants.fences.hits.Verdict`
per cause and source size.  Most rules on Hits are such a table, whatever
form they are written in (*medium Fences never Hit*, *a Swap with an Outside
Fence does not Hit*), so Fences asks each wrapper about Hits on their own,
once a game's hooks are bound (:func:`read_rule`), and takes its answers
as the table only where they can depend on nothing but each Hit's cause and
its source's size:

* the position and the step are stand-ins that end the asking the moment
  the rule reads them, and it is asked at each step of a turn and as the
  bots' evaluation asks (``step=None``, ``before`` the position itself);
* each Hit's Stack and square, and its source's colour, square and seat,
  are stand-ins too; its cause and its source's size are real, and so is
  what they decide (a Fence's ``seat`` is ``None``);
* it is asked about every cause with every size of source that makes one,
  each Hit alone, colour-ignoring or not, and about all of them at once, in
  order, backwards and twice each: the answers must agree, Hit by Hit.

A rule that reads anything more keeps its games on the reference rules,
and the reason is the one line :func:`treehouse.kernel.fast.gate.slow_rules`
prints.  Fences' own checks in play always ask the hook itself.
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from treehouse.errors import PluginError
from treehouse.kernel.pieces import Size
from treehouse.variants.fences.hits import CAUSES, SOURCE_SIZES, Cause, Hit, Source, Verdict

#: The causes a piece makes (a Fence, or a Stack moved onto another), and those with no piece.
_PIECE_CAUSES = (Cause.POINTED_AT, Cause.BOUNCED, Cause.MOVED_ONTO, Cause.STACK_MOVED_ONTO, Cause.SWAP_OUTSIDE)
#: Every (cause, source size) a check or the evaluation can find: what a rule is asked about.
ASKED = tuple((cause, size) for cause in _PIECE_CAUSES for size in (Size.LARGE, Size.MEDIUM, Size.SMALL)) + (
    (Cause.OUTSIDE, None),
    (Cause.IMPOSSIBLE, None),
)


class _NoTable(BaseException):
    """The rule's answers are no table, and why (a BaseException, so no ``except Exception`` in a rule swallows it)."""


def _refusing(what: str):
    def refuse(self, *args, **kwargs):
        raise _NoTable(f"it reads {what}")

    return refuse


_ANY_USE = (
    "__getattribute__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__ __len__ __iter__ __getitem__"
    " __contains__ __index__ __int__ __float__ __complex__ __str__ __repr__ __format__ __reduce__ __reduce_ex__"
    " __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ __rfloordiv__"
    " __mod__ __rmod__ __divmod__ __rdivmod__ __pow__ __rpow__ __neg__ __pos__ __abs__ __invert__ __and__"
    " __rand__ __or__ __ror__ __xor__ __rxor__ __lshift__ __rlshift__ __rshift__ __rrshift__ __round__"
    " __trunc__ __floor__ __ceil__ __call__ __setattr__ __delattr__"
).split()


def _stand_in(name: str, base: type, what: str) -> type:
    """A class whose values end the asking at any use but being passed on (stored, returned, compared by ``is``)."""
    return type(name, (base,), {dunder: _refusing(what) for dunder in _ANY_USE if base is object or hasattr(base, dunder)})


_Position = _stand_in("_Position", object, "the position")
_Seat = _stand_in("_Seat", int, "the Stack Hit (hit.seat)")
_Square = _stand_in("_Square", int, "the square tried (hit.square)")
_Colour = _stand_in("_Colour", str, "the source's colour")
_SourceSquare = _stand_in("_SourceSquare", int, "the source's square")
_SourceSeat = _stand_in("_SourceSeat", int, "the seat of the Stack that Hit (hit.source.seat)")


def _hit(cause: Cause, size: Size | None, ignores_colour: bool) -> Hit:
    """A Hit to ask about: every field a stand-in but its cause, its source's
    size and ``ignores_colour``, and what those decide (a Fence's ``seat`` is
    ``None``, as is the square of a Hit that is no attempt Outside)."""
    source = None if size is None else Source(size, _Colour(""), _SourceSquare(0), _SourceSeat(0) if size is Size.SMALL else None)
    return Hit(_Seat(0), cause, source, _Square(0) if cause is Cause.OUTSIDE else None, ignores_colour)


class Refused(NamedTuple):
    """Why a rule's answers are no table: the one reason, in words."""

    reason: str


def read_rule(impl: Any, steps: Iterable[Any]) -> dict[tuple[Cause, Size | None], Verdict] | Refused:
    """The verdicts of the house rule behind ``impl`` (its pluggy ``HookImpl``
    of ``treehouse_fences_hits``) on each Hit (cause, source size) of
    :data:`ASKED`, asked at each of ``steps`` and as the evaluation asks; or
    why they are no table.  A verdict that is no Verdict (a
    :class:`~treehouse.variants.fences.hits.JudgedBySource` rule's bug) is
    the rule's :class:`PluginError`, raised."""
    if not impl.wrapper:
        return Refused("it answers the hook outright, not as a wrapper (hits = yield)")
    asked_as = [(_Position(), _Position(), step) for step in steps]
    evaluation = _Position()
    asked_as.append((evaluation, evaluation, None))
    found: dict[tuple[Cause, Size | None], Verdict] = {}
    try:
        for state, before, step in asked_as:
            for ignores_colour in (False, True):
                for cause, size in ASKED:
                    hit = _hit(cause, size, ignores_colour)
                    (verdict,) = _verdicts(impl, (state, before, step), (hit,))
                    if ignores_colour:  # the Hit ignores colour already: only whether it stands tells
                        if (verdict is Verdict.DROPPED) != (found[cause, size] is Verdict.DROPPED):
                            return Refused("it judges a Hit by whether it ignores colour already")
                    elif found.setdefault((cause, size), verdict) is not verdict:
                        return Refused("it judges a Hit by the step (the fence, act or stack step, or the bots' evaluation: step=None)")
            every = tuple(_hit(cause, size, ignores_colour) for ignores_colour in (False, True) for cause, size in ASKED)
            for many in (every, every[::-1], tuple(hit for pair in zip(every, map(_copy, every)) for hit in pair)):
                if _verdicts(impl, (state, before, step), many) != [_expected(found, hit) for hit in many]:
                    return Refused("it judges a Hit by the other Hits of its check")
    except _NoTable as no_table:
        return Refused(no_table.args[0])
    except PluginError:
        raise
    except Exception as error:  # the rule fails on a Hit asked about alone: the reference rules will show it in play
        return Refused(f"asked about a Hit on its own it failed: {type(error).__name__}: {error}")
    return found


def _expected(found: dict, hit: Hit) -> Verdict:
    """The verdict ``found`` says a rule gives ``hit`` (one ignoring colour already only stands or is dropped)."""
    verdict = found[hit.cause, None if hit.source is None else hit.source.size]
    return Verdict.STANDS if hit.ignores_colour and verdict is Verdict.IGNORES_COLOUR else verdict


def _copy(hit: Hit) -> Hit:
    """The same Hit with a Stack stand-in of its own (so an answer is told apart from the copy's)."""
    return Hit(_Seat(0), *tuple.__getitem__(hit, slice(1, None)))


def _verdicts(impl: Any, where: tuple, hits: tuple[Hit, ...]) -> list[Verdict]:
    """The rule's verdict on each of ``hits``, asked in one call."""
    state, before, step = where
    arguments = {"state": state, "before": before, "step": step, "hits": hits}
    answer = impl.function(*(arguments[name] for name in impl.argnames))
    try:
        next(answer)
        answer.send(hits)  # Fences' own answer inside it: every Hit stands
    except StopIteration as stop:
        standing = stop.value
    else:
        answer.close()
        raise _NoTable("it yields more than once")
    if standing is None:
        raise _NoTable("it returns None, not the Hits that stand")
    verdicts = [Verdict.DROPPED] * len(hits)
    position = {id(hit[0]): index for index, hit in enumerate(hits)}
    last = -1
    for hit in tuple(standing):
        index = position.get(id(hit[0])) if type(hit) is Hit else None
        given = None if index is None else hits[index]
        if given is None or index <= last or any(hit[field] is not given[field] for field in (1, 2, 3)) or type(hit[4]) is not bool:
            raise _NoTable("it returns Hits it was not given, changed, or out of their order")
        if given[4] and not hit[4]:
            raise _NoTable("it makes a Hit that ignores colour heed it again")
        verdicts[index] = Verdict.IGNORES_COLOUR if hit[4] and not given[4] else Verdict.STANDS
        last = index
    return verdicts


def table(rules: Iterable[dict[tuple[Cause, Size | None], Verdict]]) -> tuple[int, ...]:
    """Several rules' verdicts at once, as the core's table: per cause
    (:data:`~treehouse.variants.fences.hits.CAUSES`) and source size
    (:data:`~treehouse.variants.fences.hits.SOURCE_SIZES`), dropped if any
    drops it, else ignoring colour if any says so, else standing; the same
    as their wrappers one inside another, in any order.  A pair no check
    finds (an Outside attempt with a piece) stands."""
    rules = list(rules)
    cells = []
    for cause in CAUSES:
        for size in SOURCE_SIZES:
            said = {rule.get((cause, size), Verdict.STANDS) for rule in rules}
            cells.append(Verdict.DROPPED if Verdict.DROPPED in said else Verdict.IGNORES_COLOUR if Verdict.IGNORES_COLOUR in said else Verdict.STANDS)
    return tuple(int(verdict) for verdict in cells)


#: The table of a game no house rule judges Hits in: every Hit stands.
ALL_STAND = table(())

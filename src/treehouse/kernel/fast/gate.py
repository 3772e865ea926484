"""The one gate of the fast tier: may a variant's compiled core answer these hooks in this game?

A compiled core computes, in its own code, what a set of hooks would answer
(a look stands for ``treehouse_apply_move``, ``treehouse_resolve``,
``treehouse_outcome`` and ``treehouse_evaluate``, and so on).  It may do so
only where its answers are the hooks' own: where nothing but the variant
answers those hooks, or where what else answers them takes a *form* the
core takes in (a Fences house rule that judges each Hit by its cause and
source size alone, whether written as a wrapper or declared, is a table
to the core; a rule that adds moves of its own kinds leaves the variant's
moves to it).

A variant with a fast tier declares two things (docs/rules/tiers.md):

* ``FAST_HOOKS``: every hook its core stands for;
* ``FAST_FORMS``: per hook, the :class:`Form` a house rule answering it may
  take and still keep the core, and how to tell whether a rule takes it.

:func:`may_answer` is asked on every look, so it reads only what the
game's hooks worked out when they were built.  :func:`slow_rules` says,
once, at the start of a command, which house rules keep a game off the
core, and what would keep it on.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, NamedTuple


class Form(NamedTuple):
    """A form of house rule a compiled core takes in for one hook."""

    #: Why this plugin, in the game of these hooks, does not take the form,
    #: in words ("it reads the position"); ``None``: it does.
    #: ``refusal(hooks, plugin)``, asked on every look: answer from what the
    #: game's hooks worked out once.
    refusal: Callable[[Any, Any], str | None]
    #: The form in words, for the line that says a rule does not take it.
    words: str


def may_answer(hooks: Any, stands_for: Iterable[str], forms: Mapping[str, Form]) -> bool:
    """May the core answer for the hooks ``stands_for`` in the game of
    ``hooks``?  Not while tracing (every call is shown); otherwise where
    every plugin but the variant that answers one of them is written in that
    hook's declared form (``forms``)."""
    if hooks.tracing:
        return False
    for hook in stands_for:
        form = forms.get(hook)
        if form is None:
            if not hooks.variant_alone(hook):
                return False
        elif any(form.refusal(hooks, plugin) is not None for plugin in hooks.plugins_answering(hook)):
            return False
    return True


def slow_rules(hooks: Any) -> list[str]:
    """The one line (or none) that says which house rules keep the game of
    ``hooks`` off its variant's compiled core: each rule and the hook it
    answers, the cost, and the declared form that would keep the core.
    Empty where the variant has no fast tier or nothing keeps it away."""
    variant = hooks.variant
    forms = variant.FAST_FORMS
    found: dict[str, tuple[str, Form | None, str | None]] = {}
    for hook in variant.FAST_HOOKS:
        form = forms.get(hook)
        for plugin in hooks.plugins_answering(hook):
            name = hooks.manager.get_name(plugin) or type(plugin).__name__
            refusal = None if form is None else form.refusal(hooks, plugin)
            if name not in found and (form is None or refusal is not None):
                found[name] = (hook, form, refusal)
    if not found:
        return []
    rules = " and ".join(f"{name!r} ({hook}{'' if refusal is None else ': ' + refusal})" for name, (hook, _form, refusal) in found.items())
    keep = sorted({form.words for _hook, form, _refusal in found.values() if form is not None})
    advice = f"; written as {' or '.join(keep)}, a rule keeps the core" if keep else ""
    return [
        f"house rule{'s' if len(found) > 1 else ''} {rules} answer{'' if len(found) > 1 else 's'} in a form the compiled core cannot take in:"
        f" bots that look ahead play on the reference rules, 10 to 90 times the CPU{advice}"
    ]

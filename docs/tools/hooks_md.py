"""Write docs/hooks.md from the hook contracts in src/treehouse/hookspecs.py.

    python docs/tools/hooks_md.py          # rewrite docs/hooks.md
    python docs/tools/hooks_md.py --check  # exit 1 if it is out of date

The docstrings stay reStructuredText (they are read in editors and by
``help()``); the page is Markdown: ``:param x:`` lines become a list,
``:returns:`` a "Returns" line, ````code```` and ``:role:`~a.b.C``` become
`code`, and a ``::`` literal block a fenced block.  tests/test_docs.py checks
the page is what this script writes.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "hooks.md"

HEAD = """# Hooks

Every hook a plugin can implement, written from the contracts in
[`src/treehouse/hookspecs.py`](../src/treehouse/hookspecs.py) (and, for the
fast tier's, which a house-rule author may ignore,
[`src/treehouse/kernel/fast/hookspecs.py`](../src/treehouse/kernel/fast/hookspecs.py)) by
`docs/tools/hooks_md.py` (the docstrings there are the source of truth;
`tests/test_docs.py` fails when this page falls behind them).

Implement a hook with the `hookimpl` marker, using the argument names shown (you may
leave out arguments you do not need):

```python
from treehouse.hookspecs import hookimpl

@hookimpl
def treehouse_register_variants(register):
    register(MyVariant)
```

"""

TAIL = """## Hooks a variant adds

A variant may declare hooks of its own, as pytest's `pytest_addhooks` lets a
plugin do: set `hookspecs` on the variant class to a module (or class) of
`@hookspec` functions named `treehouse_...`, each with a docstring saying its
contract.  They join the kernel's hooks in every game of that variant, so a
house rule may implement them (a misspelt one is refused in one line, as for
the kernel's), `GameHooks` exposes them, and the variant calls them through
`self.hooks`:

```python
# my_variant/hookspecs.py
from treehouse.hookspecs import hookspec

@hookspec(firstresult=True)
def treehouse_ring_bonus(state, seat):
    \"\"\"A bonus for seat in state (a number).  First result.\"\"\"

# my_variant/game.py
class Ring(Variant):
    hookspecs = my_variant.hookspecs

    @hookimpl
    def treehouse_ring_bonus(self, state, seat):
        return 0.0

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        return base_score(state, seat) + self.hooks.treehouse_ring_bonus(state, seat)
```

A house rule that needs such a hook says so when it registers
(`register(name, factory, variants=None, needs=("treehouse_ring_bonus",))`):
it is then offered for every variant that provides the hook, and refused in
one line for the others.  `th plugins` lists each variant's own hooks.

## Calling game hooks yourself

Bots and tools that look ahead call the same hooks the engine does.  Build a
game's hooks once with `treehouse.kernel.hooks.game_hooks(variant, house_rules)`
(also importable from `treehouse.plugins`); each attribute is named after its
hook and takes the spec's arguments **positionally, in the spec's order**:

```python
from treehouse.kernel.hooks import game_hooks

hooks = game_hooks(variant)
state = hooks.treehouse_setup(variant, 2, rng)
for step in hooks.treehouse_turn_steps(state):
    moves = hooks.treehouse_legal_moves(state, step, "HOP")
```

Where no plugin wraps a hook, these calls go straight to the implementations
(first non-`None` answer wins, in pluggy's order); where a wrapper exists, or
`TREEHOUSE_TRACE_PLUGINS` is set, they go through pluggy itself.  Hooks that
only the kernel answers (`hooks.kernel_only`) are run inline by the engine.
`hooks.treehouse_step_statistics(...)` returns every plugin's counters added
up (one dict).  `hooks.variant` is the variant object registered in that
manager; its `hooks` attribute is this object.

## The order plugins are asked in

For a first-result hook the first non-`None` answer wins.  pluggy asks
`tryfirst` implementations first and `trylast` ones last; within each group,
the house rules come first, **in the order the rule set names them**
(`house_rules: [a, b]`: `a` before `b`), then the variant, then the kernel's
defaults.  When two house rules of one rule set both answer the same
first-result hook outright (not as wrappers), loading the rule set prints one
warning line naming both and saying whose answer counts.  Wrappers nest in
the same order: the first named wraps outermost.

## Watching a game

`Game(..., observer=...)` takes an object with `on_choice(game, mover, step,
face, moves)` (every roll or step, with the legal moves it offered; empty
means the face is rolled again) and `on_step(game, mover, step, move, before,
after, events)` (after every step is applied and resolved, with the events
its `treehouse_resolve` reported).  The playtest runner counts with one; it
is not a hook, so it costs nothing when absent.
"""


def inner_blank(line: str) -> bool:
    return not line.strip()


def markdown(text: str) -> str:
    """reST-flavoured docstring text as Markdown."""
    text = re.sub(r":(?:class|func|mod|meth|data|attr|exc):`~?([^`]+)`", lambda m: f"`{m.group(1).split('.')[-1] if m.group(0).count('~') else m.group(1)}`", text)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    lines, out, in_block, in_item = text.split("\n"), [], False, False
    for line in lines:
        if in_block:
            if line.strip() and not line.startswith("    "):
                out.append("```")
                out.append("")
                in_block = False
            else:
                out.append(line[4:] if line.startswith("    ") else line)
                continue
        match = re.match(r"^:param (\w+):\s*(.*)$", line)
        if match:
            out.append(f"- `{match.group(1)}`: {match.group(2)}")
            in_item = True
            continue
        match = re.match(r"^:returns:\s*(.*)$", line)
        if match:
            out.append(f"- Returns {match.group(1)}")
            in_item = True
            continue
        if in_item and line.startswith("    "):
            inner = line[4:]
            out.append("  " + inner)  # a continued list item (a nested list keeps its own indent)
            continue
        if in_item and inner_blank(line):
            out.append("")
            continue
        in_item = False
        if line.endswith("::"):
            out.append(line[:-1] if not line.endswith(" ::") else line[:-3])
            out.append("")
            out.append("```text")
            in_block = True
            # skip the blank line after '::'
            continue
        out.append(line)
    if in_block:
        out.append("```")
    page = "\n".join(out)
    page = re.sub(r"```text\n\n", "```text\n", page)
    page = re.sub(r"\n+```\n", "\n```\n", page)
    return page


def hook_sections() -> str:
    sys.path.insert(0, str(ROOT / "src"))
    import treehouse.hookspecs as hookspecs

    parts = []
    for name, function in vars(hookspecs).items():
        if not name.startswith("treehouse_") or not callable(function):
            continue
        opts = getattr(function, "treehouse_spec", {})
        signature = ", ".join(inspect.signature(function).parameters)
        first = " (first result)" if opts.get("firstresult") else ""
        parts.append(f"## `{name}({signature})`{first}\n\n{markdown(inspect.cleandoc(function.__doc__ or ''))}\n")
    intro = markdown(inspect.cleandoc(hookspecs.__doc__ or "").split("\n", 2)[2])
    return intro.strip() + "\n\n" + "\n".join(parts) + "\n" + fast_sections()


def sections(specs) -> list[str]:
    parts = []
    for name, function in vars(specs).items():
        if not name.startswith("treehouse_") or not callable(function):
            continue
        opts = getattr(function, "treehouse_spec", {})
        signature = ", ".join(inspect.signature(function).parameters)
        first = " (first result)" if opts.get("firstresult") else ""
        parts.append(f"### `{name}({signature})`{first}\n\n{markdown(inspect.cleandoc(function.__doc__ or ''))}\n")
    return parts


def fast_sections() -> str:
    """The fast tier's hooks (src/treehouse/kernel/fast/hookspecs.py), apart: an author may ignore them."""
    import treehouse.kernel.fast.hookspecs as fast

    intro = markdown(inspect.cleandoc(fast.__doc__ or ""))
    return "## The fast tier's hooks\n\n" + intro.strip() + "\n\n" + "\n".join(sections(fast))


def page() -> str:
    return HEAD + hook_sections() + "\n" + TAIL


def main(argv: list[str]) -> int:
    text = page()
    if "--check" in argv:
        if PAGE.read_text() != text:
            print(f"{PAGE} is out of date: run python docs/tools/hooks_md.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

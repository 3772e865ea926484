"""House-rule specs as the adapters take them: one spelling everywhere (docs/interop.md).

A house rule is written ``name(option=value, ...)`` in YAML, on the command
line, in OpenSpiel's parameters and in PettingZoo's; several go in a list,
or in one text separated by commas, brackets optional, as YAML's flow list
writes them: ``[wild-repair(max=1), large-fences-only]``.

OpenSpiel's game strings give ``( ) , =`` meanings of their own, so inside
a game string (``str(game)``, what ``pyspiel.load_game`` reads back) the
same text is percent-escaped: ``house_rules=wild-repair%28max%3D1%29``.
Reading unescapes first, so both forms load the same game.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

from treehouse.errors import ConfigError
from treehouse.specs import parse_spec

#: What OpenSpiel's game-string syntax reserves (and ``%``, the escape itself).
_RESERVED = "(),=%[]+; "


def house_rule_list(value: Any, argument: str = "house_rules") -> list[str]:
    """The specs in ``value``: a list of specs, or one text of them separated
    by top-level commas (``"wild-repair(max=1), large-fences-only"``, brackets
    optional).  ``argument`` names what was given, for the one-line error."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        specs = list(value)
    elif isinstance(value, str):
        text = unquote(value).strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        specs, depth, part = [], 0, []
        for char in text:
            depth += (char == "(") - (char == ")")
            if char == "," and depth == 0:
                specs.append("".join(part))
                part = []
            else:
                part.append(char)
        specs.append("".join(part))
        if depth != 0:
            raise ConfigError(f"{argument}: unbalanced parentheses in {value!r}; write name(option=value), e.g. wild-repair(max=1)")
        specs = [spec.strip() for spec in specs if spec.strip()]
    else:
        raise ConfigError(f"{argument} must be a list of house rules or a text of them, e.g. 'wild-repair(max=1)', not {type(value).__name__}")
    for spec in specs:
        if not isinstance(spec, str):
            raise ConfigError(f"{argument}: {spec!r} is not a house rule; write name(option=value), e.g. wild-repair(max=1)")
        try:
            parse_spec(spec, "house rule", "wild-repair(max=1)", ConfigError)
        except ConfigError as error:
            raise ConfigError(f"{argument}: {error}") from None
    return specs


def game_string_value(specs: list[str]) -> str:
    """``specs`` as one ``house_rules`` value a game string can carry (percent-escaped)."""
    return quote(",".join(specs), safe="".join(chr(c) for c in range(33, 127) if chr(c) not in _RESERVED))


def configured(who: str, variant: str, players: int | None, house_rules: Any, rules: dict[str, Any], plugins: Any) -> tuple[Any, int]:
    """The effective rules and player count for an environment's keyword
    arguments (PettingZoo's ``env(...)``, Gymnasium's ``make(...)``):
    ``variant`` a rule set or variant name, ``house_rules`` a list or one text,
    ``rules`` the variant's options.  A mistake is one
    :class:`~treehouse.errors.ConfigError` line naming ``who`` and the argument."""
    import yaml

    from treehouse.config import resolve
    from treehouse.errors import TreehouseError

    if not isinstance(variant, str):
        raise ConfigError(f"{who}: variant must be the name of a variant or rule set, e.g. 'fences', not {type(variant).__name__}")
    if "max_turns" in rules:
        raise ConfigError(f"{who}: max_turns: the turn cap is spelled turn_cap, as in the rule sets, on the command line and in OpenSpiel (turn_cap={rules['max_turns']!r})")
    overrides = []
    if house_rules is not None:
        try:
            specs = house_rule_list(house_rules)
        except ConfigError as error:
            raise ConfigError(f"{who}: {error}") from None
        overrides.append(f"house_rules={yaml.safe_dump(specs, default_flow_style=True).strip()}")
    # rule options as --set texts (values read back as YAML, as on the command line)
    overrides += [f"{key}={yaml.safe_dump(value, default_flow_style=True).strip().removesuffix('...').strip()}" for key, value in rules.items()]
    try:
        effective = resolve(plugins, variant=variant, overrides=overrides)
    except TreehouseError as error:  # name the keyword argument, not the command line's --set
        text = str(error).replace("--set: rules.", "").replace("--set: ", "").replace("unknown option", "unknown argument")
        argument = next((name for words, name in _ARGUMENT_OF.items() if words in text and not text.startswith(name)), "")
        raise ConfigError(f"{who}: {argument}{text}") from None
    try:
        effective.house_rule_plugins(plugins)
    except TreehouseError as error:
        raise ConfigError(f"{who}: house_rules: {error}") from None
    low, high = effective.variant().player_range()
    players = effective.variant_class.default_players if players is None else players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise ConfigError(f"{who}: players: {effective.name} is played by {low} to {high} players, not {players!r}")
    return effective, players


def installed_games(plugins: Any) -> dict[str, Any]:
    """Name -> effective rules for every game the adapters register: each
    shipped rule set whose variant is installed, then each installed variant
    without a rule set of its own name (a plugin's, such as ``race``)."""
    from treehouse.config import resolve, shipped_rulesets
    from treehouse.errors import TreehouseError

    names = list(shipped_rulesets())
    names += [name for name in plugins.variants if name not in names]
    found = {}
    for name in names:
        try:
            found[name] = resolve(plugins, variant=name)
        except TreehouseError:
            continue  # e.g. a rule set for a variant whose plugin is not installed
    return found


#: Which keyword argument an error of the rule set's resolution is about, by its words.
_ARGUMENT_OF = {"unknown variant": "variant: ", "house rule": "house_rules: "}

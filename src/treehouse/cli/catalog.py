"""``th variants`` and ``th rules``: what can be played, and by which rules."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from treehouse.cli.common import ConfigOption, SetOption, VariantOption, effective_rules, out, plugins, run_guarded, shown, shown_path
from treehouse.config import shipped_rulesets, read_ruleset_file


def variants(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array instead of a table.")] = False,
) -> None:
    """List the installed variants and the shipped rule sets.

    Example: th variants --json
    """
    loaded = plugins()
    rows = []
    for key, cls in sorted(loaded.variants.items()):
        rows.append(
            {
                "name": cls.name,
                "aliases": list(cls.aliases),
                "description": cls.description,
                "players": [cls.min_players, cls.max_players],
                "plugin": loaded.variant_plugins[key],
            }
        )
    rulesets = []
    for name, path in shipped_rulesets().items():
        data = run_guarded(read_ruleset_file, path)
        rulesets.append({"name": name, "variant": data.variant, "extends": data.extends, "description": data.description or ""})
    if as_json:
        out.print_json(json.dumps({"variants": rows, "rule_sets": rulesets}))
        return
    table = Table(title="Variants", title_justify="left", expand=False)
    for column in ("name", "players", "plugin", "description"):
        table.add_column(column, overflow="fold")
    for row in rows:
        name = row["name"] + (f" ({', '.join(row['aliases'])})" if row["aliases"] else "")
        lo, hi = row["players"]
        table.add_row(name, f"{lo}-{hi}", row["plugin"], row["description"])
    out.print(table)
    table = Table(title="Rule sets (th rules --variant NAME)", title_justify="left")
    for column in ("name", "variant", "description"):
        table.add_column(column, overflow="fold")
    for row in rulesets:
        table.add_row(escape(row["name"]), escape(str(row["variant"] or "?")), escape(row["description"]))
    out.print(table)


def rules(
    variant: VariantOption = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
) -> None:
    """Show the rules in force after `extends:` and `--set`, and where each value came from.

    Example: th rules -v fences --set line_hits=every_check
    """
    effective = run_guarded(effective_rules, variant, config, overrides)
    fields = effective.variant_class.Rules.model_fields
    tier = run_guarded(_tier_of, effective)
    if as_json:
        out.print_json(
            json.dumps(
                {
                    "rule_set": effective.name,
                    "variant": effective.variant_class.name,
                    "tier": tier,
                    "settings": [{"key": k, "value": v, "source": shown_path(s) if s.endswith(".yaml") else s} for k, v, s in effective.rows()],
                }
            )
        )
        return
    out.print(f"[bold]{shown(effective.name)}[/bold]: {shown(effective.description)}")
    table = Table(title_justify="left")
    for column in ("setting", "value", "from"):
        table.add_column(column, overflow="fold")
    for key, value, source in effective.rows():
        table.add_row(key, shown(json.dumps(value)), shown(shown_path(source) if source.endswith(".yaml") else source))
    out.print(table)
    out.print(f"[bold]Tier[/bold]: {shown(tier)}")
    out.print("[bold]Rule options[/bold] (change one with --set KEY=VALUE):")
    for key, option in fields.items():
        out.print(f"  [cyan]{key}[/cyan]: {option.description or ''}")
    available = plugins().house_rules_for(effective.variant_class)
    if available:
        out.print(
            "[bold]House rules[/bold] (turn on with house_rules: [NAME] or [\"NAME(option=value)\"] in a rule set,"
            " or --set 'house_rules=[NAME]'):"
        )
        in_force = {spec.partition("(")[0]: spec for spec in effective.house_rules}
        for info in available:
            state = f"on: {in_force[info.name]}" if info.name in in_force else "off"
            out.print(f"  [cyan]{info.name}[/cyan] ({shown(state)}): {shown(info.description)}")
            if info.options is not None:
                for key, option in info.options.model_fields.items():
                    out.print(f"      {key} (default {json.dumps(option.default)}): {shown(option.description or '')}")


def _tier_of(effective) -> str:
    """Which tier of rules the looks of bots that look ahead run on under ``effective``, in words (the gate's answer)."""
    from treehouse.kernel.fast import compiled

    variant_class = effective.variant_class
    if not variant_class.FAST_HOOKS:
        return f"reference rules ({variant_class.name} has no compiled core)"
    if not compiled.wanted():
        return compiled.tier().removeprefix("rules: ")
    if effective.slow:
        return f"reference rules for bots that look ahead: {effective.slow[0]}"
    return "compiled core for bots that look ahead (the same games as the reference rules)"


def plugins_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array instead of a table.")] = False,
) -> None:
    """List every loaded plugin: its distribution, version, the hooks it implements and what it provides.

    Example: th plugins --json
    """
    loaded = plugins()
    rows = [
        {"name": info.name, "distribution": info.distribution, "version": info.version, "hooks": info.hooks, "provides": info.provides}
        for info in loaded.loaded.values()
    ]
    if as_json:
        out.print_json(json.dumps({"plugins": rows, "problems": loaded.problems}))
        return
    def short(text: str) -> str:  # the table drops the common hook prefix to fit 80 columns
        return text.replace("treehouse_", "")

    table = Table(title="Plugins (hook names without the treehouse_ prefix)", title_justify="left")
    # The hooks column is as wide as the longest registration hook, so no hook name
    # is cut; long names of plugins and distributions fold instead.
    table.add_column("plugin", overflow="fold", max_width=16)
    table.add_column("distribution", overflow="fold", max_width=16)
    table.add_column("hooks", overflow="fold", min_width=len("register_house_rules"))
    table.add_column("provides", overflow="fold")
    for row in rows:
        table.add_row(
            row["name"], f"{row['distribution']} {row['version']}", short("\n".join(row["hooks"])), short("\n".join(row["provides"]))
        )
    out.print(table)
    for problem in loaded.problems:
        out.print(f"[red]problem:[/red] {problem}", markup=True)

"""The entry-point module: ``pyramid-race = "pyramid_race.plugin"`` in pyproject.toml."""

from treehouse.hookspecs import hookimpl

from pyramid_race.game import Race


@hookimpl
def treehouse_register_variants(register):
    register(Race)

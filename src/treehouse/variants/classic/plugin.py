"""The entry-point module of classic Treehouse (``treehouse.variants.classic.plugin``)."""

from treehouse.hookspecs import hookimpl
from treehouse.variants.classic.game import Classic
from treehouse.variants.classic.house_rules import HOUSE_RULES


@hookimpl
def treehouse_register_variants(register):
    register(Classic)


@hookimpl
def treehouse_register_house_rules(register):
    for rule in HOUSE_RULES:
        register(rule.name, rule, Classic.name, type(rule).__doc__.splitlines()[0])

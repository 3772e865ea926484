"""The entry-point module of classic Treehouse (``treehouse.variants.classic.plugin``)."""

from treehouse.hookspecs import hookimpl
from treehouse.variants.classic.game import Classic
from treehouse.variants.classic.house_rules import register_house_rules


@hookimpl
def treehouse_register_variants(register):
    register(Classic)


@hookimpl
def treehouse_register_house_rules(register):
    register_house_rules(register)

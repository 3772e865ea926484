"""The entry-point module of Fences (``treehouse.variants.fences.plugin``)."""

from treehouse.hookspecs import hookimpl
from treehouse.variants.fences.game import Fences
from treehouse.variants.fences.house_rules import HOUSE_RULES


@hookimpl
def treehouse_register_variants(register):
    register(Fences)


@hookimpl
def treehouse_register_house_rules(register):
    for rule in HOUSE_RULES:
        register(rule.name, rule, Fences.name, type(rule).__doc__.splitlines()[0])

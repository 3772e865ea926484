"""The entry-point module of Fences (``treehouse.variants.fences.plugin``)."""

from treehouse.hookspecs import hookimpl
from treehouse.variants.fences.game import Fences
from treehouse.variants.fences.house_rules import register_house_rules


@hookimpl
def treehouse_register_variants(register):
    register(Fences)


@hookimpl
def treehouse_register_house_rules(register):
    register_house_rules(register)

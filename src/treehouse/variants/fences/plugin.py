"""The entry-point module of Fences (``treehouse.variants.fences.plugin``)."""

from treehouse.hookspecs import hookimpl
from treehouse.variants.fences.game import Fences


@hookimpl
def treehouse_register_variants(register):
    register(Fences)

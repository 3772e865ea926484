"""The entry-point module of classic Treehouse (``treehouse.variants.classic.plugin``)."""

from treehouse.hookspecs import hookimpl
from treehouse.variants.classic.game import Classic


@hookimpl
def treehouse_register_variants(register):
    register(Classic)

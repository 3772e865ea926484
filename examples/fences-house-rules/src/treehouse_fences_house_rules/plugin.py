"""The entry-point module: registers the three house rules."""

from pydantic import BaseModel, ConfigDict, Field

from treehouse.hookspecs import hookimpl
from treehouse_fences_house_rules.large_fences_only import LargeFencesOnly
from treehouse_fences_house_rules.no_swap_outside import NoSwapOutside
from treehouse_fences_house_rules.wild_repair import WildRepair


class WildRepairOptions(BaseModel):
    """Options of wild-repair (frozen, so hashable: games with equal options share their hooks)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max: int = Field(1, ge=0, le=20, description="How many times each Stack may take back a destroyed small in a game.")


@hookimpl
def treehouse_register_house_rules(register):
    # Any variant that provides Fences' Hits hook (Fences itself, or a relative of it).
    register(
        "large-fences-only",
        LargeFencesOnly,
        variants=None,
        needs=("treehouse_fences_hits",),
        description="Medium Fences block but never Hit: only large Fences (and Stacks, and Outside) Hit.",
    )
    register(
        "no-swap-outside",
        NoSwapOutside,
        variants=None,
        needs=("treehouse_fences_hits",),
        description="A Swap with an Outside Fence no longer Hits: the Stack just stays.",
    )
    register(
        "wild-repair",
        WildRepair,
        variants="fences",
        options=WildRepairOptions,
        description="On a WILD roll the Stack may take back one destroyed small instead of acting (max times a game).",
    )

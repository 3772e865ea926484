"""A move typed at th play's prompt that the variant cannot read: its parse error reaches the person intact."""

from __future__ import annotations

import pytest

from treehouse.cli.human import Mistake, read_move
from treehouse.errors import NotationError

pytestmark = pytest.mark.example("pyramid-race")


def test_a_variants_parse_error_is_shown_whole_as_the_variant_wrote_it(plugins):
    fences = plugins.variant("fences")()
    with pytest.raises(Mistake) as caught:
        read_move("zzz", fences, ())
    assert str(caught.value) == f"cannot read 'zzz': {_parse_error(fences, 'zzz')}"  # the variant's words whole
    assert str(caught.value).startswith("cannot read 'zzz': bad move kind 'zzz' in 'zzz': expected one of move, tip")


def test_a_message_that_names_the_move_keeps_its_words(plugins):
    race = plugins.variant("race") if "race" in plugins.variants else pytest.skip("examples/pyramid-race is not installed")

    class Strict(race):
        def parse_move(self, text):
            raise NotationError(f"move {text.strip()!r}: expected a size and a space, e.g. S7")

    with pytest.raises(Mistake, match=r"^cannot read 'zzz': move 'zzz': expected a size and a space, e\.g\. S7$"):
        read_move("zzz", Strict(), ())


def test_a_message_without_the_move_still_says_which_text_it_could_not_read(plugins):
    classic = plugins.variant("classic")()
    with pytest.raises(Mistake, match=r"^cannot read 'hpo L\^': unknown action 'hpo'; known: aim, dig, hop, swap, tip$"):
        read_move("hpo L^", classic, ())


def _parse_error(variant, text):
    from treehouse.kernel.engine import parse_move

    try:
        parse_move(variant, text)
    except NotationError as error:
        return error
    raise AssertionError("it read")

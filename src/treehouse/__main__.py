"""``python -m treehouse`` is ``th``."""

from treehouse.cli import main

main()

"""treehouse: a framework for dice-and-pyramid board games.

The package is laid out by architecture:

* ``treehouse.kernel``   pieces, the die, the turn engine, seats and records (no game rules);
* ``treehouse.hookspecs`` every plugin hook, each documented as a contract;
* ``treehouse.plugins``  the plugin-manager factory (entry points, blocklist, tracing);
* ``treehouse.config``   YAML rule sets with ``extends`` and ``--set`` overrides;
* ``treehouse.variants`` the built-in games, each a plugin like a third party's;
* ``treehouse.bots``     seats that play by themselves;
* ``treehouse.cli``      the ``th`` command.
"""

__version__ = "0.1.0"

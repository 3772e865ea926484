"""Fences' fast tier: the rules as numba kernels over integer arrays
(``core``), their encoding (``core_layout``) and the glue that answers the
look hooks with them (``looks``).  The reference rules beside this package
are the specification; tests/fences/test_tiers.py holds the two equal."""

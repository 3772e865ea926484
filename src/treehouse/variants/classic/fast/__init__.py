"""Classic's fast tier: the rules as numba kernels over integer arrays
(``core``), their encoding (``core_layout``) and the glue that answers the
look hooks and offers the compiled game (``looks``).  The reference rules
beside this package are the specification; tests/classic/test_tiers.py
holds the two equal."""

"""The built-in variants.  Each is a plugin registered through the ``treehouse``
entry-point group, exactly as a third party's would be; nothing imports them by name."""

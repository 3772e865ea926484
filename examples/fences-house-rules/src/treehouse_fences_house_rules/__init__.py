"""Fences house rules as a third-party plugin: large-fences-only, no-swap-outside and wild-repair."""

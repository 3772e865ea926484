"""Fences house rules as a third-party plugin: large-fences-only and wild-repair."""

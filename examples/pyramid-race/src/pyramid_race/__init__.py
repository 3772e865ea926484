"""Pyramid Race: an example third-party variant for treehouse."""

"""Bots: seats that play by themselves, registered through ``treehouse_register_bots``."""

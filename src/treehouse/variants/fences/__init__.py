"""Fences: Stacks of small pyramids dodge the lines of Pointing Fences on a 5x5 grid."""

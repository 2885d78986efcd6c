"""Stepping Stones: a three-player compendium trick-taking game for the terminal."""

__version__ = "0.1.0"

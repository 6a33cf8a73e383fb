"""The refusal every layer of the wire shares, whatever the game: a request that cannot be read at all."""

from __future__ import annotations


class BadRequest(ValueError):
    """A message that is malformed whatever the game's state (INVALID_ARGUMENT)."""

"""The rules engines: pure Python, no I/O, no protobuf, no gRPC.

What every game shares lives here (``cards``, ``knobs``); each game is a package of its own behind the game interface:
``ten_pennies`` (docs/RULES.md) and ``thirty_one`` (docs/THIRTY-ONE.md).
"""

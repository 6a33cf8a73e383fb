"""The rules engines: pure Python, no I/O, no protobuf, no gRPC.

What every game shares lives here (``cards``, ``knobs``, ``play``, ``review``, ``tournament``); each game is a
package of its own behind the game interface (``interface``), listed by name in ``games``, its rule book in docs/.
"""

"""Checks of command-line values the subcommands share (argparse types: a clear message, never a trace)."""

from __future__ import annotations

import argparse


def address(text: str) -> str:
    """A server's HOST:PORT."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT")
    return text


def player_name(text: str) -> str:
    """A name at the tables, as the server takes it: 1 to 40 printable characters."""
    name = text.strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise argparse.ArgumentTypeError("a name is 1 to 40 printable characters")
    return name

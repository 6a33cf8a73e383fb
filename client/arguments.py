"""Checks of command-line values the subcommands share (argparse types: a clear message, never a trace)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from tenpennies.engine.games import DEFAULT_GAME, GAMES, UnknownGame, kind
from tenpennies.engine.interface import Kind, RuleError, Rules
from tenpennies.engine.knobs import either
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.errors import BadRequest
from tenpennies.wire.games import wire


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


def game_title(game: str) -> str:
    """A game as a screen names it (``Thirty-One``, its kind's ``title``), from its engine name ("": the
    default, Ten Pennies); a game this program does not have, by its name."""
    played = GAMES.get(game or DEFAULT_GAME)
    return played.title if played is not None else game


def games_help() -> str:
    """The games ``--game`` takes, for its help: the default game's name first (``... (the default) or ...``)."""
    return either([f"{DEFAULT_GAME} (the default)", *sorted(set(GAMES) - {DEFAULT_GAME})])


def no_bot(game: str, strategies: Iterable[str]) -> str:
    """Why a game (its engine name) cannot seat bots of ``strategies``: they named, the game's own bots, and
    which other game has them (``unknown bot greedy: Thirty-One has no greedy bot (Ten Pennies has it); its
    bots are ...``)."""
    names = sorted(set(strategies))
    elsewhere = []
    for other, other_kind in GAMES.items():
        theirs = [s for s in names if s in other_kind.bots]
        if other != game and theirs:
            which = " and ".join(theirs) if len(theirs) < len(names) else "it" if len(names) == 1 else "them"
            elsewhere.append(f"{game_title(other)} has {which}")
    whose = f" ({'; '.join(elsewhere)})" if elsewhere else ""
    plural = "s" if len(names) > 1 else ""
    return (f"unknown bot{plural} {', '.join(names)}: {game_title(game)} has no {' or '.join(names)} bot{whose}; "
            f"its bots are {', '.join(kind(game).bots)}")


def game_name(text: str) -> str:
    """A game as the command line names it: its engine name (``engine.games``), the one spelling; any other is
    refused naming the games there are (``no game 'chess' here (there are ...)``)."""
    try:
        return kind(text.strip()).name
    except UnknownGame as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _by_default_first() -> list[Kind[Any]]:
    """The games, the default one first (its words are the ones a refusal leads with)."""
    return [kind(DEFAULT_GAME), *(GAMES[name] for name in sorted(GAMES) if name != DEFAULT_GAME)]


def house_rule(text: str) -> str:
    """A house rule as ``--rule NAME=VALUE`` writes it, checked against its declaration (``Kind.knobs``) in each
    game that has a rule of that name: refused, naming the rule and what it takes, when no game has the name
    or none takes the value (a value is judged alone: whether the rest of the rules play it, a preset's, say,
    is for the game's rules to say). The command checks it again against the game it plays."""
    name, _, value = text.partition("=")
    name = name.strip().replace("-", "_")
    refusals: list[tuple[str, RuleError]] = []
    for game in _by_default_first():
        declared = next((k for k in game.knobs if k.name == name), None)
        if declared is None:
            continue
        try:
            declared.check(declared.parse(value))
            return text
        except RuleError as error:
            refusals.append((game.title, error))
    if not refusals:  # no game has it: the default game's words for an unknown rule
        try:
            kind(DEFAULT_GAME).rules_from_settings([text])
        except RuleError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        raise argparse.ArgumentTypeError(f"no such rule: {name}")
    (_, first), *others = refusals
    raise argparse.ArgumentTypeError(str(first) + "".join(f" (in {title}: {error})" for title, error in others))


def add_rule_option(parser: argparse.ArgumentParser) -> None:
    """``--rule NAME=VALUE``, repeatable; ``game_rules(game, args.rule or ())`` reads them."""
    defaults = "; ".join(f"{game.title}: " + ", ".join(f"{knob.name}={knob.word(knob.default)}" for knob in game.knobs)
                         for game in _by_default_first())
    parser.add_argument("--rule", action="append", type=house_rule, metavar="NAME=VALUE",
                        help=f"a rule of the game (--game), e.g. --rule preset=NAME; the rules and their defaults: "
                             f"{defaults}")


def game_rules(game: str, settings: Iterable[str]) -> Rules:
    """A game's rules from ``NAME=VALUE`` texts (``preset=switch``, ``lives=5``), read by the game's own rules
    (its ``from_settings``, from its knobs' declarations): RuleError, citing the game's rule, for an unknown
    name or a value a knob does not take; UnknownGame for a game the engine does not have."""
    rules: Rules = kind(game).rules_from_settings(list(settings))
    return rules


def local_rules(game: str, settings: Iterable[str]) -> pb.HouseRules:
    """``--rule`` of ``tenpennies play --local --game GAME`` as the wire carries them; ValueError saying
    what is wrong (no such game, no such rule, a value the rule does not take)."""
    try:
        return wire(game).rules_to_pb(game_rules(game, settings))
    except (RuleError, UnknownGame, BadRequest) as error:
        raise ValueError(str(error)) from None

"""Checks of command-line values the subcommands share (argparse types: a clear message, never a trace)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from tenpennies.engine.games import DEFAULT_GAME, GAMES, UnknownGame, kind
from tenpennies.engine.interface import Rules
from tenpennies.engine.knobs import either
from tenpennies.engine.ten_pennies.rules import KNOBS, HouseRules, RuleError
from tenpennies.engine.thirty_one.rules import KNOBS as THIRTY_ONE_KNOBS
from tenpennies.engine.thirty_one.rules import Rules as ThirtyOneRules
from tenpennies.engine.thirty_one.rules import knob_named as thirty_one_knob
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.wire.games import wire
from tenpennies.wire.mapping import BadRequest


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
    """The games ``--game`` takes, for its help: ``ten_pennies (the default) or thirty_one``."""
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
    """A game as the command line names it: its engine name, ``ten_pennies`` or ``thirty_one``, the one
    spelling; any other is refused naming the games there are (``no game 'thirty-one' here (there are
    ten_pennies, thirty_one)``)."""
    try:
        return kind(text.strip()).name
    except UnknownGame as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def house_rule(text: str) -> str:
    """A house rule as ``--rule NAME=VALUE`` writes it, checked against its declaration (TP-6, or a
    Thirty-One knob's rule for a setting of Thirty-One's): an unknown name or a value the rule does not
    take is refused, naming the rule and what it takes. The command checks it again against the game it
    plays."""
    name, _, value = text.partition("=")
    name = name.strip().replace("-", "_")
    thirty_one_only = name in {k.name for k in THIRTY_ONE_KNOBS} - {k.name for k in KNOBS}
    try:
        if thirty_one_only:  # its value alone: whether the preset plays it is for the game's rules to say
            declared = thirty_one_knob(name)
            declared.check(declared.parse(value))
        else:
            try:
                HouseRules.from_settings([text])
            except RuleError as ten_pennies:
                if name != "preset":
                    raise
                try:
                    ThirtyOneRules.from_settings([text])  # a preset of Thirty-One's
                except RuleError as thirty_one:
                    raise argparse.ArgumentTypeError(f"{ten_pennies} (in Thirty-One: {thirty_one})") from None
    except RuleError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def add_rule_option(parser: argparse.ArgumentParser) -> None:
    """``--rule NAME=VALUE``, repeatable; ``HouseRules.from_settings(args.rule or [])`` reads them."""
    defaults = ", ".join(f"{knob.name}={knob.word(knob.default)}" for knob in KNOBS)
    parser.add_argument("--rule", action="append", type=house_rule, metavar="NAME=VALUE",
                        help=f"a house rule of docs/RULES.md TP-6, e.g. --rule preset=deuces --rule rounds=1,2 "
                             f"(the rules and their defaults: {defaults})")


def game_rules(game: str, settings: Iterable[str]) -> Rules:
    """A game's rules from ``NAME=VALUE`` texts (``preset=switch``, ``lives=5``), read by the game's own rules
    (its ``from_settings``, from its knobs' declarations): RuleError, citing the game's rule, for an unknown
    name or a value a knob does not take; UnknownGame for a game the engine does not have."""
    rules: Rules = type(kind(game).rules_from_dict({})).from_settings(list(settings))
    return rules


def local_rules(game: str, settings: Iterable[str]) -> pb.HouseRules:
    """``--rule`` of ``tenpennies play --local --game GAME`` as the wire carries them; ValueError saying
    what is wrong (no such game, no such rule, a value the rule does not take)."""
    try:
        return wire(game).rules_to_pb(game_rules(game, settings))
    except (RuleError, UnknownGame, BadRequest) as error:
        raise ValueError(str(error)) from None

"""The ``tenpennies`` command: ``play`` (the terminal client), ``bots`` (a headless bot game), ``serve``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# gRPC's C core logs at INFO to the terminal ("Handshake failed ...", "Got goaway ..."): raw lines in the
# middle of a game or a server's console. Errors only, unless the user asks for more; set before gRPC loads.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

FRAMES_PER_SECOND = 240
"""The terminal client's frames a second. Textual composes a screen's changes at the next tick of the screen's
frame timer, ``TEXTUAL_FPS`` ticks a second (Textual's own setting, read once, as Textual is imported; 60 unless
set): a change that needs a layout and then a second frame (a game's first hand, a seat that joins) waited a
whole 60th of a second more for it, and a table following a bots' game at full speed half a 60th on average for
each of its frames. The timer ticks only while a screen has something to draw: an idle table wakes nobody. Set
here, before anything imports Textual; a ``TEXTUAL_FPS`` of the user's own is kept."""
os.environ.setdefault("TEXTUAL_FPS", str(FRAMES_PER_SECOND))

from tenpennies.client import bot, replay, tournament  # noqa: E402
from tenpennies.client.arguments import (  # noqa: E402
    add_rule_option,
    address,
    game_name,
    game_rules,
    games_help,
    player_name,
)
from tenpennies.client.games import client_game, reader, standings_lines, table_words, telling  # noqa: E402
from tenpennies.client.trust import fingerprint_argument  # noqa: E402
from tenpennies.engine.games import DEFAULT_GAME, GAMES, kind  # noqa: E402
from tenpennies.engine.interface import RuleError  # noqa: E402
from tenpennies.engine.play import play_game  # noqa: E402

if TYPE_CHECKING:
    from tenpennies.client.tui.app import Launch


def cmd_bots(args: argparse.Namespace) -> int:
    """A headless game between built-in bots of ``--game``, each round's end told as it comes (``-v``: every
    event in its narrator's words), then the final standings."""
    entry = client_game(args.game)
    played = entry.kind
    registry = played.bots
    kinds = ((args.bots or played.takeover).split(",") * args.seats)[: args.seats]
    if any(k not in registry for k in kinds):
        print(f"bots are {', '.join(registry)}", file=sys.stderr)
        return 2
    try:
        rules = game_rules(played.name, args.rule or ())
        game = played.new(args.seats, rules, args.seed)
    except RuleError as err:
        print(f"cannot start that game: {err}", file=sys.stderr)
        return 2
    names = [f"seat {s} ({kind})" for s, kind in enumerate(kinds)]
    bots = [registry[kind](args.seed * 100 + s) for s, kind in enumerate(kinds)]
    print(f"{played.title}: {table_words(entry, rules, args.seats, args.seed)}")
    narrator = reader(entry, rules, names.__getitem__)

    def played_out(events: Sequence[object]) -> None:
        for event in events:
            if args.verbose:
                for line in telling(narrator, event):
                    print(line)
                continue
            summary = entry.round_end(narrator, event)
            if summary is not None:
                print(summary)

    played_out(game.opening_events)
    play_game(game, bots, on_events=played_out)
    result = game.result
    assert result is not None
    print("Final standings:")
    for line in standings_lines(entry, game.view(None), result.scores, result.winners, rules, names.__getitem__):
        print(line)
    print(f"{len(game.log)} commands")
    return 0


def _rounds_knob() -> Any:
    """The ``rounds`` rule of the games that have one (the first such game's declaration), or None."""
    return next((k for game in GAMES.values() for k in game.knobs if k.name == "rounds"), None)


def local_rounds(text: str) -> tuple[int, ...]:
    """``--rounds``: N, the first N rounds; or the rounds themselves (``1,4,7``), as the ``rounds`` rule takes them."""
    declared = _rounds_knob()
    if declared is None:
        raise argparse.ArgumentTypeError("no game here plays a choice of rounds")
    text = text.strip()
    if text.isdigit() and "," not in text:
        count = int(text)
        if not 1 <= count <= declared.high:
            raise argparse.ArgumentTypeError(f"a game has 1 to {declared.high} rounds")
        return tuple(range(1, count + 1))
    try:
        value = declared.parse(text)
        declared.check(value)
    except RuleError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return tuple(value)


def _login_name() -> str:
    import getpass
    try:
        name = getpass.getuser()
    except Exception:  # no login name in this environment (a container, say)
        return "player"
    return name[:40] if name and name.isprintable() else "player"


def play_launch(args: argparse.Namespace, environ: Mapping[str, str]) -> Launch:
    """What ``tenpennies play`` opens, from its flags, the remembered settings and the environment;
    ValueError for flags that do not go together. No --server nor --local: the servers on the LAN (and the
    remembered one) to choose from. Remembers the server and name for next time (a --local game leaves the
    remembered server alone)."""
    from tenpennies.client.arguments import local_rules
    from tenpennies.client.settings import ClientConfig
    from tenpennies.client.tui.app import Launch
    from tenpennies.client.tui.cards import CardStyle
    from tenpennies.wire.common import config_dir, data_dir, interface_addresses

    config = ClientConfig.load(config_dir())
    style = CardStyle(ascii=args.ascii, four_colour=args.four_colour, colour=not environ.get("NO_COLOR"))
    if args.db and not args.replay:
        raise ValueError("--db is the file of the game to --replay: it goes with --replay")
    if args.replay or args.history:
        if args.replay and args.history:
            raise ValueError("--history lists your games and --replay opens one: one or the other")
        if args.local or args.spectate or args.rounds or args.practice or args.game or args.rule:
            raise ValueError("--replay and --history show games played: they take no --local, --spectate, "
                             "--rounds, --practice, --game or --rule")
        if args.history and args.server:
            raise ValueError("--history lists your local games: it takes no --server")
        if args.db and args.server:
            raise ValueError("--replay reads a game from --db FILE or from --server HOST:PORT, not both")
        if args.history:
            return Launch("history", style=style, home=data_dir())
        return Launch("replay", address=args.server or "", tls_ca=args.tls_ca, style=style, home=data_dir(),
                      replay=args.replay, db=Path(args.db) if args.db else None)
    if args.local and args.spectate:
        raise ValueError("--local plays on this machine alone: it takes no --spectate")
    if (args.rounds or args.practice) and not args.local:
        raise ValueError("--rounds and --practice shape a local game: they go with --local")
    if (args.game or args.rule) and not args.local:
        raise ValueError("--game and --rule choose the local game: they go with --local (a server's lobby "
                         "chooses its tables' games and rules on its create form)")
    game = args.game or ""
    if game or args.rule:
        local_rules(game or DEFAULT_GAME, args.rule or ())  # ValueError: no such game, or a rule it lacks
    if args.rounds and not any(k.name == "rounds" for k in kind(game or DEFAULT_GAME).knobs):
        raise ValueError(f"--rounds chooses the rounds a game plays: {kind(game or DEFAULT_GAME).title} has no "
                         f"rounds rule (its rules say how long it plays: --rule NAME=VALUE)")
    if args.interface:
        if args.local or args.server or args.spectate:
            raise ValueError("--interface is where to look for servers: it goes without --local, --server "
                             "and --spectate")
        interface_addresses(args.interface)  # ValueError: no such interface here
    server = None if args.local else (args.server or (config.server if args.spectate else None))
    if args.spectate and not server:
        raise ValueError("--spectate needs --server HOST:PORT (no server remembered yet)")
    name = args.name or config.name or _login_name()
    tls_ca = args.tls_ca if args.server else (args.tls_ca or config.tls_ca)
    try:
        ClientConfig(server or config.server, name, tls_ca if server else config.tls_ca).save(config_dir())
    except OSError as error:
        print(f"(could not remember the settings: {error})", file=sys.stderr)
    if args.local:
        return Launch("local", name=name, style=style, home=data_dir(), config=config_dir(),
                      rounds=args.rounds or (), practice=args.practice, game=game, rules=tuple(args.rule or ()))
    if server is None:
        return Launch("browse", name=name, tls_ca=args.tls_ca, style=style, home=config_dir(), data=data_dir(),
                      interface=args.interface)
    return Launch("spectate" if args.spectate else "server", address=server, name=name, tls_ca=tls_ca,
                  table_id=args.spectate or "", style=style, home=config_dir())


def cmd_play(args: argparse.Namespace) -> int:
    """The terminal client: the local game, a server's lobby, or one table watched."""
    import os

    from tenpennies.client.tui.app import TenPenniesApp
    try:
        launch = play_launch(args, os.environ)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    app = TenPenniesApp(launch)
    app.run()
    if app.farewell:  # the terminal is the user's again: one line on what was kept
        try:
            print(app.farewell, flush=True)
        except OSError:
            pass  # the terminal was closed: nobody to tell
    return app.return_code or 0


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from tenpennies.client.local import Options, serve
    if bool(args.tls_cert) != bool(args.tls_key):
        print("--tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("--workers: at least 1", file=sys.stderr)
        return 2
    asyncio.run(serve(Options(args.host, args.port, args.db, args.tls_cert, args.tls_key, args.rate,
                              args.rate * 2, address_rate=args.address_rate, address_burst=args.address_rate * 2,
                              allow_seeds=args.allow_seeds,
                              waiting_table_ttl=args.waiting_table_ttl,
                              tables_per_address=args.tables_per_address, tournament=args.tournament,
                              name=args.name, advertise=not args.no_advertise, interface=args.interface,
                              tls=args.tls or bool(args.tls_cert),
                              workers=args.workers or 1, cluster=args.cluster,
                              cluster_address=args.cluster_address)))
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    try:
        from tenpennies.client import web  # aiohttp and textual-serve: only for this command
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] not in ("textual_serve", "aiohttp", "aiohttp_jinja2"):
            raise
        print("tenpennies web needs the web extra (textual-serve), which make play leaves out: make install-web "
              "(or pip install -e '.[web]')", file=sys.stderr)
        return 2
    return web.run(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tenpennies", description="Ten Pennies rummy")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser(
        "play", help="play in the terminal: a local game against bots, or a server's lobby",
        description="With no flag: the servers found on the LAN, the one played on last time, an address "
                    "or a local game, to choose from.")
    where = play.add_mutually_exclusive_group()
    where.add_argument("--local", action="store_true",
                       help="a private server on loopback in this process, 3 bots and you; quitting stops it")
    where.add_argument("--server", type=address, metavar="HOST:PORT", help="open the lobby of this server")
    play.add_argument("--spectate", metavar="TABLE", help="watch this table (of --server, or the remembered one)")
    play.add_argument("--game", metavar="GAME", type=game_name,
                      help=f"with --local: the game to play, {games_help()}")
    play.add_argument("--rule", action="append", metavar="NAME=VALUE",
                      help="with --local: a rule of the game, as `tenpennies bots --help` lists them; repeatable")
    play.add_argument("--name", type=player_name, help="your name at the tables (default: your login name)")
    play.add_argument("--tls-ca", metavar="FILE", help="PEM CA certificate, to reach a TLS server")
    play.add_argument("--ascii", action="store_true", help="cards as 7H TD JK, no suit symbols")
    play.add_argument("--four-colour", action="store_true",
                      help="four suit colours (clubs green, diamonds blue); NO_COLOR turns colour off")
    play.add_argument("--rounds", type=local_rounds, metavar="N|LIST",
                      help="--local: a short game of the first N rounds (or these rounds, as 1,4,7)")
    play.add_argument("--practice", action="store_true",
                      help="--local: a practice table (you and three bots, a hint shown at every meld you can make)")
    play.add_argument("--replay", metavar="GAME_ID",
                      help="open a finished game in the replay viewer: one of your local games, of --db FILE, or "
                           "of --server HOST:PORT")
    play.add_argument("--db", metavar="FILE", help="with --replay: the SQLite file the game is in (a server's)")
    play.add_argument("--history", action="store_true", help="your local games, newest first, each to replay")
    play.add_argument("--interface", metavar="NAME_OR_IP",
                      help="look for servers on this network interface only (eth0, or one of its IPv4 addresses)")
    play.set_defaults(run=cmd_play)
    bots = sub.add_parser("bots", help="a headless game between built-in bots, printed round by round")
    bots.add_argument("--seats", type=int, default=4)
    bots.add_argument("--seed", type=int, default=1)
    bots.add_argument("--game", type=game_name, default=DEFAULT_GAME, help=games_help())
    bots.add_argument("--bots", help="comma-separated bot kinds, repeated round the table (default: " + "; ".join(
        f"{played.takeover} in {played.title}" for played in GAMES.values()) + ")")
    add_rule_option(bots)
    bots.add_argument("-v", "--verbose", action="store_true",
                      help="tell every event as it happens, and the hands left at each round's end")
    bots.set_defaults(run=cmd_bots)
    serve = sub.add_parser("serve", help="run the game server")
    serve.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to serve the LAN")
    serve.add_argument("--port", type=int, default=50051)
    serve.add_argument("--db", default="tenpennies.db", help="the SQLite file that keeps every game")
    serve.add_argument("--tls", action="store_true",
                       help="serve TLS with a self-signed certificate made on the first start and kept beside "
                            "--db (in DB.tls/); players trust its fingerprint when they first connect")
    serve.add_argument("--tls-cert", help="PEM certificate chain, to serve TLS (instead of the self-signed one)")
    serve.add_argument("--tls-key", help="PEM private key of --tls-cert")
    serve.add_argument("--rate", type=float, default=1000.0, help="requests a second per connection")
    serve.add_argument("--address-rate", type=float, default=500.0, metavar="N",
                       help="requests a second per client address, all its connections together (lobby lists "
                            "cost more, by the tables in them); 0: no limit per address")
    serve.add_argument("--allow-seeds", action="store_true",
                       help="take client-chosen seeds (tests and tournaments only: a seed foretells every deal)")
    serve.add_argument("--waiting-table-ttl", type=float, default=3600.0, metavar="SECONDS",
                       help="close a waiting table nobody sits at or watches after this long (0: never)")
    serve.add_argument("--tables-per-address", type=int, default=20, metavar="N",
                       help="open tables (waiting or playing) one client address may hold at once")
    serve.add_argument("--tournament", metavar="CONFIG",
                       help="run the tournament this JSON or TOML file describes (bots register and play)")
    serve.add_argument("--name", help="the server's name on the LAN, as `tenpennies play` lists it "
                                      "(default: this machine's name)")
    serve.add_argument("--no-advertise", action="store_true",
                       help="do not announce the server on the LAN (mDNS); a loopback-only server never is")
    serve.add_argument("--interface", metavar="NAME_OR_IP",
                       help="announce on this network interface only (eth0, or one of its IPv4 addresses)")
    serve.add_argument("--workers", type=int, metavar="N",
                       help="processes that hold the tables, behind one address (default 1: a single process, "
                            "measured faster than a front and a worker per core on small machines). See "
                            "docs/SCALING.md")
    serve.add_argument("--cluster", metavar="NATS_URL",
                       help="join the servers of other machines that use this NATS server (nats://host:4222, with "
                            "JetStream): one lobby, every table reachable at every machine's address; this "
                            "machine's tables stay on its disk. See docs/SCALING.md")
    serve.add_argument("--cluster-address", metavar="HOST:PORT",
                       help="where the other machines reach this one (default: --host and --port, or, on every "
                            "interface, this machine's address on the way to the NATS server)")
    serve.set_defaults(run=cmd_serve)
    web = sub.add_parser("web", help="serve the terminal client to browsers (a client process per visitor)",
                         description="Each open page is a player of its own, who names themself on the first "
                                     "screen; a reloaded page is the same player.")
    web.add_argument("--server", type=address, required=True, metavar="HOST:PORT",
                     help="the game server the visitors play on, as this machine reaches it")
    web.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to serve the LAN (default: this machine only)")
    web.add_argument("--port", type=int, default=8000, help="the web port (0: any free one)")
    web.add_argument("--tls-ca", metavar="FILE", help="PEM CA certificate, to reach a TLS game server")
    web.add_argument("--fingerprint", type=fingerprint_argument, metavar="SHA256:...",
                     help="trust a TLS game server whose certificate has this fingerprint (the server prints it)")
    web.add_argument("--public-url", metavar="URL",
                     help="the URL browsers use, if not the address they ask for (behind a reverse proxy)")
    web.add_argument("--visitors", type=int, default=12, metavar="N", help="open pages (client processes) at once")
    web.set_defaults(run=cmd_web)
    for name, module, summary in (
            ("bot", bot, "play a seat (or a server's tournament) with a built-in strategy or your own script"),
            ("tournament", tournament, "a headless tournament between bots, on duplicate deals"),
            ("replay", replay, "print a stored game move by move with every hand revealed")):
        command = sub.add_parser(name, help=summary, description=summary)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as other tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python flushes stdout on the way out: let that go nowhere
        return 1


if __name__ == "__main__":
    sys.exit(main())

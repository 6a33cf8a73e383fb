"""The two tournaments are one model: the same bots, seed and rules played by the headless runner
in-process (``client.tournament.play_tournament``) and by the server's tournament mode (a real server on
loopback, a bot client per entry through the SDK's ``enter_tournament``) give the same standings: the
same order, games, wins, scores, pennies, buys, counts, and ratings within float noise."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tenpennies.client.bot import enter_tournament, load_bot
from tenpennies.client.connection import Connection
from tenpennies.client.tournament import TournamentConfig, play_tournament
from tenpennies.engine.ten_pennies import HouseRules
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb

# Bots that make no random choice (a server's bot plays all its games with one bot object, the headless
# runner makes one a game from a seed), named in sorted order (the server seats its group sorted, then
# rotates it game by game, as the headless runner rotates its one lineup).
BOTS = ("averaging", "early", "greedy", "holdout")
RULES = {"rounds": [1, 2], "max_turns": 40}
GAMES, SEED = 12, 20261201


async def server_standings(tmp_path: Path) -> pb.GetStandingsResponse:
    config = tmp_path / "cup.json"
    # no timers and no takeover: every decision is the bot's own, as in-process with no limit
    config.write_text(json.dumps({"name": "cup", "games": GAMES, "seats": 4, "rules": RULES, "seed": SEED,
                                  "decision_seconds": 0, "takeover_seconds": 0}))
    # (no budget per address: four bots at full speed from one address outrun it, and the standings do not
    # depend on it; the budgets are tested in test_server_hardening and test_fairness)
    server = Server(Options(port=0, db=str(tmp_path / "cup.db"), tournament=str(config), address_rate=0))
    await server.start()
    connections = [Connection(f"127.0.0.1:{server.port}") for _ in BOTS]
    try:
        await asyncio.wait_for(asyncio.gather(*(enter_tournament(connection, name, load_bot(name))
                                                for connection, name in zip(connections, BOTS, strict=True))), 300)
        standings = await connections[0].standings()
        assert standings is not None
        return standings
    finally:
        for connection in connections:
            await connection.close()
        await server.stop(0)


async def test_the_server_and_the_headless_runner_give_the_same_standings(tmp_path: Path) -> None:
    served = await server_standings(tmp_path)
    assert (served.games_played, served.games_total, served.games_playing) == (GAMES, GAMES, 0)
    assert list(served.tallies) == ["pennies", "buys"]  # Ten Pennies' own, in its order
    config = TournamentConfig(bots=BOTS, seats=4, games=GAMES, seed=SEED, rules=HouseRules.from_dict(RULES),
                              decision_seconds=0)
    headless = await asyncio.to_thread(play_tournament, config)
    assert len(headless.games) == GAMES  # whole deal blocks: nothing rounded up

    assert [s.name for s in served.standings] == [s.name for s in headless.standings]  # the same order
    for wire, local in zip(served.standings, headless.standings, strict=True):
        assert wire.games == local.games == GAMES
        assert wire.shared_wins == pytest.approx(local.wins)
        assert wire.mean_score == pytest.approx(local.mean_score)
        assert wire.mean_score_margin == pytest.approx(local.mean_score_margin)
        assert dict(wire.tallies) == local.tallies and set(local.tallies) == {"pennies", "buys"}
        assert wire.illegal == wire.timed_out == local.illegal == local.timeouts == 0
        assert wire.rating_mu == pytest.approx(local.rating_mu, abs=1e-9)
        assert wire.rating_sigma == pytest.approx(local.rating_sigma, abs=1e-9)
    assert sum(s.shared_wins for s in served.standings) == pytest.approx(GAMES)  # a win shared is shared
    assert any(s.shared_wins % 1 for s in served.standings)  # some games were tied: shared wins compared
    assert len({s.rating_mu for s in served.standings}) > 1  # the games told the bots apart

"""Thirty-One as a game behind the interface: the rule book cited by the tests, the registry entry, rules as
plain data and settings, the command notation, the narrator, the bots, the timer's default, and the
headless ``tenpennies bots --game thirty_one``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tenpennies.client import cli
from tenpennies.client.tournament import TournamentConfig, play_tournament
from tenpennies.engine import games
from tenpennies.engine.interface import Bot, Result
from tenpennies.engine.play import RandomBot, play_duplicate_deal, play_game
from tenpennies.engine.seats import play_decision
from tenpennies.engine.thirty_one import events as ev
from tenpennies.engine.thirty_one.bots import HeuristicBot, SearchBot, safe_default
from tenpennies.engine.thirty_one.commands import Knock, format_command, parse_command
from tenpennies.engine.thirty_one.fold import fold
from tenpennies.engine.thirty_one.game import Game
from tenpennies.engine.thirty_one.kind import THIRTY_ONE
from tenpennies.engine.thirty_one.narrate import Narrator
from tenpennies.engine.thirty_one.rules import KNOBS, PRESET_NAMES, PRESETS, RuleError, Rules, knob_named, knobs_table

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "docs" / "THIRTY-ONE.md"


def test_the_kind_is_registered_and_makes_loads_and_plays_games() -> None:
    kind = games.kind("thirty_one")
    assert kind is THIRTY_ONE and kind.takeover in kind.bots and set(kind.bots) == {"random", "heuristic", "searcher"}
    rules = kind.rules_from_dict({"preset": "cut_throat"})
    game = kind.new(4, rules, 7)
    known = kind.opening(1, 4, rules)
    for event in game.opening_events:
        if event.visible_to(1):
            known = kind.fold(known, event)
    assert kind.knowing(game.view(1)).view.hand == known.view.hand == game.view(1).hand
    play_decision(game, lambda seat, view: kind.bots["heuristic"](0).choose(view))
    loaded = kind.load(game.to_dict())
    assert loaded.state() == game.state() and loaded.opening_events == []
    assert kind.rules_to_dict(rules) == rules.to_dict()
    with pytest.raises(RuleError, match="T31-1.1"):
        kind.validate(rules, 8)
    assert kind.narrator(rules, str).line(ev.Knocked(2)) == "2 knocked"


def test_a_preset_fills_the_knobs_and_a_knob_given_beside_it_wins() -> None:
    assert Rules() == Rules.of("classic") == Rules.from_dict({})
    cut = Rules.from_dict({"preset": "cut_throat"})
    assert (cut.lives, cut.free_ride, cut.knocker_tie) == (3, False, "two")
    assert Rules.from_dict({"preset": "cut_throat", "lives": 5}).lives == 5
    assert Rules.from_settings(["preset=stop_the_bus", "free-ride=off"]) == Rules.of("stop_the_bus", free_ride=False)
    assert Rules.of("no_elimination").blitz_after_knock and Rules.of("no_elimination").three_of_a_kind == "off"
    assert Rules.of("banking").deals == 20 and Rules.of("banking").deals_for(4) == 20
    assert Rules.of("no_elimination").deals_for(4) == 8
    for preset in PRESET_NAMES:
        rules = Rules.of(preset)
        assert Rules.from_dict(rules.to_dict()) == rules
        assert all(getattr(rules, name) == value for name, value in PRESETS[preset].items())
    assert [k.name for k in KNOBS][0] == "preset" and all(k.label and k.help for k in KNOBS)
    assert all(re.fullmatch(r"T31(-\d\.\d)?", k.rule) for k in KNOBS)


def test_a_bad_setting_is_refused_citing_its_rule() -> None:
    with pytest.raises(RuleError, match="T31: no such rule setting in Thirty-One: jokers") as refused:
        Rules.from_dict({"jokers": True})
    assert all(k.name in str(refused.value) for k in KNOBS)
    with pytest.raises(RuleError, match="T31: no preset 'bus'"):
        Rules.of("bus")
    with pytest.raises(RuleError, match="T31-7.1: lives takes a whole number from 1 to 99, not 0"):
        Rules.from_settings(["lives=0"])
    with pytest.raises(RuleError, match="T31-6.3: knocker_tie takes one or two"):
        Rules.from_settings(["knocker_tie=three"])
    with pytest.raises(RuleError, match="T31-7.2"):
        Rules.of("classic", free_ride="yes").validate(3)
    with pytest.raises(RuleError, match="T31-1.1"):
        Game(8)
    assert knob_named("deals").rule == "T31-8.1"


def played_logs() -> list[tuple[Game, list[ev.Event]]]:
    """One game of each preset between random and heuristic bots, with all its events."""
    out = []
    for i, preset in enumerate(PRESET_NAMES):
        game = Game(3 + i % 3, Rules.of(preset, lives=2, tokens=4, deals=4), seed=40 + i)
        events: list[ev.Event] = list(game.opening_events)
        bots = [RandomBot(s) if s % 2 else HeuristicBot() for s in range(game.n)]
        play_game(game, bots, on_events=events.extend)
        out.append((game, events))
    return out


def test_the_notation_reads_back_every_command() -> None:
    for game, _ in played_logs():
        for command in game.log:
            assert parse_command(format_command(command)) == command
    for nonsense in ("", "draw", "x draw", "1 fly", "1 draw now", "1 discard", "1 widow 2C", "1 keep x",
                     "1 exchange 2C 1", "1 renew 0 sideways", "1 table 2C"):
        with pytest.raises(ValueError):
            parse_command(nonsense)


def test_the_narrator_tells_every_event_of_every_preset() -> None:
    told: set[type] = set()
    for game, events in played_logs():
        for seat in (None, 0, 1):
            narrator = Narrator(game.rules, lambda s: f"P{s}", seat=seat)
            for event in events:
                if event.visible_to(seat):
                    lines = narrator.telling(event, "> ")
                    assert all(isinstance(line, str) and line for line in lines)
                    if lines:
                        told.add(type(event))
    expected = {ev.GameStarted, ev.DealStarted, ev.CardsReceived, ev.UpcardTurned, ev.WidowDealt, ev.MiddleDealt,
                ev.HandKept, ev.TableCardsTurned, ev.StockDrawn, ev.DiscardTaken, ev.Discarded, ev.Knocked,
                ev.Stood, ev.WidowExchanged, ev.MiddleExchanged, ev.HandSwapped, ev.HandRenewed, ev.TableSwapped,
                ev.DealEnded, ev.GameEnded}
    assert expected <= told, expected - told
    end = ev.DealEnded(3, "knock", 0, None, ((), ()), (0, 0), (0, 0), (2, 0), (0, 0), (0, 0), (0, 0), (0,), (), 0)
    assert Narrator(Rules(), lambda s: f"P{s}").line(end) == "Deal 3 over: P0 knocked, the hands are shown; " \
                                                              "P0 lost 2 lives; P0 is out"


def test_the_safe_default_is_legal_and_never_knocks_where_anything_else_is() -> None:
    for preset in PRESET_NAMES:
        game = Game(4, Rules.of(preset, lives=1, deals=2), seed=3)
        bots = [RandomBot(s) for s in range(4)]
        while not game.over:
            (seat,) = game.to_act()
            view = game.view(seat)
            (default,) = THIRTY_ONE.timed_out(game, seat)
            assert default == safe_default(view) and default in view.legal
            assert not isinstance(default, Knock) or view.legal == (default,)
            assert THIRTY_ONE.timer_audience(game, default) is None
            game.apply(bots[seat].choose(view))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_bot_plays_every_preset_to_the_end(preset: str) -> None:
    rules = Rules.of(preset, lives=1, free_ride=False, tokens=3, deals=2)
    bots: list[Bot] = [RandomBot(1), HeuristicBot(), SearchBot(2, samples=2, max_steps=40)]
    game = play_game(Game(3, rules, seed=5), bots)
    result = game.result
    assert isinstance(result, Result) and game.over and result.winners
    assert set(result.tallies) == {"place", "lives", "tokens", "points"}


def test_the_searcher_sees_only_its_seats_view() -> None:
    """Its worlds are made from the view: the real stock's order and the other hands do not change its choice."""
    game = Game(3, Rules(), seed=12)
    seat = game.to_act()[0]
    view = game.view(seat)
    other = game.copy()
    other.stock.reverse()
    hands = [p.hand for s, p in enumerate(other.players) if s != seat]
    hands[0][:], hands[1][:] = hands[1][:], hands[0][:]
    assert other.view(seat) == view
    assert SearchBot(4, samples=3).choose(view) == SearchBot(4, samples=3).choose(other.view(seat))


def test_the_heuristic_beats_random_on_duplicate_deals() -> None:
    heuristic = random_bot = 0.0
    for deal in range(4):
        h, r = play_duplicate_deal(THIRTY_ONE, lambda seed: HeuristicBot(), RandomBot, Rules(), seed=100, deal=deal)
        heuristic, random_bot = heuristic + h, random_bot + r
    assert heuristic < random_bot  # mean places: lower is better


def test_bots_plays_thirty_one_headless(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bots", "--game", "thirty_one", "--seats", "3", "--seed", "2", "--rule", "preset=cut_throat",
                     "--bots", "heuristic,random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Thirty-One: 3 seats, preset cut throat, seed 2") and "deal 1:" in out
    assert out.count("winner") >= 1 and "lives" in out
    assert cli.main(["bots", "--game", "thirty_one", "--seats", "2", "--rule", "preset=banking", "--rule", "deals=2",
                     "-v"]) == 0
    out = capsys.readouterr().out
    assert "The widow: 3 cards face down" in out and "tokens" in out
    assert cli.main(["bots", "--game", "thirty_one", "--seats", "9"]) == 2
    assert "T31-1.1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bots", "--game", "thirty_one", "--rule", "lives=none"])
    assert "T31-7.1: lives takes" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bots", "--game", "chess"])
    assert "no game 'chess' here (there are ten_pennies, thirty_one)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bots", "--game", "thirty-one"])
    assert "no game 'thirty-one' here (there are ten_pennies, thirty_one)" in capsys.readouterr().err
    assert cli.main(["bots", "--game", "thirty_one", "--rule", "tokens=5"]) == 2  # classic keeps lives, not tokens
    assert "T31-7.4: tokens applies to the banking preset only (the preset is classic)" in capsys.readouterr().err


def test_fold_refuses_another_games_event() -> None:
    with pytest.raises(TypeError):
        fold(THIRTY_ONE.opening(0, 2, Rules()), object())  # type: ignore[arg-type]


def test_the_readme_lists_every_knob_and_preset_as_declared() -> None:
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- thirty-one knobs: .*? -->\n(.*?)<!-- end of thirty-one knobs -->", readme, re.S)
    assert found is not None and found.group(1) == knobs_table()


def test_a_headless_tournament_of_thirty_one_ranks_by_place_and_adds_up_the_presets_tally(
        capsys: pytest.CaptureFixture[str]) -> None:
    config = TournamentConfig(bots=("heuristic", "random"), seats=2, games=6, seed=3, game="thirty_one",
                              rules=Rules.of("cut_throat"))
    results = play_tournament(config)
    assert [s.name for s in results.standings] == ["heuristic", "random"]
    for game in results.games:
        assert sorted(game.scores)[0] == 1 and set(game.tallies) == {"lives"}
        assert game.winners == tuple(s for s in range(2) if game.scores[s] == 1)
    best = results.standings[0]
    assert best.mean_score is not None and best.mean_score < 1.5
    assert best.per_game("lives") == pytest.approx(
        sum(g.tallies["lives"][g.seats.index("heuristic")] for g in results.games) / len(results.games))
    assert json.loads(results.to_json())["games"][0]["tallies"]["lives"] == list(results.games[0].tallies["lives"])
    assert play_tournament(config).to_json() == results.to_json()
    assert cli.main(["tournament", "--game", "thirty_one", "--bots", "heuristic,random", "--seats", "2",
                     "--games", "2", "--rule", "preset=no_elimination", "--rule", "deals=2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Thirty-One tournament: heuristic, random") and "points: a game's" in out
    # over gRPC too now (tests/test_tournament_thirty_one.py): a flag's mistake is still refused before any
    # server is asked
    assert cli.main(["tournament", "--game", "thirty_one", "--bots", "heuristic,random", "--seats", "3",
                     "--server", "localhost:1"]) == 2
    assert "3 seats need at least 3 bots" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["tournament", "--game", "thirty-one", "--bots", "heuristic,random", "--seats", "2"])
    assert "no game 'thirty-one' here (there are ten_pennies, thirty_one)" in capsys.readouterr().err


def test_a_sampled_world_shows_its_seat_exactly_its_view() -> None:
    """``Game.sampled``: the searcher's worlds agree with everything the seat sees, every card in one place."""
    rng = random.Random(5)
    for preset in PRESET_NAMES:
        game = Game(4, Rules.of(preset), seed=17)
        for _ in range(40):
            if game.over:
                break
            (seat,) = game.to_act()
            view = game.view(seat)
            for tries in (1, 4):
                world = Game.sampled(view, rng, tries)
                assert world.view(seat) == view
                places = [c for p in world.players for c in p.hand] + world.stock + world.pile + world.widow + \
                    world.spare + [c for m in world.middle for c in m.cards] + world.table_cards + world.out_of_play
                assert sorted(c.id for c in places) == list(range(52))
            game.apply(rng.choice(view.legal))

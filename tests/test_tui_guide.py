"""The first-game guides (client/tui/guide.py: Ten Pennies'; client/tui/thirty_one.py: Thirty-One's, for the
table's preset): each word of the game's own that the table shows (a contract, wild, down, the stock, live, a
buy, pennies, the pot, laying off; a knock, lives, the free ride, standing, a blitz) is said what it means where
the guide first uses it; and the first local game of each game opens that game's guide, once, remembered a game
at a time, and its help's G opens it again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tenpennies.client.connection import Connection
from tenpennies.client.settings import TablePrefs
from tenpennies.client.tui.guide import GuideScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies.guide import PAGES
from tenpennies.client.tui.thirty_one import ThirtyOneHelp, ThirtyOneTable, guide_pages
from tenpennies.engine.thirty_one.rules import PRESET_NAMES, Rules
from tenpennies.wire import thirty_one as t31_wire
from tenpennies.wire.games import THIRTY_ONE

from tuikit import TableApp, screen_of, text_of, until

SIZE = (80, 24)

# each word (a pattern, as a page may write it) and what the page that first uses it must say of it
TEN_PENNIES_WORDS = (
    (r"contract", "the sets you must lay down, all at once"),
    (r"wild", "stand in for any rank"),
    (r"\bdown\b", "Laying your contract is going down"),
    (r"gone out|go out", "a player whose hand is empty has gone out"),
    (r"\bpot\b", "pays a penny a card into the pot"),
    (r"\blive\b", "live until the next player's pick-up"),
    (r"\bstock\b", "the face-down pile"),
    (r"reshuffles", "the discard pile is shuffled into a new one"),
    (r"\bbuy", "A buy takes the card out of turn"),
    (r"buy pennies|Pennies", "10 for the whole game"),
    (r"penalty cards", "brings 2 penalty cards from the stock"),
    (r"\bdead\b", "A card nobody buys is dead"),
    (r"lay off|lay-off", "add a card to a set already on the table"),
    (r"auto-pass", "passes offers of cards that fit nothing in your hand"),
)
THIRTY_ONE_WORDS = (
    (r"worth", "the total of its cards of one suit"),
    (r"\blives?\b", "loses a life"),
    (r"free ride", "your next loss puts you out"),
    (r"tokens", "puts one into the centre before each deal"),
    (r"\bpoints\b", "the highest hand scores 3"),
    (r"showdown", "every hand is shown, the showdown"),
    (r"\bstock\b", "the face-down pile"),
    (r"widow", "three cards dealt face down in the middle"),
    (r"middle hands", "the other lies face up in the middle, by a third hand face down"),
    (r"table cards", "three cards lie face up in the middle"),
    (r"\bknock", "when you think your hand beats the others'"),
    (r"last turn", "Every other player then has one last turn"),
    (r"\bstand\b", "keep their hand and pass"),
    (r"blitz", "A hand worth exactly 31 is a blitz"),
    (r"prial", "a prial (three of a kind)"),
)


def unexplained(pages: tuple[tuple[str, str], ...], words: tuple[tuple[str, str], ...]) -> list[str]:
    """The words whose first use in the guide (page by page, titles too) is not on a page that says what they
    mean; a word the guide never uses is none of them."""
    missing = []
    for word, meaning in words:
        first = next((f"{title}\n{text}" for title, text in pages
                      if re.search(word, f"{title}\n{text}", re.IGNORECASE)), None)
        if first is not None and meaning not in first:
            missing.append(word)
    return missing


def test_each_word_of_ten_pennies_is_said_what_it_means_where_the_guide_first_uses_it() -> None:
    assert unexplained(PAGES, TEN_PENNIES_WORDS) == []
    text = "\n".join(t for _, t in PAGES)
    assert all(re.search(word, text, re.IGNORECASE) for word, _ in TEN_PENNIES_WORDS)  # each is used


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_each_word_of_thirty_one_is_said_what_it_means_where_the_guide_first_uses_it(preset: str) -> None:
    rules = Rules.of(preset)
    pages = guide_pages(rules)
    assert unexplained(pages, THIRTY_ONE_WORDS) == []
    text = "\n".join(t for _, t in pages)
    used = {word for word, _ in THIRTY_ONE_WORDS if re.search(word, text, re.IGNORECASE)}
    assert {r"\bknock", r"showdown", r"\bstand\b", r"last turn", r"worth" if not rules.brag else r"prial"} <= used
    assert (r"\blives?\b" in used) == (rules.scoring == "lives") and (r"blitz" in used) == rules.blitz
    assert (r"free ride" in used) == (rules.scoring == "lives" and rules.free_ride)
    assert (r"widow" in used) == (preset == "banking") and (r"table cards" in used) == (preset == "stop_the_bus")


async def test_a_first_thirty_one_game_opens_its_own_guide_once_though_ten_pennies_guide_was_seen(
        connection: Connection, tmp_path: Path) -> None:
    """A player who has seen Ten Pennies' guide sits at a first game of Thirty-One (a local game, where the
    guide opens): Thirty-One's guide opens over it, its words its own; closed, it is remembered for Thirty-One
    only, and the table's help then offers it again (G)."""
    TablePrefs(guide_seen=True).save(tmp_path)
    hosted = await connection.create_table("31", 2, t31_wire.rules_to_pb(Rules()), seed=3, decision_seconds=0,
                                           takeover_seconds=0, game=THIRTY_ONE)
    me = await connection.join(hosted.table_id, "Me")
    await connection.add_bot(hosted.table_id, hosted.host_token, "heuristic")
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs.load(tmp_path), home=tmp_path, guide=True))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GuideScreen) and app.screen.query("#guide-title"),
                    "Thirty-One's guide over the first game")
        guide = app.screen
        assert isinstance(guide, GuideScreen) and isinstance(screen_of(app).game, ThirtyOneTable)
        assert text_of(guide, "#guide-title").startswith("Thirty-One · The game (1/4)")
        assert "Each player has 4 lives" in text_of(guide, "#guide-text")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen_of(app), "the table")
        prefs = TablePrefs.load(tmp_path)
        assert prefs.seen_guide(THIRTY_ONE) and prefs.guide_seen and prefs.guides_seen == [THIRTY_ONE]
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, ThirtyOneHelp), "the help")
        await pilot.press("G")
        await until(pilot, lambda: isinstance(app.screen, GuideScreen) and app.screen.query("#guide-title"),
                    "the guide again, from help")
        assert text_of(app.screen, "#guide-title").startswith("Thirty-One")


def test_the_guides_seen_are_remembered_a_game_at_a_time(tmp_path: Path) -> None:
    prefs = TablePrefs()
    assert not prefs.seen_guide("ten_pennies") and not prefs.seen_guide(THIRTY_ONE)
    prefs.saw_guide(THIRTY_ONE)
    prefs.save(tmp_path)
    again = TablePrefs.load(tmp_path)
    assert again.seen_guide(THIRTY_ONE) and not again.seen_guide("ten_pennies") and not again.guide_seen
    again.saw_guide("")  # (a table that names no game plays Ten Pennies)
    assert again.guide_seen and again.seen_guide("ten_pennies")

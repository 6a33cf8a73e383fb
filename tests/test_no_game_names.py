"""A game is named only in its own packages and the registries: every other module of every layer (the engine's,
the wire's, the server's, the client's) knows the games through a registry and the game's ``Kind``, so a new game
is its packages and one line in each registry. (The import side of the same rule is a contract of
``lint-imports``, pyproject.toml; this test reads the text: a name in a string or an identifier counts too.)"""

from __future__ import annotations

import re
from pathlib import Path

from tenpennies.engine.games import GAMES

ROOT = Path(__file__).resolve().parent.parent

LAYERS = {"engine": ROOT / "engine", "wire": ROOT / "protos" / "wire", "server": ROOT / "server",
          "client": ROOT / "client"}
REGISTRIES = {"engine/games.py", "wire/games.py", "client/games.py", "client/game_entry.py", "client/tui/games.py"}
"""The modules that list the games (client/game_entry.py: the type of a client registry entry, which names the
default game's facts nowhere but says what an entry holds)."""
EXAMPLES = {"client/examples"}  # a bot for one game, as a bot author writes it


def spellings(name: str) -> list[str]:
    """A game's name as code writes it: ``thirty_one``, ``THIRTY_ONE``, ``ThirtyOne``."""
    camel = "".join(part.title() for part in name.split("_"))
    return [name, name.upper(), camel]


GAME_NAMES = re.compile("|".join(re.escape(s) for game in GAMES for s in spellings(game)))
PRODUCT = re.compile(r"TenPennies(?=Service|Servicer|App\b)")
"""The product's own names (its gRPC service, its app), which are the first game's: not a game named."""


def neutral_modules() -> list[tuple[str, Path]]:
    found = []
    for layer, folder in LAYERS.items():
        for path in sorted(folder.rglob("*.py")):
            where = f"{layer}/{path.relative_to(folder).as_posix()}"
            own_package = any(part in GAMES for part in path.relative_to(folder).parts[:-1]) or path.stem in GAMES
            if where in REGISTRIES or own_package or any(where.startswith(e) for e in EXAMPLES):
                continue
            found.append((where, path))
    return found


def test_no_module_outside_the_registries_and_a_games_packages_names_a_game() -> None:
    named = [f"{where}:{number}: {line.strip()}" for where, path in neutral_modules()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if GAME_NAMES.search(PRODUCT.sub("", line))]
    assert not named, "\n".join(named)


def test_the_rule_sees_a_name_where_there_is_one() -> None:
    assert len(neutral_modules()) > 50  # every layer's modules are read
    for registry in REGISTRIES - {"client/game_entry.py"}:
        layer, _, rest = registry.partition("/")
        assert GAME_NAMES.search((LAYERS[layer] / rest).read_text()), registry

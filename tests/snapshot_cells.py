"""Compare snapshot pictures cell by cell with their committed versions: for each changed SVG, each cell's
background colour and character (and the character's style, unless it is a space) before and after. Run it
after ``pytest --snapshot-update`` when a change should move no pixel (a widget split, a row built another
way): SVGs whose text is split into other segments but whose cells are the same report 0.

    python tests/snapshot_cells.py $(git diff --name-only -- '*.svg')
"""

from __future__ import annotations

import html
import re
import subprocess
import sys

CELL_WIDTH, LINE_HEIGHT = 12.2, 24.4  # Textual's SVG export: a cell's width and a line's height
Cells = tuple[dict[tuple[int, int], str], dict[tuple[int, int], tuple[str, str | None]]]


def cells(svg: str) -> Cells:
    """Each cell's background, and each cell's character with its style (None for a space)."""
    styles = dict(re.findall(r"\.(terminal-r\d+) \{ ([^}]*) \}", svg))
    body = svg[svg.index('clip-path="url(#terminal-clip-terminal)"'):]
    background: dict[tuple[int, int], str] = {}
    for fill, x, y, width in re.findall(r'<rect fill="([^"]+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', body):
        row, first = round((float(y) - 1.5) / LINE_HEIGHT), round(float(x) / CELL_WIDTH)
        for column in range(first, first + round(float(width) / CELL_WIDTH)):
            background[row, column] = fill
    text: dict[tuple[int, int], tuple[str, str | None]] = {}
    for name, x, y, run in re.findall(r'<text class="([^"]+)" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', body, re.S):
        row, first = round((float(y) - 20) / LINE_HEIGHT), round((float(x) - CELL_WIDTH) / CELL_WIDTH) + 1
        for offset, character in enumerate(html.unescape(run).replace("\xa0", " ")):
            text[row, first + offset] = (character, None if character == " " else styles.get(name, name))
    return background, text


def differing(old: str, new: str) -> list[tuple[int, int]]:
    (old_back, old_text), (new_back, new_text) = cells(old), cells(new)
    blank = (" ", None)
    return sorted({k for k in old_back.keys() | new_back.keys() if old_back.get(k) != new_back.get(k)}
                  | {k for k in old_text.keys() | new_text.keys() if old_text.get(k, blank) != new_text.get(k, blank)})


def main(paths: list[str]) -> int:
    changed = 0
    for path in paths:
        old = subprocess.run(["git", "show", f"HEAD:{path}"], capture_output=True, text=True, check=True).stdout
        with open(path, encoding="utf-8") as file:
            cells_differing = differing(old, file.read())
        print(f"{path}: {len(cells_differing)} cells differ {cells_differing[:5]}")
        changed += bool(cells_differing)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The rule books in the game (client/rulebook.py): a rule's text by its number, read from the source tree's
docs/ and, in an installed package, from the rule books it ships as package data (pyproject.toml): a wheel is
built from a copy of the source tree, unpacked away from it, and a Python that sees only that install reads
the rules of both games."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tenpennies.client.rulebook import cited, rule_text

ROOT = Path(__file__).parent.parent
# what a wheel is built from (the rest of the tree, the tests and the benches, is not in it)
SOURCES = ("pyproject.toml", "README.md", "client", "engine", "server", "protos", "docs")


def test_a_rule_is_read_by_its_number_from_the_source_trees_books() -> None:
    assert cited("TP-4.9: a set may not hold two naturals of one rank and suit") == "TP-4.9"
    nine = rule_text("TP-4.9")
    assert nine is not None and nine.startswith("A set may not hold two naturals of the same rank and suit")
    knock = rule_text("T31-6.1")
    assert knock is not None and "every other seat in the game" in knock
    assert rule_text("TP-99.1") is None


def test_an_installed_package_reads_the_rule_books_it_ships(tmp_path: Path) -> None:
    source = tmp_path / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                            "print(build_meta.build_wheel(sys.argv[1]))", str(tmp_path / "dist")],
                           cwd=source, capture_output=True, text=True, timeout=240)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = tmp_path / "dist" / built.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as unpacked:
        names = unpacked.namelist()
        assert {"tenpennies/rulebooks/RULES.md", "tenpennies/rulebooks/THIRTY-ONE.md"} <= set(names), \
            [n for n in names if not n.endswith(".py")]
        unpacked.extractall(tmp_path / "site")  # installed, as pip lays a wheel out
    shutil.rmtree(source)  # (nothing of the source tree is left to read from)
    # -S: no site-packages (neither this venv's editable install of the source tree nor anything else); the
    # rule book reader needs nothing but the standard library
    read = subprocess.run(
        [sys.executable, "-S", "-c", "from tenpennies.client import rulebook as r; "
         "print(r.__file__); print(r.rule_text('TP-4.9')); print(r.rule_text('T31-6.1'))"],
        cwd=tmp_path, env={"PYTHONPATH": str(tmp_path / "site")}, capture_output=True, text=True, timeout=60)
    assert read.returncode == 0, read.stderr
    where, tp, t31 = read.stdout.splitlines()
    assert where.startswith(str(tmp_path / "site"))
    assert tp == rule_text("TP-4.9") and t31 == rule_text("T31-6.1") and tp != "None" != t31

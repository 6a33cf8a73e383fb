"""What the benches share: `tenpennies serve` in a process of its own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def start_server(db: Path, *options: str) -> tuple[subprocess.Popen[str], int]:
    """``tenpennies serve`` on a free loopback port with the SQLite file ``db``; returns it and its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tenpennies.client.cli", "serve", "--port", "0", "--db", str(db),
         *([] if "--workers" in options else ["--workers", "1"]), *options],  # one process: its pid is the server
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"listening on [\d.]+:(\d+)", line)
    if not match:
        process.kill()
        raise RuntimeError(f"the server did not start: {line}")
    return process, int(match.group(1))


# Runs `tenpennies serve` with the package tenpennies.server taken from another tree (an A/B in one session)
SERVER_TREE = "TENPENNIES_SERVER_TREE"
LAUNCHER = f"""
import importlib.util, os, runpy, sys
import tenpennies
tree = os.environ[{SERVER_TREE!r}]
spec = importlib.util.spec_from_file_location("tenpennies.server", os.path.join(tree, "__init__.py"),
                                              submodule_search_locations=[tree])
module = importlib.util.module_from_spec(spec)
sys.modules["tenpennies.server"] = module
spec.loader.exec_module(module)
runpy.run_module("tenpennies.client.cli", run_name="__main__")
"""

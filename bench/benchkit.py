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

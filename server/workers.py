"""A worker of ``tenpennies serve --workers N``: an ordinary server (``app.Server``) holding some of the tables,
on a unix socket only the front reaches, with a SQLite file of its own.

Worker 0 keeps its games in the server's own file (``--db``), worker k in ``<db>.worker<k>``: a store made by a
single-process server is worker 0's as it is, and a worker's tables stay its own across restarts (its file is
its identity, not its process). The front starts each worker as ``python -m tenpennies.server.workers OPTIONS``
(the options as JSON) and starts it again whenever it exits.

A worker dies with the front (Linux: ``PR_SET_PDEATHSIG``; elsewhere it stops when its stdin closes): a front
killed with SIGKILL leaves no worker behind to write to a store the next front's worker opens.
"""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import json
import os
import signal
import sys
import threading
from pathlib import Path

from . import store
from .app import Options, serve
from .store import NoSuchGame, StoredGame

PR_SET_PDEATHSIG = 1


def worker_db(db: str, index: int) -> str:
    """The SQLite file of worker ``index`` of a server whose games are in ``db``."""
    return db if index == 0 else f"{db}.worker{index}"


def known_workers(db: str) -> int:
    """How many workers the stores beside ``db`` were made by (at least 1): a server started with fewer
    starts that many, so that no table is left unserved."""
    path = Path(db)
    indexes = [int(suffix) for p in path.parent.glob(f"{path.name}.worker*")
               if (suffix := p.name.removeprefix(f"{path.name}.worker")).isdigit()]
    return max(indexes, default=0) + 1


def read_game(db: str | Path, game_id: str) -> StoredGame:
    """A stored game (``store.read_game``) from the server's file or, for a server of several workers, from the
    file of the worker that held it."""
    try:
        return store.read_game(db, game_id)
    except NoSuchGame as missing:
        for index in range(1, known_workers(str(db))):
            try:
                return store.read_game(worker_db(str(db), index), game_id)
            except NoSuchGame:
                continue
        raise missing


def worker_options(options: Options, index: int, socket: str, tls: tuple[str, str] | None,
                   budgets: str | None = None) -> Options:
    """What worker ``index`` runs with: the server's limits and rules, its own store; the front's requests on
    ``socket``, and clients that come straight to its tables on a port of its own at the server's host, with
    the server's certificate (``tls``: its PEM files, cert and key); the clients' budgets in the front's file
    ``budgets`` (one budget per address, wherever it asks); no LAN record (the front's covers every worker)."""
    cert, key = tls or (None, None)
    return dataclasses.replace(options, db=worker_db(options.db, index), workers=1, bind=f"unix:{socket}",
                               direct=True, behind_front=True, port=worker_port(options.port, index), tls=False,
                               tls_cert=cert, tls_key=key, advertise=False, name=None, interface=None,
                               tournament=None, cluster=None, cluster_address=None, budgets=budgets)


def worker_port(port: int, index: int) -> int:
    """Worker ``index``'s own port: the ones after the server's (50052, 50053... for 50051: a firewall opens
    the range), or any free one when the server's is chosen by the system (``--port 0``)."""
    return port + 1 + index if port else 0


def command(options: Options) -> list[str]:
    """The command line that runs a worker with ``options``."""
    return [sys.executable, "-m", "tenpennies.server.workers", json.dumps(dataclasses.asdict(options))]


def _die_with_front(front: int) -> None:
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != front:  # the front died before the line above
            os._exit(1)
        return

    def wait_for_eof() -> None:
        while sys.stdin.buffer.read(4096):
            pass
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=wait_for_eof, daemon=True).start()


def main(argv: list[str]) -> None:
    _die_with_front(int(os.environ.get("TENPENNIES_FRONT", os.getppid())))
    asyncio.run(serve(Options(**json.loads(argv[1]))))


if __name__ == "__main__":
    main(sys.argv)

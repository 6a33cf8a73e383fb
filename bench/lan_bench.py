"""Across a LAN of separate hosts (network namespaces joined by a bridge, ``tests/netns.py``; needs root or
unprivileged user namespaces), each figure beside a baseline measured in the same run:

- reconnect-to-resumed: a seat followed as the terminal client follows it (its channel, with keepalive;
  ``SeatSession.follow``) in host b, at a table the server's timer and bot keep moving in host a; b's link
  is cut for 10 s, then restored: the time from the link's return to the seat's stream resumed (a fresh
  snapshot), and how long the client took to notice the cut. Baseline: a fresh connection's time to the
  seat's first snapshot.
- found on the LAN: the time from starting ``tenpennies serve`` in host a to a client browsing in host c
  finding it (mDNS). Baseline: the time from the same start to the server saying it listens.

    python bench/lan_bench.py              # 3 cuts, 3 server starts
    python bench/lan_bench.py --cuts 1 --starts 1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from netns import BIN, Job, Lan, unavailable  # noqa: E402

PORT = 50051
CUT = 10.0


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def since(moment: float, up: bool | None = None) -> Callable[[dict[str, Any]], bool]:
    """A record printed after ``moment`` (a link record: up or down, as ``up`` says)."""
    return lambda record: record["t"] > moment and (up is None or record["up"] == up)


def serve(lan: Lan, db: Path, *extra: str) -> Job:
    return lan.spawn("a", [str(BIN / "tenpennies"), "serve", "--host", lan.address("a"), "--port", str(PORT),
                           "--db", str(db), *extra], name="server")


def reconnects(cuts: int, work: Path) -> None:
    with Lan(3) as lan:
        server = serve(lan, work / "cuts.db", "--no-advertise")
        server.expect(lambda line: "listening on" in line, "the server listening", 20)
        follower = lan.python("b", "lan_ctl.py", "--server", f"{lan.address('a')}:{PORT}", "follow", "--fresh", "20",
                              name="b:follow")
        fresh = follower.record("fresh", 60)["seconds"]
        follower.record("snapshot", 30)
        noticed, resumed = [], []
        for _ in range(cuts):
            lan.cut("b")
            cut_at = time.time()
            down = follower.find("link", since(cut_at, up=False), CUT + 5)
            follower.read_until(cut_at + CUT)  # the cut itself: 10 s by the clock
            lan.restore("b")
            restored = time.time()
            snapshot = follower.find("snapshot", since(restored), 60)
            follower.find("link", since(restored, up=True), 30)  # up again
            noticed.append(down["t"] - cut_at)
            resumed.append(snapshot["t"] - restored)
        print(f"fresh connection to a seat's first snapshot (baseline): median {median_ms(fresh)} of {len(fresh)}")
        print(f"link cut for {CUT:.0f} s, {cuts} times: noticed after median {statistics.median(noticed):.1f} s "
              f"(keepalive: a ping after 3 s of silence, 2 s to answer); reconnect-to-resumed after the link returned "
              f"median {median_ms(resumed)} (max {max(resumed) * 1000:.0f} ms), "
              f"{statistics.median(resumed) / statistics.median(fresh):.0f}x a fresh connection")


def discovery(starts: int, work: Path) -> None:
    found, listening = [], []
    with Lan(3) as lan:
        for n in range(starts):
            browser = lan.python("c", "lan_ctl.py", "browse", "--name", f"Bench {n}", "--timeout", "30",
                                 name="c:browse")
            browser.record("browsing", 30)
            began = time.time()
            server = serve(lan, work / f"found-{n}.db", "--name", f"Bench {n}")
            server.expect(lambda line: "listening on" in line, "the server listening", 20)
            listening.append(server.stamps[-1] - began)
            found.append(browser.record("found", 30)["t"] - began)
            browser.finish(10)
            server.stop()
    print(f"tenpennies serve start to listening (baseline): median {median_ms(listening)} of {starts}")
    print(f"tenpennies serve start to found by a client browsing in another host: median {median_ms(found)} "
          f"({statistics.median(found) / statistics.median(listening):.1f}x)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cuts", type=int, default=3)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    reason = unavailable()
    if reason:
        print(f"lan bench skipped: {reason}")
        return 0
    with tempfile.TemporaryDirectory(prefix="lan-bench-") as work:
        if args.starts:
            discovery(args.starts, Path(work))
        if args.cuts:
            reconnects(args.cuts, Path(work))
    return 0


if __name__ == "__main__":
    sys.exit(main())

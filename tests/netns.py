"""Separate hosts on this one machine, for tests and benches that need a real LAN: network namespaces
joined by a bridge (iproute2, util-linux ``unshare`` and ``nsenter``).

``Lan(3)`` makes hosts ``a``, ``b``, ``c`` at 10.77.0.1, .2, .3/24, each with its loopback up and one
interface ``eth0``, plugged into a bridge ``br0`` that lives in a namespace of its own (the *switch*), so no
packet of a test touches the machine's own network: not even the bridge is in the root namespace. The
bridge floods multicast (``mcast_snooping 0``) and each host routes 224.0.0.0/4 out of ``eth0``, so mDNS
works across it as on a home LAN.

Each namespace is held by a process of its own (``unshare --net cat``, reading a pipe from the test) rather
than a name under /run/netns: nothing is named, so parallel runs cannot collide, and a run that dies leaves
nothing behind (the pipe closes, the holder exits, the kernel frees the namespace once its last process is
gone; every process started in a host is also killed with the test process, ``PR_SET_PDEATHSIG``). As root
the namespaces are plain network namespaces; as a user they sit in one user namespace made for the run
(``unshare --user --map-root-user``), where that user is root: the same tests run unprivileged wherever
user namespaces are allowed. ``unavailable()`` says why they cannot run (then tests skip, saying so).

The test process itself stays in the machine's namespace and cannot reach the hosts' addresses: whatever
talks to a server is a process started in a host with ``Lan.spawn`` (the server, ``tests/lan_player.py``
driving a terminal client, ``tests/lan_ctl.py`` for the host's calls, ``tenpennies bot``), and the test reads
their output lines (``Job``). ``cut(host)`` / ``restore(host)`` take the host's link down and up, as pulling
its cable would.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the venv's bin: tenpennies, python
SUBNET = "10.77.0"
TOOLS = ("ip", "unshare", "nsenter")
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In a child before exec: be killed when the test process goes, however it goes."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def unavailable() -> str | None:
    """Why separate hosts cannot be made here (None: they can)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        return f"needs {', '.join(missing)} (iproute2 and util-linux) to build network namespaces"
    argv = ["unshare", "--net", "true"] if os.geteuid() == 0 else \
        ["unshare", "--user", "--map-root-user", "--net", "true"]
    try:
        made = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"cannot make a network namespace: {error}"
    if made.returncode != 0:
        how = "as root" if os.geteuid() == 0 else "without root (unprivileged user namespaces are off)"
        return f"cannot make a network namespace {how}: {made.stderr.strip() or made.returncode}"
    return None


class Job:
    """A process in a host: its output lines as they come (stdout and stderr together), read by a thread
    of its own so a test can wait for a line with a deadline."""

    def __init__(self, name: str, process: subprocess.Popen[str]) -> None:
        self.name = name
        self.process = process
        self.lines: list[str] = []
        self.stamps: list[float] = []  # when each line was read (unix time), for benches
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._seen = 0
        self.ended = False  # the output ended (the process closed it, or is gone)
        self._reader = threading.Thread(target=self._read, name=f"read {name}", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(f"{time.time()!r} {line.rstrip()}")
        self._queue.put(None)

    def _pull(self, timeout: float) -> bool:
        """Take the next line into ``lines``; False when none came within ``timeout`` or the output ended
        (then ``ended`` is set)."""
        if self.ended:
            return False
        try:
            line = self._queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return False
        if line is None:
            self.ended = True
            return False
        stamp, _, text = line.partition(" ")
        self.lines.append(text)
        self.stamps.append(float(stamp))
        return True

    def _gave_up(self, what: str, timeout: float) -> AssertionError:
        if self.ended:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)
            return AssertionError(f"{self.name} ended (exit {self.process.returncode}) before {what}:\n"
                                  + self.tail())
        return AssertionError(f"{self.name}: no {what} within {timeout} s:\n" + self.tail())

    def expect(self, matches: Callable[[str], object], what: str, timeout: float) -> str:
        """The next line (after those an earlier ``expect`` returned) for which ``matches`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            while self._seen < len(self.lines):
                line = self.lines[self._seen]
                self._seen += 1
                if matches(line):
                    return line
            if not self._pull(deadline - time.monotonic()) and (self.ended or time.monotonic() >= deadline):
                raise self._gave_up(what, timeout)

    def find(self, at: str, matches: Callable[[dict[str, Any]], object], timeout: float) -> dict[str, Any]:
        """The first ``at`` record of all (those ``expect`` passed over too) for which ``matches`` holds."""
        deadline = time.monotonic() + timeout
        checked = 0
        while True:
            for line in self.lines[checked:]:
                if _at(line) == at and matches(record := json.loads(line)):
                    return dict(record)
            checked = len(self.lines)
            if not self._pull(deadline - time.monotonic()) and (self.ended or time.monotonic() >= deadline):
                raise self._gave_up(f"such {at!r} line", timeout)

    def read_until(self, moment: float) -> None:
        """Read what comes until ``moment`` (unix time), or until the output ends."""
        while (left := moment - time.time()) > 0 and (self._pull(left) or not self.ended):
            pass

    def drain(self) -> list[str]:
        """Every line so far (what has come is read in)."""
        while self._pull(0):
            pass
        return self.lines

    def record(self, at: str, timeout: float) -> dict[str, Any]:
        """The next JSON line whose ``at`` is ``at`` (the drivers' and lan_ctl's output)."""
        line = self.expect(lambda text: _at(text) == at, f"a {at!r} line", timeout)
        record: dict[str, Any] = json.loads(line)
        return record

    def finish(self, timeout: float) -> int:
        """Wait for the process to end (all its output read); its exit status."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} still running after {timeout} s:\n" + self.tail()) from None
        self._reader.join(timeout=5)
        self.drain()
        return code

    def tail(self, lines: int = 30) -> str:
        self.drain()
        return "\n".join(f"  {self.name}| {line}" for line in self.lines[-lines:])

    def stop(self, grace: float = 3.0) -> None:
        """SIGTERM its process group, then SIGKILL after ``grace`` seconds."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        if self.process.stdout is not None:
            self._reader.join(timeout=5)
            self.process.stdout.close()


def _at(line: str) -> object:
    if not line.startswith("{"):
        return None
    try:
        return json.loads(line).get("at")
    except (ValueError, AttributeError):
        return None


@dataclass
class Host:
    name: str
    address: str
    holder: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.holder is not None
        return self.holder.pid


@dataclass
class Lan:
    """``count`` hosts on one bridge; a context manager (``close`` tears everything down, always)."""

    count: int = 3
    hosts: dict[str, Host] = field(default_factory=dict)
    switch: subprocess.Popen[bytes] | None = None
    jobs: list[Job] = field(default_factory=list)
    unprivileged: bool = field(default_factory=lambda: os.geteuid() != 0)

    def __enter__(self) -> Lan:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- building ---

    def _holder(self, argv: list[str]) -> subprocess.Popen[bytes]:
        """A process that holds a new namespace until its stdin closes, once it is in it. A holder that
        exits before (seen once in a full CI run, its cause unknown: its stderr was not kept then) is made
        again, twice at most; its stderr is kept to say why."""
        for attempt in range(3):
            with tempfile.TemporaryFile() as errors:
                holder = subprocess.Popen([*argv, "cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                          stderr=errors, preexec_fn=_die_with_parent)
                if self._ready(holder):
                    return holder
                holder.wait(5)
                errors.seek(0)
                why = errors.read().decode(errors="replace").strip() or "no message"
            print(f"netns: a namespace holder exited (status {holder.returncode}: {why}); "
                  f"{'trying again' if attempt < 2 else 'giving up'}", file=sys.stderr)
        raise RuntimeError(f"could not hold a namespace: {' '.join(argv)} exited "
                           f"(status {holder.returncode}: {why})")

    def _enter(self, pid: int) -> list[str]:
        """The argv prefix that runs a command in the namespace(s) of holder ``pid``."""
        user = ["--user", "--preserve-credentials"] if self.unprivileged else []
        return ["nsenter", "--target", str(pid), "--net", *user, "--"]

    def _ip(self, pid: int, *args: str) -> None:
        done = subprocess.run([*self._enter(pid), "ip", *args], capture_output=True, text=True, timeout=10)
        if done.returncode != 0:
            raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")

    @staticmethod
    def _ready(holder: subprocess.Popen[bytes]) -> bool:
        """Wait until ``holder`` is in a namespace of its own (unshare has run), bounded; False if it
        exited first."""
        mine = os.readlink("/proc/self/ns/net")
        deadline = time.monotonic() + 10
        while True:
            try:
                if os.readlink(f"/proc/{holder.pid}/ns/net") != mine:
                    return True
            except FileNotFoundError:  # exited (a zombie has no namespaces)
                return False
            if holder.poll() is not None:
                return False
            if time.monotonic() > deadline:
                raise RuntimeError(f"holder {holder.pid} never got a namespace of its own")
            time.sleep(0.005)

    def start(self) -> None:
        if self.unprivileged:
            self.switch = self._holder(["unshare", "--user", "--map-root-user", "--net", "--"])
        else:
            self.switch = self._holder(["unshare", "--net", "--"])
        sw = self.switch.pid
        self._ip(sw, "link", "set", "lo", "up")
        self._ip(sw, "link", "add", "name", "br0", "type", "bridge")
        self._ip(sw, "link", "set", "dev", "br0", "type", "bridge", "mcast_snooping", "0")
        self._ip(sw, "link", "set", "dev", "br0", "up")
        for n in range(self.count):
            name = "abcdefghij"[n]
            host = Host(name, f"{SUBNET}.{n + 1}")
            # a host's namespace is made from inside the switch's user namespace, so that (unprivileged) the
            # switch's root may plug a cable into it
            prefix = ["nsenter", "--target", str(sw), "--user", "--preserve-credentials", "--"] \
                if self.unprivileged else []
            host.holder = self._holder([*prefix, "unshare", "--net", "--"])
            self.hosts[name] = host
            port = f"port-{name}"
            self._ip(sw, "link", "add", "name", port, "type", "veth", "peer", "name", "eth0", "netns",
                     str(host.pid))
            self._ip(sw, "link", "set", "dev", port, "master", "br0")
            self._ip(sw, "link", "set", "dev", port, "up")
            self._ip(host.pid, "link", "set", "lo", "up")
            self._ip(host.pid, "addr", "add", f"{host.address}/24", "dev", "eth0")
            self.restore(name)

    # --- using ---

    def address(self, host: str) -> str:
        return self.hosts[host].address

    def command(self, host: str, argv: Sequence[str]) -> list[str]:
        """``argv`` as run in ``host``."""
        return [*self._enter(self.hosts[host].pid), *argv]

    def spawn(self, host: str, argv: Sequence[str], *, name: str = "", env: dict[str, str] | None = None) -> Job:
        """Start ``argv`` in ``host`` (its own process group, killed at ``close``); read it through the Job."""
        environment = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        process = subprocess.Popen(self.command(host, argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, env=environment, cwd=ROOT,
                                   start_new_session=True, preexec_fn=_die_with_parent)
        job = Job(name or f"{host}:{Path(argv[0]).name}", process)
        self.jobs.append(job)
        return job

    def python(self, host: str, script: str, *args: str, name: str = "", env: dict[str, str] | None = None) -> Job:
        """``tests/<script>`` run by this venv's Python in ``host``."""
        return self.spawn(host, [sys.executable, str(ROOT / "tests" / script), *args], name=name or script, env=env)

    def cut(self, host: str) -> None:
        """Pull the host's cable: its link goes down (its routes go with it)."""
        self._ip(self.hosts[host].pid, "link", "set", "dev", "eth0", "down")

    def restore(self, host: str) -> None:
        """Plug it back: the link comes up, with the multicast route mDNS needs."""
        pid = self.hosts[host].pid
        self._ip(pid, "link", "set", "dev", "eth0", "up")
        self._ip(pid, "route", "replace", "224.0.0.0/4", "dev", "eth0")

    # --- tearing down ---

    def close(self) -> None:
        """Stop every process started in a host, then the holders: the namespaces go with them."""
        for job in reversed(self.jobs):
            with contextlib.suppress(Exception):
                job.stop()
        holders = [h.holder for h in self.hosts.values() if h.holder is not None]
        if self.switch is not None:
            holders.append(self.switch)
        for holder in holders:
            with contextlib.suppress(Exception):
                if holder.stdin is not None:
                    holder.stdin.close()
        for holder in holders:
            try:
                holder.wait(5)
            except subprocess.TimeoutExpired:
                holder.kill()
                holder.wait(5)
        self.jobs.clear()
        self.hosts.clear()
        self.switch = None

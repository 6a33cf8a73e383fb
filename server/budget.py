"""One budget per client address across the processes of one server (``serve --workers N``): the front and
every worker's own port charge the same token bucket, kept in a file all of them map into memory, so that a
client gets its budget once however many of the server's ports it spreads its requests over.

The front makes the file (in its private directory, beside the workers' sockets) and names it to its workers.
A bucket lives in a slot found from the address by a keyed hash (the key is the file's, made at random: nobody
outside can aim at another address's slot), among ``PROBES`` slots after it; a bucket full again (idle long
enough) gives its slot up to the next address that needs one. Each charge reads the clock and reads and
writes its slots under a lock on their bytes of the file (``fcntl.lockf``), so two processes never both spend
the same tokens. When every slot an address may use holds another's bucket still in use (a flood of
addresses), or the file cannot be opened or locked (a temporary directory cleaned, a file system without
locks), the address is charged in this process alone, as a server of one process would charge it.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import math
import mmap
import os
import secrets
import struct
import time
from pathlib import Path


class Buckets:
    """Token buckets by key: ``rate`` a second, at most ``burst`` saved up; a request takes its cost. A key
    idle long enough for its bucket to be full again is forgotten (a full bucket is what a new key gets), so
    the clients that left leave nothing behind: swept at most once per that time, on the next request."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}
        self.refill = burst / rate if rate > 0 else math.inf  # seconds for an empty bucket to fill
        self._swept = time.monotonic()

    def level(self, key: str, now: float) -> float:
        if now - self._swept > self.refill:
            self.forget_idle(now)
        tokens, last = self.buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.rate)

    def forget_idle(self, now: float) -> None:
        """Forget the keys whose buckets are full again by ``now``."""
        self._swept = now
        self.buckets = {k: (t, last) for k, (t, last) in self.buckets.items()
                        if t + (now - last) * self.rate < self.burst}

    def take(self, key: str, tokens: float, now: float) -> None:
        self.buckets[key] = (tokens, now)

    def charge(self, key: str, cost: float, now: float) -> bool:
        """Take ``cost`` from ``key``'s bucket if it holds that much: whether it did."""
        level = self.level(key, now)
        allowed = level >= cost
        self.take(key, level - cost if allowed else level, now)
        return allowed


log = logging.getLogger(__name__)

SLOTS = 1 << 16
PROBES = 8  # the slots an address may use: its own and those after it (the file has PROBES - 1 beyond the last)
_SLOT = struct.Struct("<Qdd")  # the address's fingerprint (0: free), tokens, when they were counted (monotonic s)
_SIZE = 32  # a slot's bytes (the struct, padded)
_KEY = 32  # the hash key, at the file's start
_HEADER = 64
_BYTES = _HEADER + (SLOTS + PROBES - 1) * _SIZE


class SharedBuckets:
    """Token buckets by address shared by the processes that map ``path``: ``rate`` a second, at most ``burst``
    saved up. ``make`` the file once (the front), then each process opens it. ``fallback``: the buckets of
    this process, for an address with no slot, and for all of them when the file cannot be used."""

    def __init__(self, path: str | Path, rate: float, burst: float) -> None:
        self.fallback = Buckets(rate, burst)
        self._fd = -1
        self._map: mmap.mmap | None = None
        try:
            self._fd = os.open(path, os.O_RDWR)
            self._map = mmap.mmap(self._fd, _BYTES)
        except (OSError, ValueError) as error:
            log.warning("the shared request budgets %s cannot be used (%s): this process keeps its own", path, error)
            self.close()
            return
        self._key = bytes(self._map[:_KEY])

    @staticmethod
    def make(path: str | Path) -> None:
        """A new file of free slots at ``path`` (readable by this user alone), with a new hash key."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.ftruncate(fd, _BYTES)
            os.pwrite(fd, secrets.token_bytes(_KEY), 0)
        finally:
            os.close(fd)

    def close(self) -> None:
        """Let the file go (this process's own buckets serve on)."""
        if self._map is not None:
            self._map.close()
            self._map = None
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _fingerprint(self, key: str) -> int:
        digest = hashlib.blake2b(key.encode(), digest_size=8, key=self._key).digest()
        return int.from_bytes(digest, "little") or 1  # (0 marks a free slot)

    def charge(self, key: str, cost: float, now: float) -> bool:
        """Take ``cost`` from ``key``'s bucket if it holds that much: whether it did."""
        shared = self._map
        if shared is None:
            return self.fallback.charge(key, cost, now)
        fingerprint = self._fingerprint(key)
        start = _HEADER + (fingerprint % SLOTS) * _SIZE  # (its PROBES slots in a row: one range to lock)
        try:
            fcntl.lockf(self._fd, fcntl.LOCK_EX, PROBES * _SIZE, start, os.SEEK_SET)
        except OSError as error:
            log.warning("the shared request budgets cannot be locked (%s): this process keeps its own", error)
            self.close()
            return self.fallback.charge(key, cost, now)
        try:
            now = time.monotonic()  # (read in the lock: a process that waited for it does not set a slot back)
            rate, burst = self.fallback.rate, self.fallback.burst
            claim = None
            for offset in range(start, start + PROBES * _SIZE, _SIZE):
                held, tokens, counted = _SLOT.unpack_from(shared, offset)
                if held == fingerprint:
                    break
                if claim is None and (held == 0 or tokens + (now - counted) * rate >= burst):
                    claim = offset  # free, or its bucket is full again: nobody loses anything
            else:
                if claim is None:
                    return self.fallback.charge(key, cost, now)
                offset, tokens, counted = claim, burst, now
            level: float = min(burst, tokens + max(0.0, now - counted) * rate)
            allowed = level >= cost
            _SLOT.pack_into(shared, offset, fingerprint, level - cost if allowed else level, now)
            return allowed
        finally:
            fcntl.lockf(self._fd, fcntl.LOCK_UN, PROBES * _SIZE, start, os.SEEK_SET)

    def forget_idle(self, now: float) -> None:
        """Only the fallback's: a slot is given up when another address needs it."""
        self.fallback.forget_idle(now)

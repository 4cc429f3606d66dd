"""Rate limiting: one budget per client over the whole API (RATE_LIMIT), counted where every worker sees the same
count.

The window is a sliding-window counter (the `limits` library's "sliding-window-counter"): a count for the current
period and one for the period before, the latter weighted by how much of it still overlaps the sliding period.
It costs two counters per client, whatever the limit, where a moving window (a timestamp per request) grows with
it. No period admits more than the limit; a sliding period holds about the limit (the previous period's requests
are taken as spread evenly over it), and a refused client may be asked to wait a little past one period.

Where the counts live (RATE_LIMIT_STORAGE):
- with a Redis (REDIS_URL, or a `limits` storage URI): in that storage, through `limits`, shared by every worker
  and every replica;
- without: in this host's shared memory (`HostWindows`), one table mapped before gunicorn forks its workers from
  the preloaded app, so every worker of the server counts into the same budget;
- `memory://`: each worker alone, where an operator chooses so.
A storage that fails (Redis down or slow) never blocks or refuses a request: the count goes to the host's table
meanwhile, and the storage is tried again after a back-off.
"""
from __future__ import annotations

import functools
import logging
import math
import mmap
import multiprocessing
import os
import struct
import time
from typing import Any, NamedTuple, Sequence

from limits import RateLimitItem, RateLimitItemPerSecond, parse_many
from limits.storage import SCHEMES, storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter

log = logging.getLogger("service.ratelimit")

RETRY_STORAGE_AFTER_S = 5.0  # after a storage fault, count in the host's table this long before trying it again
STALE_LOCK_S = 1.0  # the host's table is locked for microseconds: held this long, its holder died holding it
clock = time.time  # the limiter's clock (tests stop it, so that no period turns over mid-test)


class Verdict(NamedTuple):
    """One request's count: allowed or not, and what the X-RateLimit-* headers (and Retry-After) say."""

    allowed: bool
    limit: int  # the requests a period allows
    remaining: int  # what is left of it now
    reset: int  # the epoch second the current period ends
    retry_after: int  # seconds until the request would be allowed (0 when it is)
    text: str  # the limit in words ("1200 per 1 minute")


class Window(NamedTuple):
    """One limit: `amount` per `period` seconds, its place among the limits (part of a client's key), in words."""

    amount: int
    period: int
    index: int
    text: str


def windows_of(text: str) -> tuple[Window, ...]:
    """The limits of a RATE_LIMIT text ("1200 per minute", "20/second; 1000/hour"); ValueError if it is none."""
    try:
        items: Sequence[RateLimitItem] = parse_many(text)
    except ValueError:
        raise ValueError(f"RATE_LIMIT: {text!r} is no rate limit; say \"1200 per minute\" or \"20/second; "
                         f"1000/hour\"") from None
    return tuple(Window(item.amount, item.get_expiry(), index, str(item)) for index, item in enumerate(items))


def weighted(previous: int, current: int, elapsed: float) -> float:
    """The sliding count: the previous period's count for the part of it the sliding period still covers."""
    return previous * (1.0 - elapsed) + current


def retry_after(window: Window, previous: int, current: int, elapsed: float, cost: int) -> int:
    """Whole seconds until `cost` more fit (the sliding count's whole part plus `cost` within the amount), the
    counts unchanged meanwhile."""
    bound = window.amount - cost + 1  # the sliding count must fall below this
    if bound <= 0:
        return window.period  # never fits: come back after a period, and be refused again
    if current < bound and previous > 0:  # later in this period, as the previous one slides out
        wait = (1.0 - (bound - current) / previous - elapsed) * window.period
    else:  # in the next period, as this one's count slides out in its turn
        wait = (1.0 - elapsed) * window.period
        if current >= bound:
            wait += (1.0 - bound / current) * window.period
    # strictly past the crossing (where the count falls below the bound), rounding not taking it back a second
    return max(1, math.floor(wait + 1e-6) + 1)


class HostWindows:
    """Sliding-window counts in one table of shared memory, for every process forked after it is made.

    A fixed table (SLOTS slots of (client key, period number, current count, previous count)), found by hashing:
    memory stays bounded whatever the number of clients. A slot whose period is over is free; when a client finds
    all its PROBES slots taken by live counts it takes the first, so under a flood of distinct addresses a client
    can lose its count (the limit then errs on the side of serving), never the service its memory."""

    SLOT = struct.Struct("<QqII")
    SLOTS = 1 << 15  # 768 KiB
    PROBES = 8

    def __init__(self, slots: int = SLOTS) -> None:
        self.slots = slots
        self.table = mmap.mmap(-1, slots * self.SLOT.size)  # anonymous and shared: forked workers see one table
        self.lock = multiprocessing.Lock()  # a semaphore in shared memory: across workers and their threads

    def hit(self, client: str, windows: Sequence[Window], cost: int, now: float) -> Verdict:
        # str's hash: keyed (no flooding one slot from outside), and the same in every worker forked from the
        # process that made the table, the only ones that share it
        key = hash(client) & 0x7FFF_FFFF_FFFF_FFFF or 1
        if len(windows) == 1:
            return self._hit_one(key, windows[0], cost, now)
        locked = self._lock()
        try:
            found = [self._count(key ^ window.index, window, now) for window in windows]
            allowed = True
            for (previous, current, _, elapsed, _), window in zip(found, windows):
                if int(previous * (1.0 - elapsed) + current) + cost > window.amount:
                    allowed = False
            if allowed:
                for (previous, current, offset, _, number), window in zip(found, windows):
                    self.SLOT.pack_into(self.table, offset, key ^ window.index, number, current + cost, previous)
        finally:
            if locked:
                self._unlock()
        if allowed:
            found = [(previous, current + cost, offset, elapsed, number)
                     for previous, current, offset, elapsed, number in found]
        return _tightest([_verdict(window, previous, current, elapsed, (number + 1) * window.period, cost, allowed)
                          for (previous, current, _, elapsed, number), window in zip(found, windows)])

    def _hit_one(self, key: int, window: Window, cost: int, now: float) -> Verdict:
        """`hit` for the usual single limit: the same count, in fewer steps (it runs for every request)."""
        locked = self._lock()
        try:
            previous, current, offset, elapsed, number = self._count(key, window, now)
            amount = window.amount
            allowed = int(previous * (1.0 - elapsed) + current) + cost <= amount
            if allowed:
                current += cost
                self.SLOT.pack_into(self.table, offset, key, number, current, previous)
        finally:
            if locked:
                self._unlock()
        period = window.period
        if allowed:
            return Verdict(True, amount, max(0, amount - int(previous * (1.0 - elapsed) + current)),
                           (number + 1) * period, 0, window.text)
        return _verdict(window, previous, current, elapsed, (number + 1) * period, cost, False)

    def _unlock(self) -> None:
        try:
            self.lock.release()
        except ValueError:  # taken back from this worker, stalled past STALE_LOCK_S, and released since
            pass

    def _lock(self) -> bool:
        """Take the table's lock; False when it could not be had, and the count goes on unguarded this once.

        A worker killed within the microseconds it holds the lock (gunicorn's timeout kills a stuck worker) would
        leave it taken for ever: held past STALE_LOCK_S, it is taken back (a semaphore, any process may release
        it)."""
        if self.lock.acquire(timeout=STALE_LOCK_S):
            return True
        log.warning("the rate-limit table's lock was held for %s s: taken back from a worker that died holding it",
                    STALE_LOCK_S)
        try:
            self.lock.release()
        except ValueError:  # released meanwhile
            pass
        return self.lock.acquire(timeout=STALE_LOCK_S)

    def _count(self, key: int, window: Window, now: float) -> tuple[int, int, int, float, int]:
        """(previous count, current count, the slot's offset, the elapsed share of the period, the period's
        number) of a client, its slot found or taken."""
        periods = now / window.period
        number = int(periods)
        elapsed = periods - number
        start = key % self.slots
        taken = -1
        unpack, size = self.SLOT.unpack_from, self.SLOT.size
        for probe in range(self.PROBES):
            offset = ((start + probe) % self.slots) * size
            slot_key, slot_number, current, previous = unpack(self.table, offset)
            if slot_key == key:
                if slot_number == number:
                    return previous, current, offset, elapsed, number
                if slot_number == number - 1:
                    return current, 0, offset, elapsed, number
                return 0, 0, offset, elapsed, number
            if taken < 0 and (slot_key == 0 or slot_number < number - 1):
                taken = offset  # free: never used, or its counts are over
        return 0, 0, start * size if taken < 0 else taken, elapsed, number


def _verdict(window: Window, previous: int, current: int, elapsed: float, reset: int, cost: int,
             allowed: bool) -> Verdict:
    count = weighted(previous, current, elapsed)
    return Verdict(allowed, window.amount, max(0, window.amount - math.floor(count)), reset,
                   0 if allowed else retry_after(window, previous, current, elapsed, cost), window.text)


def _tightest(verdicts: Sequence[Verdict]) -> Verdict:
    """The verdict the headers report: the refusing limit with the longest wait, else the one with least left."""
    refused = [v for v in verdicts if not v.allowed]
    if refused:
        return max(refused, key=lambda v: v.retry_after)
    return min(verdicts, key=lambda v: v.remaining)


class StorageWindows:
    """Sliding-window counts in a storage of the `limits` library (Redis, a Redis Cluster, memcached, or each
    worker's memory), through its sliding-window-counter strategy.

    The storage is made in the process that counts, at its first request: not in gunicorn's master, whose
    connections its forked workers would share, and not at start, where an unreachable store would stop the
    service from starting (a Redis Cluster's client connects when it is made)."""

    def __init__(self, uri: str, options: dict[str, Any]) -> None:
        scheme = uri.split("://", 1)[0] if "://" in uri else ""
        if scheme not in SCHEMES:
            raise ValueError(f"RATE_LIMIT_STORAGE: no storage {uri!r}; the schemes are {', '.join(sorted(SCHEMES))}")
        self.uri, self.scheme, self.options = uri, scheme, options
        self._strategy: SlidingWindowCounterRateLimiter | None = None
        self._pid = 0

    def _counting(self) -> SlidingWindowCounterRateLimiter:
        if self._strategy is None or self._pid != os.getpid():
            self._strategy = SlidingWindowCounterRateLimiter(storage_from_string(self.uri, **self.options))
            self._pid = os.getpid()
        return self._strategy

    def hit(self, client: str, windows: Sequence[Window], cost: int, now: float) -> Verdict:
        strategy = self._counting()
        verdicts = []
        for window in windows:
            item = _item(window)
            allowed = strategy.hit(item, client, cost=cost)
            # the counts after it, for the headers: the storage's periods start at a client's first request, and
            # its keys' lifetimes say how far into one it is
            previous, previous_ttl, current, current_ttl = strategy.storage.get_sliding_window(
                item.key_for(client), window.period)
            left = current_ttl - window.period if current else (previous_ttl if previous else window.period)
            elapsed = min(1.0, max(0.0, 1.0 - left / window.period))
            verdicts.append(_verdict(window, previous, current, elapsed, math.ceil(now + left), cost, allowed))
            if not allowed:
                break  # a refused request counts against no other limit
        return _tightest(verdicts)


@functools.cache  # one item a limit, not one a request
def _item(window: Window) -> RateLimitItem:
    return RateLimitItemPerSecond(window.amount, window.period, namespace=f"REFEREE{window.index}")


class RateLimiter:
    """The service's limiter: `hit(client, cost)` counts one request of a client and gives the verdict."""

    def __init__(self, windows: Sequence[Window], storage: StorageWindows | None, host: HostWindows) -> None:
        self.windows = tuple(windows)
        self.storage = storage
        self.host = host
        self._storage_down_until = 0.0

    @classmethod
    def from_settings(cls, settings: Any) -> "RateLimiter | None":
        """The limiter the settings ask for; None when RATE_LIMIT is empty."""
        if not settings.RATE_LIMIT:
            return None
        windows = windows_of(settings.RATE_LIMIT)
        uri, options = storage_uri(settings)
        return cls(windows, StorageWindows(uri, options) if uri else None, HostWindows())

    @property
    def where(self) -> str:
        """Where the counts live: "host" (shared memory), or the storage's scheme."""
        return self.storage.scheme if self.storage is not None else "host"

    def hit(self, client: str, cost: int = 1) -> Verdict:
        now = clock()
        storage = self.storage
        if storage is not None and now >= self._storage_down_until:
            try:
                return storage.hit(client, self.windows, cost, now)
            except Exception as error:  # noqa: BLE001 - any storage fault: count here, serve, try again later
                if self._storage_down_until == 0.0 or now >= self._storage_down_until + RETRY_STORAGE_AFTER_S:
                    log.warning("rate-limit storage unavailable (%s); counting in this host's memory for now",
                                type(error).__name__)
                self._storage_down_until = now + RETRY_STORAGE_AFTER_S
        return self.host.hit(client, self.windows, cost, now)


def storage_uri(settings: Any) -> tuple[str, dict[str, Any]]:
    """The `limits` storage URI and options the settings name; ("", {}) for the host's shared memory."""
    if settings.RATE_LIMIT_STORAGE:
        return settings.RATE_LIMIT_STORAGE, {}
    if not settings.REDIS_URL:
        return "", {}
    # the cache's short timeouts: a slow Redis costs a request at most this, then the back-off above
    options: dict[str, Any] = {"socket_timeout": 0.1, "socket_connect_timeout": 0.1}
    if settings.REDIS_CLUSTER:
        scheme, rest = settings.REDIS_URL.split("://", 1)
        if scheme == "rediss":
            options["ssl"] = True  # the cluster's URI has no TLS scheme of its own
        return "redis+cluster://" + rest.split("/", 1)[0], options
    return settings.REDIS_URL, options

"""The cache by identity that the seat tools keep with a view's log, and in an action space."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

import cheatrules as cr
from cheatrules._caches import IdentityCache, kept_with, newest_kept
from cheatrules._persistent import Log

from .budget import scaled


def test_a_cache_keeps_the_newest_objects_and_drops_the_oldest() -> None:
    cache: IdentityCache[str] = IdentityCache(2)
    first, second, third = ["a"], ["b"], ["c"]
    cache.put(first, "A")
    cache.put(second, "B")
    cache.put(first, "A again")  # stored again: the newest
    cache.put(third, "C")
    assert (cache.get(first), cache.get(second), cache.get(third)) == ("A again", None, "C")
    assert len(cache) == 2


def test_a_cache_finds_an_object_by_identity_never_an_equal_one() -> None:
    cache: IdentityCache[str] = IdentityCache(4)
    kept = tuple("ab")
    cache.put(kept, "found")
    assert cache.get(kept) == "found"
    assert cache.get(tuple("ab")) is None


def test_a_value_taken_is_lent_until_it_is_put_back() -> None:
    cache: IdentityCache[str] = IdentityCache(4)
    key = object()
    cache.put(key, "plan")
    assert cache.take(key) == "plan"
    assert cache.take(key) is None and cache.get(key) is None  # lent: nobody else gets it
    cache.put(key, "plan")
    assert cache.get(key) == "plan"


def test_a_value_is_found_and_taken_only_in_the_context_it_was_kept_in() -> None:
    cache: IdentityCache[str] = IdentityCache(4)
    key = object()
    cache.put(key, "for English", cr.english(3))
    assert cache.get(key, cr.english(3)) == "for English"  # an equal context
    assert cache.get(key, cr.verish(3)) is None
    assert cache.take(key, cr.verish(3)) is None and len(cache) == 1  # left where it is
    assert cache.take(key, cr.english(3)) == "for English"


def test_a_log_and_the_logs_extended_from_it_share_one_cache_of_each_name() -> None:
    log = Log.of("ab")
    longer = log.extended("c")
    assert kept_with(log, "tool", 4) is kept_with(longer, "tool", 4)
    assert kept_with(log, "tool", 4) is not kept_with(log, "another tool", 4)
    assert kept_with(Log.of("ab"), "tool", 4) is not kept_with(log, "tool", 4)


def test_the_newest_kept_value_is_found_with_the_chunks_still_to_fold() -> None:
    log = Log.of("ab").extended("cd")
    cache = kept_with(log, "tool", 4)
    assert newest_kept(cache, log.chunks, "seat 0") == (None, [("a", "b"), ("c", "d")])
    cache.put(log.chunks, "abcd", "seat 0")
    assert newest_kept(cache, log.extended("e").extended("f").chunks, "seat 0") == (
        "abcd",
        [("e",), ("f",)],
    )
    assert newest_kept(cache, log.chunks, "seat 1") == (None, [("a", "b"), ("c", "d")])


@pytest.fixture
def switching_often() -> Iterator[None]:
    """Threads switch every microsecond (not every 5 ms), so races show."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


@pytest.mark.usefixtures("switching_often")
def test_eight_threads_storing_taking_and_reading_at_once_never_raise_nor_mix_values() -> None:
    # A small cache, so that nearly every store drops an entry while other
    # threads read, store and take: each object's value is its own name.
    cache: IdentityCache[str] = IdentityCache(4)
    keys = [[str(number)] for number in range(12)]

    def work(seed: int) -> int:
        rng = random.Random(seed)
        found = 0
        for _ in range(scaled(3000)):
            key = rng.choice(keys)
            step = rng.random()
            if step < 0.5:
                cache.put(key, key[0])
            elif step < 0.6:
                value = cache.take(key)
                assert value in (None, key[0])
            else:
                value = cache.get(key)
                assert value in (None, key[0])
                found += value is not None
        return found

    with ThreadPoolExecutor(max_workers=8) as pool:
        found = list(pool.map(work, range(8)))
    assert sum(found) > 0
    assert len(cache) <= 4


def test_an_action_space_keeps_the_legal_bits_of_the_views_it_was_asked_about() -> None:
    from cheatrules.encoding import ActionSpace

    rules = cr.english(3)
    space = ActionSpace(rules)
    state = cr.deal(rules, seed=1)
    seen = state.observe(0)
    assert space.mask(seen) == space.mask(seen)
    assert space._views.get(seen) is not None
    assert space._views.get(state.observe(1)) is None  # never asked about

"""A bounded cache for the crawler's id lookups and idle origins (memory stays flat)."""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["BoundedCache"]

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A two-generation cache: O(1), at most ``2 * size`` entries, recently used stay.

    A cheaper stand-in for an LRU: new keys go into the young generation;
    when it is full the old generation is dropped and the young one becomes
    old.  A hit in the old generation moves the key back into the young one.
    """

    __slots__ = ("_old", "_size", "_young")

    def __init__(self, size: int) -> None:
        self._size = max(1, size)
        self._young: dict[K, V] = {}
        self._old: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        value = self._young.get(key)
        if value is not None:
            return value
        value = self._old.pop(key, None)
        if value is not None:
            self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        if len(self._young) >= self._size and key not in self._young:
            self._old = self._young
            self._young = {}
        self._young[key] = value

    def __len__(self) -> int:
        return len(self._young) + len(self._old)

"""The order in which PyTorch's argument-parser errors list the keywords of a call.

PyTorch's "received an invalid combination of arguments - got (keepdim=bool, dim=float,
input=Tensor, )" is written in C++ from a ``std::unordered_map<std::string, PyObject*>`` of
the keywords, so the order is neither the call's nor its reverse but the hash table's: GNU
libstdc++'s, whose walk is a single list in which each new key goes before the first key of
its bucket (or at the very front, if its bucket is empty), and which is rebuilt the same way
each time the table grows. The buckets come from ``std::hash<std::string>`` (libstdc++'s
64-bit MurmurHash2 variant, ``_Hash_bytes`` with seed 0xc70f6907) modulo a prime.
"""

from __future__ import annotations

__all__ = ["unordered_map_order"]

_MASK = (1 << 64) - 1
_MUL = (0xC6A4A793 << 32) + 0x5BD1E995
_SEED = 0xC70F6907
# libstdc++'s bucket counts: for fewer than 14 buckets asked, a fixed table; then primes
_SMALL = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _hash(text: str) -> int:
    """``std::hash<std::string>`` of ``text`` on a 64-bit libstdc++."""
    data = text.encode()
    aligned = len(data) & ~7
    h = (_SEED ^ (len(data) * _MUL)) & _MASK
    for i in range(0, aligned, 8):  # 8 bytes at a time, little-endian
        word = int.from_bytes(data[i : i + 8], "little")
        h = ((h ^ ((_shift_mix((word * _MUL) & _MASK) * _MUL) & _MASK)) * _MUL) & _MASK
    if len(data) & 7:  # the last 1-7 bytes
        h = ((h ^ int.from_bytes(data[aligned:], "little")) * _MUL) & _MASK
    return _shift_mix((_shift_mix(h) * _MUL) & _MASK)


def _buckets(wanted: int) -> int:
    if wanted < len(_SMALL):
        return _SMALL[wanted]
    n = wanted  # (the next prime: libstdc++'s table lists every prime below 100)
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n


def _insert(walk: list[tuple[str, int]], key: str, code: int, buckets: int) -> None:
    # before the first key of its bucket, else at the front
    at = next((i for i, (_, c) in enumerate(walk) if c % buckets == code % buckets), 0)
    walk.insert(at, (key, code))


def unordered_map_order(keys: list[str]) -> list[str]:
    """``keys`` (inserted in this order) in the order PyTorch's C++ walks them back."""
    walk: list[tuple[str, int]] = []
    buckets, next_resize = 1, 0  # (an empty table: one bucket, nothing allocated)
    for key in keys:
        if len(walk) + 1 > next_resize:  # libstdc++'s _Prime_rehash_policy, load factor 1
            least = max(len(walk) + 1, 0 if next_resize else 11)
            if least >= buckets:
                buckets = _buckets(max(least + 1, buckets * 2))
                old, walk = walk, []
                for k, c in old:
                    _insert(walk, k, c, buckets)
            next_resize = buckets
        _insert(walk, key, _hash(key), buckets)
    return [k for k, _ in walk]

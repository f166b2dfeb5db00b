"""Card-set files read and compiled once: path rules, file reading and the
LRU cache of compiled run-time card sets (azuki.CardSet.from_json).

Plain Python and free of the extension: a cache entry holds whatever the
caller's `build(compiled, text)` made of the compiled set (azuki._core
passes the function that packs it into the engine's azk_cardset), so the
binding keeps only what needs C. Keys are the top file's absolute path and
the SHA-256 of its bytes, or the text's hash; an entry counts only while
every file the set included still holds the bytes it was compiled from.
"""
from __future__ import annotations

import hashlib
import os
import threading

from .._util import excerpt

# key -> (built object, files it included as (path, sha256 hex)); most recently used last
_CACHE: dict = {}
_CACHE_MAX = 32
_CACHE_LOCK = threading.Lock()
_CACHE_STATS = {"hits": 0, "misses": 0}


def as_path(path) -> str:
    """A card-set path as a str (TypeError for other types, ValueError for "" or a NUL)."""
    try:
        p = os.fspath(path)
    except TypeError:
        raise TypeError(f"a card-set path must be a str or os.PathLike, got {type(path).__name__}") from None
    if not isinstance(p, str):
        raise TypeError(f"a card-set path must be a str or os.PathLike, got {type(p).__name__}")
    if not p:
        raise ValueError("empty card-set path (use cards=None for the default set)")
    if "\0" in p:
        raise ValueError(f"card-set path {excerpt(p)} contains a NUL character")
    return p


def cached(path, text, build):
    """build(compiled, text) of the card set at `path` (or of `text`, the
    text of the file `path` names if given), from the cache when nothing it
    was compiled from changed. A file that cannot be read, is too large or
    is not UTF-8 goes to load_cardset uncached (its ConvertError names the
    problem)."""
    from . import MAX_JSON_BYTES, load_cardset
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        path = None if path is None else as_path(path)
        key = ("text", path, hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
        return _cached_compile(key, path, text, build)
    if path is None:
        raise TypeError("from_json needs a path or text")
    path = as_path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            raw = f.read(min(size, MAX_JSON_BYTES) + 1)
            if len(raw) > size:   # it grew since fstat: read the rest (up to the cap)
                raw += f.read(MAX_JSON_BYTES + 1 - len(raw))
        txt = raw.decode("utf-8") if len(raw) <= MAX_JSON_BYTES else None
    except (OSError, UnicodeDecodeError):
        txt = None
    if txt is None:
        return build(load_cardset(path), None)
    return _cached_compile(("path", os.path.abspath(path), hashlib.sha256(raw).digest()), path, txt, build)


def _files_unchanged(files) -> bool:
    """Do the files a cached set was read from (its includes: (path, sha256),
    azuki.convert.CardSet.files) still hold the same bytes?"""
    from . import MAX_JSON_BYTES
    for p, digest in files:
        try:
            with open(p, "rb") as f:
                raw = f.read(MAX_JSON_BYTES + 1)
        except OSError:
            return False
        if hashlib.sha256(raw).hexdigest() != digest:
            return False
    return True


def _cached_compile(key, path, text, build):
    from . import load_cardset
    with _CACHE_LOCK:
        entry = _CACHE.get(key)
    if entry is not None and _files_unchanged(entry[1]):
        with _CACHE_LOCK:
            if _CACHE.get(key) is entry:
                del _CACHE[key]
                _CACHE[key] = entry      # most recently used last
            _CACHE_STATS["hits"] += 1
        return entry[0]
    compiled = load_cardset(path, text=text)
    obj = build(compiled, text)
    with _CACHE_LOCK:
        _CACHE_STATS["misses"] += 1
        _CACHE.pop(key, None)
        _CACHE[key] = (obj, compiled.files)
        while len(_CACHE) > _CACHE_MAX:
            del _CACHE[next(iter(_CACHE))]
    return obj


def clear_cardset_cache():
    """Forget every cached run-time card set (games keep theirs)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def cardset_cache_info():
    """{"size", "max", "hits", "misses"} of the run-time card-set cache."""
    with _CACHE_LOCK:
        return {"size": len(_CACHE), "max": _CACHE_MAX, **_CACHE_STATS}

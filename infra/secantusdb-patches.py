"""Three fixes to SecantusDB 0.7.0b3 (the newest on PyPI), applied to its installed source by
infra/mongo.sh after the pip install and checked at every start; each is applied once (its marker
comment says it is in). docs/decisions.md "Local MongoDB server" has the measurements.

1. A write's `_id` equality is a point lookup whatever else its filter holds. The server found
   a write's documents through an index only when the filter had no top-level operator, and its
   findAndModify writes with `{_id: <the matched id>, $and: [<the query>]}`: every
   findOneAndUpdate that matched a document scanned its whole collection under the collection's
   lock. The callers check the whole filter on each candidate, as for the index paths.
2. Retryable-write records are pruned from the oldest end. The server pruned them on every
   retryable write by walking all of them and, once 10,000 were kept (30 minutes of writes),
   sorting all of them to evict one: about half the server's CPU under a steady write load.
3. An insert reads the collection's index options once per chunk, not several times per
   document. Every inserted document re-read and decoded the index catalog three times (geo
   check, unique check, index entries): 17 % of the server's CPU while SMS dispatch inserts its
   records in bulk. The chunk holds the collection's lock, which index creation and removal also
   take, so the options cannot change under it.
"""
import sys

import secantus.storage
import secantus.transactions

PATCHES = [
    (
        secantus.storage.__file__,
        "feedback-service patch 1",
        '''        and fall through to COLLSCAN.
        """
        if not filter:
            return None
''',
        '''        and fall through to COLLSCAN.
        """
        if not filter:
            return None
        # feedback-service patch 1: an _id equality is a point lookup whatever else the filter holds
        if "_id" in filter and not self._is_timeseries(db, coll):
            _keys = _id_point_lookup_keys(filter["_id"])
            if _keys is not None:
                _rids = [self._doc_recordid(db, coll, k) for k in _keys]
                return [r for r in _rids if r is not None]
''',
    ),
    (
        secantus.transactions.__file__,
        "feedback-service patch 2",
        '''        with self._lock:
            self._retryable[(lsid_bytes, txn_number)] = (''',
        '''        with self._lock:
            # feedback-service patch 2: a record moves to the newest end, so the map stays in time order
            self._retryable.pop((lsid_bytes, txn_number), None)
            self._retryable[(lsid_bytes, txn_number)] = (''',
    ),
    (
        secantus.transactions.__file__,
        "feedback-service patch 2b",
        '''        now = self._time()
        cutoff = now - _RETRYABLE_RECORD_LIFETIME_SECONDS
        stale = [k for k, (_r, at, _i) in self._retryable.items() if at < cutoff]
        for k in stale:
            self._retryable.pop(k, None)
        excess = len(self._retryable) - _RETRYABLE_RECORD_MAX
        if excess > 0:
            oldest = sorted(self._retryable.items(), key=lambda kv: kv[1][1])[:excess]
            for k, _v in oldest:
                self._retryable.pop(k, None)
''',
        '''        # feedback-service patch 2b: the map is in time order (patch 2): drop from the oldest end
        cutoff = self._time() - _RETRYABLE_RECORD_LIFETIME_SECONDS
        records = self._retryable
        while records:
            oldest = next(iter(records))
            if records[oldest][1] >= cutoff and len(records) <= _RETRYABLE_RECORD_MAX:
                break
            del records[oldest]
''',
    ),
    (
        secantus.storage.__file__,
        "feedback-service patch 3",
        '''        return {name: dict(opts) for name, _key_spec, opts in self._iter_indexes(db, coll)}
''',
        '''        # feedback-service patch 3: read once per insert chunk (see _fs_index_options_memo)
        memo = getattr(self.__dict__.get("_fs_memo"), "options", None)
        if memo is not None and (db, coll) in memo:
            return memo[(db, coll)]
        options = {name: dict(opts) for name, _key_spec, opts in self._iter_indexes(db, coll)}
        if memo is not None:
            memo[(db, coll)] = options
        return options

    @contextlib.contextmanager
    def _fs_index_options_memo(self):
        """For the span of an insert chunk, which holds the collection's lock (as index creation and removal do)."""
        holder = self.__dict__.setdefault("_fs_memo", threading.local())
        holder.options = {}
        try:
            yield
        finally:
            holder.options = None
''',
    ),
    (
        secantus.storage.__file__,
        "feedback-service patch 3b",
        '''        with self._coll_lock(db, coll), self._batch_transaction(sync=sync):
            # Per-collection lock (Phase 2.4): writes to other
''',
        '''        # feedback-service patch 3b: the index options read once for the chunk (patch 3)
        with self._coll_lock(db, coll), self._batch_transaction(sync=sync), self._fs_index_options_memo():
            # Per-collection lock (Phase 2.4): writes to other
''',
    ),
]


def main() -> int:
    applied = []
    for path, marker, anchor, replacement in PATCHES:
        src = open(path).read()
        if marker + ":" in src:
            continue
        if src.count(anchor) != 1:
            print(f"{path} is not the SecantusDB 0.7.0b3 source {marker} was written for", file=sys.stderr)
            return 1
        open(path, "w").write(src.replace(anchor, replacement))
        applied.append(marker)
    if applied:
        print("applied " + ", ".join(applied))
    return 0


if __name__ == "__main__":
    sys.exit(main())

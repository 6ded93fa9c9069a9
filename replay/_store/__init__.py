"""The store: where cassettes live and how they get there safely.

``backend`` is the one interface every cassette goes through (:class:`backend.Store`: the
cassette as a whole object, write-once journal entries, an exclusive section or conditional
writes) and its local-file implementation; ``journal`` writes each recording the moment it
completes and folds the journal into the cassette; ``cassette_file`` is the file format
(orjson, versioned), its atomic write and its lock; ``usage`` is the record of which
interactions a test run used, which ``replay prune`` reads. Only this layer and the tools
touch the file system.
"""

"""The store: where cassettes live and how they get there safely.

``cassette_file`` is the file format (orjson, versioned), its atomic write and
its lock; ``usage`` is the record of which interactions a test run used, which
``replay prune`` reads. Only this layer and the tools touch the file system.
"""

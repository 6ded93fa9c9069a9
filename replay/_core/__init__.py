"""The pure core: plain dataclasses and functions over them, and no I/O.

Nothing here opens a file, a socket or a clock of its own; every other layer
calls in. ``model`` holds the dataclasses, ``errors`` the exception tree;
``key`` computes a request's key, ``redact`` and ``normalize`` (with the field
rules of ``providers`` and the chunk-keeping find/replace of ``rewrite``) make
what is stored safe and deterministic; ``modes`` is the record/replay/miss
table; ``streams`` tees and paces chunks; ``answers`` reads what a response
said; ``jsonpath`` names fields.
"""

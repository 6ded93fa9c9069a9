"""Adapters: turn an HTTP library's request into the core's, and the answer back.

``httpx_transport`` serves httpx and httpx2 (sync and async twins that differ
only in their I/O calls); ``patch`` routes the libraries' default transports
through a cassette while a ``use_cassette`` block runs; ``network`` guards
sockets for ``--block-network``. Each adapter stays thin: it converts at the
edge and leaves every decision to :class:`replay.Cassette`.
"""

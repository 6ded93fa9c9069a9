"""Tools that people run, on top of the library.

The ``replay`` command (``cli``, with the logic of its commands in
``inventory``, ``diff``, ``prune``, ``scan`` and ``wording``); the pytest plugin
(``pytest_plugin``, its option sources in ``config``, what spans a run in
``testsession``); the vcrpy bridge (``vcr``); a fake LLM API for tests and
offline development (``fakellm``) and the demo (``demo``).
"""

"""Tools that people run, on top of the library.

The ``replay`` command (the package ``cli``, a module per command, with the logic of its
commands in ``inventory``, ``diff``, ``rerun``, ``serve``, ``prune``, ``scan``, ``sync`` and
``wording``, none of which imports ``cli``); the pytest plugin
(``pytest_plugin``, its option sources in ``config``, what spans a run in
``testsession``); the vcrpy bridge (``vcr``); a fake LLM API for tests and
offline development (the package ``fakellm``) and the demo (``demo``).
"""

"""Public projects' pytest-recording suites, kept as their authors wrote them.

Each ``<name>/`` folder holds one project's tests and vcrpy cassettes, with ``SOURCE.md``
(where they come from, the revision, the license) and the project's ``LICENSE``. They are run
by ``test_real_suites.py`` in pytest processes of their own, never collected into ours; the
whole folder is left out of a plain ``pytest`` run (``addopts`` in pyproject.toml) and run by
``nox -s suites``, which installs the projects at the pinned versions their tests were written
for.
"""

from __future__ import annotations

collect_ignore_glob = ["*/*"]

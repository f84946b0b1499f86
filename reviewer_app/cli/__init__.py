"""The ``reviewer`` command line, one module per family of commands.

:mod:`.main` owns the entry point and the top-level parser; :mod:`.edits`, :mod:`.compare`,
:mod:`.render`, :mod:`.tools`, :mod:`.agent`, :mod:`.check` and :mod:`.review` each add their
commands; :mod:`.common` holds what they share (exit codes, the one error type, opening and
writing files). ``main`` is exported here because the console script (``reviewer_app.cli:main``),
``python -m reviewer_app`` and the bundle's launch script all name it. Nothing in this package
imports PySide6 when imported: the app and the page renderer are loaded only when a command
needs them.
"""

from .main import main

__all__ = ["main"]

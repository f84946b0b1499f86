"""Typed errors of the comparison: a bad option, or an input that cannot be compared.

Both carry a machine-readable field (``option`` / ``code``) for callers that branch on it, and a
message a person can act on for those that only show it (the CLI prints ``str(error)``).
"""

from __future__ import annotations

from typing import Any

#: Archive-guard codes of contract §10, plus ``load-failed`` for everything else that stops a load.
INPUT_CODES = ("input-too-large", "load-failed", "too-many-entries", "core-properties-too-large")


class CompareOptionError(ValueError):
    """An option of a comparison or redline is invalid (``option`` names it)."""

    def __init__(self, option: str, received: Any, message: str) -> None:
        self.option = option
        self.received_value = received
        super().__init__(message)


class CompareInputError(ValueError):
    """One of the two documents cannot be compared; ``code`` is one of :data:`INPUT_CODES`."""

    def __init__(self, code: str, role: str, detail: str) -> None:
        self.code = code
        self.role = role
        self.detail = detail
        super().__init__(f"The {role} document cannot be compared: {detail}")

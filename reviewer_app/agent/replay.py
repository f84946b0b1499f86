"""Operation replay (contract §5.8): one operation id names one operation for a document session.

Models resend tool calls: after a timeout, after a truncated turn, or because they forgot the
first call worked. Applying a resent replacement twice would write the same redline twice, so
the executor keeps a ledger per document session of every operation it applied or queued:
id → (canonical JSON fingerprint, receipt). A resent identical operation is *replayed* (not
run; its original receipt is reported again); the same id carrying a different operation fails
the whole call, because the model is confused about what it already did. Skipped operations
are not recorded, so a corrected resend is simply tried again.

The session is the object a bridge names as ``replay_session`` (the :class:`DocxReviewer` for
bridges over one, so a new bridge per call still replays), else the bridge itself. Ledgers are
held weakly: closing the document frees its ledger.
"""

from __future__ import annotations

import contextlib
import copy
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..docx.edit.batch import canonical_json
from .bridge import member

CONFLICT_MESSAGE = (
    'operations[{index}].id "{id}" already names a different operation this document applied. '
    "Give a new operation a new id, or omit ids to have them generated."
)


@dataclass(slots=True)
class LedgerEntry:
    """What the session remembers of one applied or queued operation."""

    fingerprint: str
    receipt: dict[str, Any] | None


@dataclass(slots=True)
class Ledger:
    """id → :class:`LedgerEntry` for one document session."""

    entries: dict[str, LedgerEntry] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.entries)

    def record(self, operation: Mapping[str, Any], receipt: dict[str, Any] | None) -> None:
        """Remember an applied or queued operation (its receipt as the call reported it)."""
        self.entries[str(operation["id"])] = LedgerEntry(fingerprint(operation), copy.deepcopy(receipt))

    def receipt(self, operation_id: str, index: int) -> dict[str, Any] | None:
        """The recorded receipt re-indexed to ``index`` (the operation's place in this call)."""
        entry = self.entries.get(operation_id)
        if entry is None or entry.receipt is None:
            return None
        receipt = copy.deepcopy(entry.receipt)
        receipt["operationIndex"] = index
        return receipt


@dataclass(slots=True)
class Partition:
    """One call's operations split by the ledger: which run, which replay, or why the call fails."""

    fresh: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    replayed: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    error: str | None = None


def fingerprint(operation: Mapping[str, Any]) -> str:
    """The operation's identity for replay: canonical JSON (sorted keys, ``12.0`` == ``12``)."""
    return canonical_json(operation)


def partition(ledger: Ledger, operations: Sequence[dict[str, Any]]) -> Partition:
    """Split ``operations`` (with their input indices) into fresh and replayed ones."""
    result = Partition()
    for index, operation in enumerate(operations):
        entry = ledger.entries.get(str(operation.get("id")))
        if entry is None:
            result.fresh.append((index, operation))
        elif entry.fingerprint == fingerprint(operation):
            result.replayed.append((index, operation))
        else:
            result.error = CONFLICT_MESSAGE.format(index=index, id=operation.get("id"))
            return result
    return result


_LEDGERS: weakref.WeakKeyDictionary[object, Ledger] = weakref.WeakKeyDictionary()
_ATTRIBUTE = "_reviewer_replay_ledger"


def session_of(bridge: Any) -> object:
    """The object whose lifetime a bridge's operation ids are scoped to."""
    session = member(bridge, "replay_session")
    return bridge if session is None else session


def ledger_for(bridge: Any) -> Ledger:
    """The ledger of ``bridge``'s session, created on first use.

    Held in a weak dictionary when the session object allows weak references; otherwise kept on
    the object itself; a session that allows neither gets a throwaway ledger (no replay rather
    than a leak or a crash).
    """
    session = session_of(bridge)
    try:
        ledger = _LEDGERS.get(session)
        if ledger is None:
            ledger = _LEDGERS[session] = Ledger()
        return ledger
    except TypeError:
        pass
    ledger = getattr(session, _ATTRIBUTE, None)
    if isinstance(ledger, Ledger):
        return ledger
    ledger = Ledger()
    with contextlib.suppress(Exception):  # a session that takes no attributes: no replay
        setattr(session, _ATTRIBUTE, ledger)
    return ledger

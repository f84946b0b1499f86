"""The skip-reason vocabulary (contract §6): what the model is told when an operation is not applied.

Every expected refusal is data: a :class:`Skip` raised inside an operation handler becomes an
entry in the result's ``skipped`` and ``issues`` lists with the contract's exact sentence, so
the model can act on it; nothing here is ever shown as a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

# code: (plain-language reason, recovery, retryable)
SKIP_REASONS: dict[str, tuple[str, str, bool]] = {
    "missingBlock": (
        "blockId not found; re-read the document (read_document or find_text) and retry with a fresh "
        "block id.",
        "refreshDocument",
        True,
    ),
    "changedBlock": (
        "the block changed since your snapshot; re-read the document and retry with fresh ids.",
        "refreshDocument",
        True,
    ),
    "ambiguousFind": (
        "`find` matches more than once in this block; narrow it so it matches exactly once, or use a "
        "replaceBlock operation instead.",
        "narrowMatch",
        True,
    ),
    "missingFind": (
        "`find` was not found in this block; re-read the block's current text and retry.",
        "refreshDocument",
        True,
    ),
    "unsupportedBlock": (
        "this block does not support that operation; use read_document to inspect its kind and embedded "
        "content, then choose an operation for its text or containing structure. If none fits, tell the "
        "user this edit cannot be applied.",
        "changeTarget",
        True,
    ),
    "unsupportedMode": (
        "this operation does not support the requested mutation mode; inspect document operation "
        "capabilities and retry with a supported mode.",
        "changeMode",
        True,
    ),
    "atomicBatchRejected": (
        "another operation in this atomic batch could not be applied; no operations were committed.",
        "inspectBatch",
        True,
    ),
    "preconditionFailed": (
        "the target block changed after the operation was prepared; re-read the document and retry with "
        "a fresh operation.",
        "refreshDocument",
        True,
    ),
    "staleRange": (
        "the selected range changed or shifted; run find_text again and retry with the fresh range.",
        "refreshDocument",
        True,
    ),
    "emptyOperation": ("this operation has no effect; nothing to apply.", "removeOperation", False),
    "noopOperation": (
        "this operation would not change the document (the text already matches what you asked for).",
        "removeOperation",
        False,
    ),
    "documentVersionMismatch": (
        "the document changed after these edits were proposed; re-read it and regenerate the edits "
        "against the current version.",
        "refreshDocument",
        True,
    ),
    "documentNotEditable": (
        "the document is not open for editing right now; nothing was applied or queued. Ask the user to "
        "open it for editing, then retry.",
        "retryLater",
        True,
    ),
    "pendingParagraphPropertyChange": (
        "this paragraph already has an unresolved tracked formatting change; accept or reject that change "
        "before retrying.",
        "resolveTrackedChange",
        False,
    ),
    "pendingRunPropertyChange": ("pendingRunPropertyChange", "resolveTrackedChange", False),
    "protectedReference": (
        "the edit would change or remove a footnote/endnote reference (a `[^1]` / `[^e1]` marker), or "
        "write a marker as text; a reference is not text. Keep every marker your `find` covers in the "
        "replacement, in order, or match only the words beside it.",
        "narrowMatch",
        False,
    ),
    "payloadDoesNotFit": (
        "the operation supplies more values than its target has cells for; nothing was applied. Supply "
        "fewer cellTexts, or anchor the row or column where no merged cell takes a slot.",
        "changeTarget",
        False,
    ),
    "splitsCharacter": (
        "an offset falls inside a single character (between the two halves of an emoji or other "
        "surrogate pair, or, for a text change or split, between a letter and its combining marks or "
        "inside an emoji sequence); nothing was applied. Move the offset to the boundary before or after "
        "that character and retry.",
        "changeTarget",
        True,
    ),
    "overlappingOperation": (
        "an earlier operation in this batch already deletes, rewrites, splits or merges this block, or "
        "edits an overlapping stretch of its text; nothing of this operation was applied. Re-read the "
        "document after this batch and send it again on its own.",
        "refreshDocument",
        True,
    ),
    "missingStyle": (
        "`styleId` names no paragraph style this document defines (it is undefined, or a table or "
        "character style); nothing was applied. Use a paragraph style the document defines (the ones it "
        "offers are named after this reason), or `null` to clear the style.",
        "refreshDocument",
        True,
    ),
    "pendingDeletion": (
        "this block is pending deletion (a tracked change deletes it; it reads as a blank block); nothing "
        "was applied, since text written there would join the next paragraph once the deletion is "
        "accepted. Reject that deletion first, or insert a new block next to it (insertAfterBlock / "
        "insertBeforeBlock).",
        "resolveTrackedChange",
        False,
    ),
    "pendingParagraphMarkDeletion": (
        "this paragraph's mark is pending tracked deletion; resolve that change before editing its "
        "properties separately, or provide mergedParagraphProperties on the merge operation.",
        "resolveTrackedChange",
        False,
    ),
    "missingNumbering": (
        "`numbering` names a numbering instance this document does not define; nothing was applied. "
        'Re-read the document and use a `{ kind: "reference", numId, ilvl? }` the document defines (the '
        "one a neighbouring list item carries), or choose another numbering state.",
        "refreshDocument",
        True,
    ),
    "invalidResult": (
        "applying this operation would have left a document that cannot be saved, so nothing from it was "
        "applied. Do not retry it as written; re-read the document and express the change differently.",
        "refreshDocument",
        False,
    ),
}


@dataclass(slots=True)
class Skip(Exception):
    """Raised by an operation handler to refuse an operation with a contract skip code."""

    code: str
    message: str | None = None

    def __str__(self) -> str:
        return self.code if self.message is None else f"{self.code}: {self.message}"


def reason_for(code: str, message: str | None = None) -> str:
    """The model-facing reason: the §6 sentence plus ``" (<message>)"`` when a detail is given."""
    base = SKIP_REASONS.get(code, (code, "", True))[0]
    return base if message is None else f"{base} ({message})"


def issue_for(operation_id: str, index: int, code: str, message: str | None = None) -> dict[str, object]:
    """The ``FolioDocumentOperationIssue`` for a skipped operation (contract §5.9)."""
    _reason, recovery, retryable = SKIP_REASONS.get(code, (code, "refreshDocument", True))
    issue: dict[str, object] = {
        "operationId": operation_id,
        "operationIndex": index,
        "path": f"$.operations[{index}]" if index >= 0 else "$.operations",
        "code": code,
        "retryable": retryable,
        "recovery": recovery,
    }
    if message is not None:
        issue["message"] = message
    return issue

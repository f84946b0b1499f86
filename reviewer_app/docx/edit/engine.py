"""Apply a contract batch (§5.4-§5.9) to a document: checks, handlers, receipts, rollback, undo.

Each operation runs against the live document but is judged before it is kept: targets are
resolved in the snapshot the batch addresses, preconditions and overlaps are checked, the
handler writes tracked markup, and the touched XML is validated. A refused operation is rolled
back from its own checkpoints, so the rest of a best-effort batch still applies; an atomic
batch or a dry run rolls everything back; the latest committed batch can be undone.
"""

from __future__ import annotations

import copy
import itertools
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import xmlutil
from ..comment_writer import attach_comment
from ..comments import note_changed
from ..document import WordDocument
from ..protection import TRACKED_ONLY_MESSAGE, tracked_changes_only
from ..snapshot import Snapshot
from ..xmlutil import W
from . import (
    ops_comments,  # noqa: F401  (registers handlers)
    ops_paragraph,  # registers handlers; pairs moves across the batch
    ops_paste,  # noqa: F401  (registers handlers)
    ops_signature_table,  # noqa: F401  (registers handlers)
    ops_split_merge,  # noqa: F401  (registers handlers)
    ops_table,  # noqa: F401  (registers handlers)
    ops_table_cells,  # noqa: F401  (registers handlers)
    ops_table_columns,  # noqa: F401  (registers handlers)
    ops_table_rows,  # noqa: F401  (registers handlers)
    ops_text,  # noqa: F401  (registers handlers)
    ops_typing,  # noqa: F401  (registers handlers)
)
from .batch import Batch, Operation, parse_batch
from .comment_parts import keep_seeds, kept_seeds, snapshot_keeps
from .context import Checkpoints, EditContext, Outcome
from .contract import modes_of
from .outcome import OperationOutcome
from .registry import HANDLERS
from .skips import Skip, issue_for, reason_for
from .stamp import RevisionStamp, Stamper, keep_stamper
from .validate import InvalidResult, check, unwritable_character

log = logging.getLogger(__name__)

#: Operations whose text lands in the target block: refused on a block pending deletion.
_WRITES_TEXT = frozenset(
    ("replaceInBlock", "replaceRange", "replaceBlock", "formatRange", "splitBlock", "typeText", "pasteRuns")
)
#: Operations that consume their whole block: any later operation on it overlaps.
WHOLE_BLOCK = frozenset(
    ("replaceBlock", "deleteBlock", "splitBlock", "mergeBlockWithNext", "deleteTable", "deleteTableRow")
)
#: Operations whose comment IS the operation (the others' optional comment explains an edit).
_COMMENT_TYPES = frozenset(("commentOnBlock", "commentOnRange"))
_handles = itertools.count(1)
_P = W + "p"


@dataclass(slots=True)
class UndoRecord:
    """What undoing the latest committed batch needs."""

    handle: str
    checkpoints: Checkpoints
    version_after: int
    clean_before: frozenset[str]  # parts unchanged before the batch: undo gives their bytes back


def target_block_id(op: Mapping[str, Any]) -> str | None:
    """The block an operation addresses (``range.blockId`` for range operations), parsed or not;
    also the block a receipt's ``affected`` target names (same two fields)."""
    span = op.get("range")
    block_id = span.get("blockId") if isinstance(span, Mapping) else op.get("blockId")
    return block_id if isinstance(block_id, str) and block_id else None


def with_block_hash(op: dict[str, Any], snapshot: Snapshot) -> dict[str, Any]:
    """``op`` guarded by its target's text hash as ``snapshot`` has it, unless it has a
    ``precondition.blockTextHash`` already (then ``op`` itself; else a stamped copy).

    A hash the model sent catches edits between its read and its call; a stamped one protects an
    operation against earlier ones of its batch, and a queued proposal against edits made before
    a person applies it (:meth:`Applier._common_checks` refuses it ``preconditionFailed``).
    """
    precondition = op.get("precondition")
    if isinstance(precondition, Mapping) and "blockTextHash" in precondition:
        return op
    block_id = target_block_id(op)
    text_hash = snapshot.text_hash_of(block_id) if block_id is not None else None
    if text_hash is None:
        return op
    return {**copy.deepcopy(op), "precondition": {"blockTextHash": text_hash}}


class Applier:
    """Applies batches to one document and remembers the latest for undo."""

    def __init__(self, doc: WordDocument, author: str, stamp: RevisionStamp | None = None) -> None:
        self.doc = doc
        self.author = author
        self.stamp = stamp
        self.last: UndoRecord | None = None
        self._stamper: tuple[int, Stamper] | None = None  # (document version it is valid for, stamper)
        self._rollback_bumps = 0  # how often a rollback alone moved ``doc.version`` on

    @property
    def content_version(self) -> int:
        """The version a batch's ``documentVersion`` pins: ``doc.version`` less rollbacks' bumps.

        A rollback restores the content exactly, but an element restored in place gets copies of
        its children, so the snapshot is read again and ``doc.version`` (which keys every cache
        of the document) moves on. The content did not change: a dry run (a proposal queued) or a
        refused atomic batch leaves the version a model pinned as it was.
        """
        return self.doc.version - self._rollback_bumps

    def apply(self, value: Any, document_version: str | None = None) -> dict[str, Any]:
        """Apply ``value`` (a batch dict or parsed :class:`Batch`); return the result envelope."""
        batch = parse_batch(value)
        stamper = self._current_stamper()
        seeds = kept_seeds(self.doc)  # the comment ids in use, when a comment act kept them
        result: dict[str, Any] = {
            "version": 1,
            "status": "committed",
            "applied": [],
            "skipped": [],
            "issues": [],
            "receipts": [],
            "normalizations": [],
            "undoHandle": None,
        }
        expected = (batch.precondition or {}).get("documentVersion")
        if expected is not None and expected != document_version:
            return self._refuse_all(result, batch, "documentVersionMismatch")
        if batch.mode == "direct" and tracked_changes_only(self.doc):
            return self._refuse_all(result, batch, "unsupportedMode", TRACKED_ONLY_MESSAGE)
        ctx = EditContext(self.doc, self.doc.snapshot(), stamper, tracked=batch.mode != "direct")
        ops_paragraph.set_batch_operations(ctx, batch.operations)
        kept = Checkpoints()
        failed = False
        for index, op in enumerate(batch.operations):
            outcome = self._run(ctx, batch, op)
            if isinstance(outcome, Skip):
                failed = True
                self._skip(result, op, index, outcome.code, outcome.message)
                continue
            kept.extend(ctx.checkpoints)
            made = OperationOutcome(op.id, "applied", tuple(outcome.revision_ids), outcome.comment_id)
            result["applied"].append(made.entry())
            result["receipts"].append(
                {"operationId": op.id, "operationIndex": index, "affected": outcome.affected}
            )
        result["normalizations"] = ctx.normalizations
        if batch.atomic and failed:
            ctx.note_rollback(kept)
            kept.restore(self.doc)
            self._reject_rest(result, batch)
            result["status"] = "rejected"
        elif batch.dry_run:
            ctx.note_rollback(kept)
            kept.restore(self.doc)
            result["status"] = "previewed"
        result["nextRevisionId"] = stamper.next_revision_id
        if ctx.rolled_back:
            self._after_rollback(ctx)
        if result["status"] == "committed" and result["applied"]:
            package = self.doc.package
            clean = frozenset(p for p in kept.dirty_parts if package.has_part(p) and not package.is_dirty(p))
            self._commit(ctx, kept, self._added_comments(batch, result))
            # every id the batch minted came from this stamper and was added to the kept sets:
            # the reply after a new comment continues from them without scanning every part
            keep_stamper(self.doc, stamper)
            if seeds is not None:
                keep_seeds(self.doc, replace(seeds, stamper=stamper))
            self.last = UndoRecord(f"undo-{next(_handles)}", kept, self.doc.version, clean)
            result["undoHandle"] = {"type": "documentOperationUndo", "id": self.last.handle}
        self._stamper = (self.doc.version, stamper)
        return result

    @staticmethod
    def _added_comments(batch: Batch, result: dict[str, Any]) -> set[str] | None:
        """The comments a batch of nothing but comment operations added (None for any other batch)."""
        if not all(op.type in _COMMENT_TYPES for op in batch.operations):
            return None
        return {applied["commentId"] for applied in result["applied"]}

    def _current_stamper(self) -> Stamper:
        """The stamper of the last batch when nothing else changed the document since.

        Seeding a stamper scans every part for ids (~25 ms on a 300-page contract); an agent's
        batches follow each other, so the scan is paid once per outside change, not per batch.
        """
        if self._stamper is not None:
            version, stamper = self._stamper
            if version == self.doc.version and stamper.stamp is self.stamp:
                stamper.author = self.author
                return stamper
        return Stamper(self.doc, self.author, self.stamp)

    def undo(self, handle: dict[str, Any] | str) -> dict[str, Any]:
        """Undo the latest committed batch, if nothing changed the document since."""
        handle_id = handle.get("id") if isinstance(handle, dict) else handle
        undo_handle = {"type": "documentOperationUndo", "id": handle_id}
        if self.last is None or self.last.handle != handle_id:
            return {"status": "rejected", "undoHandle": undo_handle, "reason": "unknownHandle"}
        if self.doc.version != self.last.version_after:
            return {"status": "rejected", "undoHandle": undo_handle, "reason": "documentChanged"}
        self.last.checkpoints.restore(self.doc)
        package = self.doc.package
        for part in self.last.checkpoints.dirty_parts:
            if part in self.last.clean_before:
                package.mark_clean(part)  # restored exactly: save its original bytes
            elif package.has_part(part):  # parts the batch created are gone again
                package.mark_dirty(part)
        self.doc.reload_definitions()
        self.doc.structure_changed()
        self.last = None
        return {"status": "undone", "undoHandle": undo_handle}

    # ------------------------------------------------------------------ internals
    def _run(self, ctx: EditContext, batch: Batch, op: Operation) -> Outcome | Skip:
        ctx.operation_id = op.id
        ctx.checkpoints = Checkpoints()
        try:
            character = unwritable_character(op.fields)
            if character is not None:
                raise Skip(
                    "invalidResult",
                    f"its text contains {character}, a character a Word document cannot hold; "
                    "send the text without it",
                )
            if batch.mode not in modes_of(op.type) or batch.mode == "suggested":
                raise Skip("unsupportedMode")
            handler = HANDLERS.get(op.type)
            if handler is None:
                raise Skip("unsupportedMode", f"{op.type} is not available in this build")
            self._common_checks(ctx, op)
            outcome = handler(ctx, op)
            if "comment" in op.fields and op.type not in _COMMENT_TYPES:
                self._attach_comment(ctx, op, outcome)
            check(ctx.checkpoints.elements())
            return outcome
        except Skip as skip:
            self._roll_back(ctx)
            # returned as a value, it must not carry its traceback: the traceback's frames reach the
            # caller's frames, and a result holding it would keep a window alive in a reference cycle
            return skip.with_traceback(None)
        except InvalidResult as bad:
            self._roll_back(ctx)
            return Skip("invalidResult", str(bad))
        except Exception as exc:  # a handler bug must not corrupt the document or the batch
            log.exception("operation %s (%s) failed", op.id, op.type)
            self._roll_back(ctx)
            return Skip("invalidResult", f"{type(exc).__name__}: {exc}")

    def _attach_comment(self, ctx: EditContext, op: Operation, outcome: Outcome) -> None:
        """An edit's optional ``comment`` (the reason for it) becomes a Word comment on the change."""
        anchor = outcome.comment_anchor
        if anchor is None:
            block_id = target_block_id(op)
            block = ctx.snapshot.block(block_id) if block_id else None
            anchor = (block.element, None, None) if block is not None and block.element is not None else None
        if anchor is None or anchor[0].getparent() is None:
            ctx.normalize(
                f"operations[id={op.id}].comment", "the edited block no longer exists; no comment was added"
            )
            return
        comment_id = attach_comment(ctx, anchor[0], anchor[1], anchor[2], op.fields["comment"]["text"])
        outcome.comment_id = comment_id
        outcome.affected.append({"type": "comment", "commentId": comment_id})

    def _after_rollback(self, ctx: EditContext) -> None:
        """Nothing of the batch was kept: keep the snapshot when the rollback left every block's
        paragraph element in place (a dry run of text edits), so previewing a proposal does not
        cost the next read a walk of the whole document.

        A rollback restores content exactly, but an element restored in place gets copies of its
        children: restoring a table, a row or a cell replaces the paragraphs the snapshot holds,
        and restored styles or numbering must be read again.
        """
        definitions = {self.doc.part_name(xmlutil.REL_STYLES), self.doc.part_name(xmlutil.REL_NUMBERING)}
        root = self.doc.root
        replaced = any(
            el.tag != _P and next(el.iterancestors(_P), None) is None
            for el in ctx.rolled_back
            if el.getroottree().getroot() is root  # detached (created, then removed) or another part
        )
        if replaced or ctx.rolled_back_parts & definitions:
            self.doc.reload_definitions()
            self.doc.structure_changed()
            self._rollback_bumps += 1

    def _roll_back(self, ctx: EditContext) -> None:
        ctx.note_rollback(ctx.checkpoints)
        ctx.checkpoints.restore(self.doc)
        for edits in ctx.edited.values():
            edits[:] = [e for e in edits if e.operation_id != ctx.operation_id]
        ctx.changed_paragraphs = [p for p in ctx.changed_paragraphs if p.getparent() is not None]

    def _common_checks(self, ctx: EditContext, op: Operation) -> None:
        block_id = target_block_id(op)
        if block_id is None:
            return
        block = ctx.block(block_id)
        precondition = op.fields.get("precondition")
        if precondition and precondition.get("blockTextHash") != block.text_hash:
            raise Skip("preconditionFailed")
        earlier = next((e for e in ctx.edited.get(block_id, ()) if e.whole_block), None)
        if earlier is None and op.type in WHOLE_BLOCK:
            earlier = ctx.overlapping(block_id)
        if earlier is not None:
            raise Skip(
                "overlappingOperation", f'operation "{earlier.operation_id}" already changes this block'
            )
        if op.type in _WRITES_TEXT and block.mark_deleted and not block.normalized:
            raise Skip("pendingDeletion")

    def _skip(
        self, result: dict[str, Any], op: Operation, index: int, code: str, message: str | None = None
    ) -> None:
        result["skipped"].append({"id": op.id, "reason": reason_for(code, message)})
        result["issues"].append(issue_for(op.id, index, code, message))

    def _refuse_all(
        self, result: dict[str, Any], batch: Batch, code: str, message: str | None = None
    ) -> dict[str, Any]:
        """Skip every operation of the batch for one reason; nothing is applied."""
        for index, op in enumerate(batch.operations):
            self._skip(result, op, index, code, message)
        result["status"] = "rejected"
        return result

    def _reject_rest(self, result: dict[str, Any], batch: Batch) -> None:
        failed = {s["id"] for s in result["skipped"]}
        for index, op in enumerate(batch.operations):
            if op.id not in failed:
                self._skip(result, op, index, "atomicBatchRejected")
        result["applied"] = []
        result["receipts"] = []
        order = {op.id: i for i, op in enumerate(batch.operations)}
        result["skipped"].sort(key=lambda s: order[s["id"]])
        result["issues"].sort(key=lambda i: i["operationIndex"])

    def _commit(self, ctx: EditContext, kept: Checkpoints, comment_ids: set[str] | None) -> None:
        """Report the kept changes to the document: the paragraphs they changed when that is all,
        else the whole structure. ``comment_ids``: the batch only added these comments, so the
        comment readers re-read just them (adding one to 2,000 threads then costs no full reading).
        """
        for part in kept.dirty_parts:
            if self.doc.package.has_part(part):
                self.doc.package.mark_dirty(part)
        changed = set(ctx.changed_paragraphs)
        if ctx.structure_changed or not all(snapshot_keeps(e, changed) for e in kept.elements()):
            self.doc.reload_definitions()
            self.doc.structure_changed()
            return
        if comment_ids:
            note_changed(self.doc, comment_ids, list(dict.fromkeys(ctx.changed_paragraphs)))
        self.doc.paragraphs_changed(ctx.changed_paragraphs)

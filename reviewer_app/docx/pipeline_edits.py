"""The LLM pipeline's edit JSON applied as tracked changes and comments (``reviewer apply``).

A model that read the Markdown view (``reviewer read``, :mod:`.llm_view`) answers with
``{"modifications": [{blockIndex, originalContent, content, basis}]}`` and no operation names; this
module infers each operation, runs it through the edit engine as a contract batch (so it gets the
same checks, tracked markup and refusals as the agent's ``suggest_changes``), and reports one
status per modification: ``applied``, ``not found`` (with the block's current text, so the model
can retry), ``ambiguous`` (with the match count) or ``skipped`` (with the contract's reason).

Inference (seed §4): ``content`` non-empty is a replacement: ``replaceBlock`` when
``originalContent`` is the whole block (whitespace-normalized) or empty, else ``replaceInBlock``
of that text. ``content`` empty with ``originalContent`` is a deletion: ``deleteBlock`` for the
whole block, else ``replaceInBlock`` with ``replace: ""``. Both empty with ``basis`` is a comment
on the block (``commentOnBlock``). ``basis`` next to a replacement or deletion becomes a Word
comment on the change.

``blockIndex`` counts content blocks exactly as the view's ``<!-- b:N -->`` markers do
(:func:`indexed_blocks`). Indices are resolved once, against the document as the model read it,
to paragraph elements: a tracked deletion turns its block blank and would shift every later index
if blocks were counted again.

Decisions the seed leaves open:

* Models copy what they read, so when ``originalContent`` is not found verbatim it is tried again
  without the view's own markup (the heading ``#``, the list label, ``{+ +}``/``{- -}`` change
  marks, ``[comment ...]``, escaped table cells) and then with any whitespace between its words;
  ``content`` loses the same markup the match needed. A match found that way is noted.
* Operations of one batch that touch the same block overlap (contract §5.7), so modifications run
  in rounds of at most one operation per block: a block's second modification is matched, in the
  next round, against the text the first one left. Modifications of one block thus apply one
  after the other, in input order, and ``not found`` reports the block's text after every edit.
  (Several batches also mean ``undo_operations`` undoes only the last round.)
* ``basis`` rides on the operation's own ``comment`` field (contract §5.5), so the engine anchors
  it on the change and it stands or falls with the edit. For an applied edit that comes back
  without a comment id (an engine that does not honour ``comment`` for that type), a second batch
  comments on the edited block instead: on the new text when it occurs exactly once there, else
  on the whole block. Pure comments run in that second batch too, so they see the edited text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .blocks import Block
from .edit.skips import reason_for
from .hashing import normalize_text
from .reviewer import DocxReviewer

#: "proposed": in Review mode the edit waits in the review queue for the person to apply it
STATUSES = ("applied", "proposed", "not found", "ambiguous", "skipped")
#: Codes of skips that are reported as their own status rather than as ``skipped``.
_NOT_FOUND, _AMBIGUOUS, _OVERLAP = "missingFind", "ambiguousFind", "overlappingOperation"
_MODE = "tracked-changes"

_INSERTED = re.compile(r"\{\+(.*?)\+\}", re.S)
_DELETED = re.compile(r"\{-(.*?)-\}", re.S)
_COMMENT = re.compile(r" ?\[(?:comment|reply) #\d+ \(.*?\): .*?\]", re.S)


class PipelineEditError(ValueError):
    """The edit JSON as a whole has the wrong shape (no ``modifications`` list)."""


@dataclass(slots=True)
class _Mod:
    """One modification on its way through the rounds; ``record`` is what the caller gets."""

    index: int
    original: str
    content: str
    basis: str
    element: etree._Element | None
    record: dict[str, Any]
    op: dict[str, Any] | None = None
    quote: str = ""
    done: bool = False
    notes: list[str] = field(default_factory=list)


# ----------------------------------------------------------------- reading the input
def indexed_blocks(reviewer: DocxReviewer) -> list[Block]:
    """The blocks ``blockIndex`` counts: content blocks in reading order, as ``<!-- b:N -->`` does."""
    return reviewer.snapshot().content_blocks()


def modifications_of(data: Any) -> list[Any]:
    """The ``modifications`` list of the edit JSON (a bare list is accepted as that list)."""
    if isinstance(data, list):
        return data
    if isinstance(data, Mapping) and isinstance(data.get("modifications"), list):
        return data["modifications"]
    raise PipelineEditError('expected an object with a "modifications" array')


def _text_field(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{key} must be a string")
    return value if value.strip() else ""


def _block_index(entry: Mapping[str, Any]) -> int:
    value = entry.get("blockIndex")
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
        raise ValueError("blockIndex must be a whole number")
    return int(value)


# ----------------------------------------------------------------- matching originalContent
def _view_prefix(block: Block) -> re.Pattern[str] | None:
    """What the Markdown view puts before a block's text: heading marks, then the shown label."""
    parts = []
    if block.kind == "heading":
        parts.append(r"(?:#{1,6}\s+)?")
    label = block.display_label
    shown = block.kind == "listItem" or (block.kind == "heading" and block.list_reference is not None)
    if label and shown and not block.text.startswith(label):
        parts.append(rf"(?:{re.escape(label)}\s+)?")
    return re.compile("^" + "".join(parts)) if parts else None


def _strip_view_markup(text: str, block: Block) -> str:
    """``text`` without what the Markdown view adds around a block's clean text."""
    text = _COMMENT.sub("", text)
    text = _DELETED.sub("", text)
    text = _INSERTED.sub(r"\1", text)
    if block.table is not None:
        text = text.replace("\\|", "|").replace("<br>", "\n")
    prefix = _view_prefix(block)
    if prefix is not None:
        text = prefix.sub("", text, count=1)
    return text


def _count(text: str, find: str) -> int:
    """Occurrences of ``find`` in ``text``, overlapping ones included (as the engine counts)."""
    count, at = 0, text.find(find)
    while at >= 0:
        count += 1
        at = text.find(find, at + 1)
    return count


@dataclass(slots=True)
class _Match:
    kind: str  # "whole", "span", "missing", "ambiguous"
    find: str = ""
    count: int = 0
    cleaned: bool = False
    note: str = ""


def _locate(original: str, block: Block, text: str) -> _Match:
    """Where ``original`` is in the block's current clean ``text`` (see the module docstring)."""
    best = _Match("missing")
    variants = [(original, False)]
    stripped = _strip_view_markup(original, block)
    if stripped != original and stripped.strip():
        variants.append((stripped, True))
    for candidate, cleaned in variants:
        note = "matched without the Markdown view's markup" if cleaned else ""
        if normalize_text(candidate) == normalize_text(text):
            return _Match("whole", text, 1, cleaned, note)
        count = _count(text, candidate)
        if count == 1:
            return _Match("span", candidate, 1, cleaned, note)
        if count > 1:
            return _Match("ambiguous", candidate, count, cleaned, note)
        words = candidate.split()
        hits = list(re.finditer(r"\s+".join(map(re.escape, words)), text)) if words else []
        flexible = (note + "; " if note else "") + "matched with different whitespace"
        if len(hits) == 1:
            return _Match("span", hits[0].group(0), 1, cleaned, flexible)
        if len(hits) > 1 and best.kind == "missing":
            best = _Match("ambiguous", candidate, len(hits), cleaned, flexible)
    return best


# ----------------------------------------------------------------- inference
def _plan(mod: _Mod, block: Block, text: str) -> None:
    """Set ``mod.op`` (without blockId/id) or settle its record as not found / ambiguous / skipped."""
    record = mod.record
    match = _locate(mod.original, block, text) if mod.original else _Match("whole", text, 1)
    if match.note:
        mod.notes.append(match.note)
    content = mod.content
    if match.cleaned and content:
        content = _strip_view_markup(content, block)
    if match.kind == "missing":
        _settle(mod, "not found", f"originalContent is not in block {record['blockIndex']}", currentText=text)
        return
    if match.kind == "ambiguous":
        _settle(
            mod,
            "ambiguous",
            f"originalContent occurs {match.count} times in block {record['blockIndex']}; quote more of it",
            matches=match.count,
        )
        return
    if content and match.kind == "whole":
        mod.op = {"type": "replaceBlock", "text": content}
    elif content:
        mod.op = {"type": "replaceInBlock", "find": match.find, "replace": content}
    elif match.kind == "whole":
        mod.op = {"type": "deleteBlock"}
    else:
        mod.op = {"type": "replaceInBlock", "find": match.find, "replace": ""}
    if mod.basis:
        mod.op["comment"] = {"text": mod.basis}
    mod.quote = content
    record["operation"] = mod.op["type"]


def _settle(mod: _Mod, status: str, message: str, **details: Any) -> None:
    mod.done = True
    mod.record.update(status=status, message=message, **details)


def _skip_record(mod: _Mod, op: Mapping[str, Any], issue: Mapping[str, Any], reason: str, text: str) -> None:
    """Report an operation the engine refused, with the details the model needs to retry."""
    code = str(issue.get("code"))
    where = f"block {mod.record['blockIndex']}"
    if code == _NOT_FOUND:
        _settle(mod, "not found", f"originalContent is not in {where}", currentText=text)
    elif code == _AMBIGUOUS:
        count = _count(text, str(op.get("find", "")))
        _settle(
            mod,
            "ambiguous",
            f"originalContent occurs {count} times in {where}; quote more of it",
            matches=count,
        )
    else:
        _settle(mod, "skipped", reason, code=code, reason=reason)


# ----------------------------------------------------------------- running batches
@contextmanager
def _authored(reviewer: DocxReviewer, author: str | None) -> Iterator[None]:
    """Write this call's changes as ``author`` (the reviewer's own author when None)."""
    if author is None or author == reviewer.author:
        yield
        return
    before = reviewer.author
    reviewer.author = author
    try:
        yield
    finally:
        reviewer.author = before


def _current_blocks(reviewer: DocxReviewer) -> dict[etree._Element, Block]:
    return {b.element: b for b in reviewer.snapshot().blocks if b.element is not None}


def _run_batch(reviewer: DocxReviewer, ops: list[tuple[_Mod, dict[str, Any]]]) -> dict[str, Any]:
    batch = {"version": 1, "mode": _MODE, "operations": [op for _mod, op in ops]}
    return reviewer.apply_operations(batch)


def _outcomes(result: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, tuple[Any, str]]]:
    applied = {entry["id"]: entry for entry in result.get("applied", [])}
    reasons = {entry["id"]: entry["reason"] for entry in result.get("skipped", [])}
    skipped = {
        issue["operationId"]: (issue, reasons.get(issue["operationId"], "")) for issue in result["issues"]
    }
    return applied, skipped


def _receipt_comments(result: Mapping[str, Any]) -> dict[str, str]:
    """Operation id -> the comment its receipt names (where the engine reports a created comment)."""
    found: dict[str, str] = {}
    for receipt in result.get("receipts", []):
        for target in receipt.get("affected", []):
            if target.get("type") == "comment" and target.get("commentId") is not None:
                found[receipt["operationId"]] = str(target["commentId"])
    return found


def _revision_ids(entry: Mapping[str, Any]) -> list[str]:
    if "revisionIds" in entry:
        return list(entry["revisionIds"])
    return [entry["revisionId"]] if "revisionId" in entry else []


def _edit_rounds(reviewer: DocxReviewer, mods: list[_Mod]) -> None:
    """Run the edits as batches of at most one operation per block, in input order.

    A block's second modification waits for the next round and is matched against the text the
    first one left, so several modifications of one block apply one after the other, as written.
    """
    pending = [m for m in mods if not m.done and (m.original or m.content)]
    for round_number in range(1, len(pending) + 2):
        if not pending:
            return
        blocks = _current_blocks(reviewer)
        ops: list[tuple[_Mod, dict[str, Any]]] = []
        waiting: list[_Mod] = []
        taken: set[etree._Element] = set()
        for mod in pending:
            block = blocks.get(mod.element)
            if block is None:
                _settle(mod, "skipped", "the block is no longer in the document", code="missingBlock")
                continue
            if mod.element in taken:
                waiting.append(mod)
                continue
            taken.add(block.element)
            mod.record["blockId"] = block.id
            mod.op, mod.notes = None, []
            _plan(mod, block, block.text)
            if mod.op is not None:
                ops.append((mod, {"id": f"m{mod.index}-r{round_number}", "blockId": block.id, **mod.op}))
        if ops:
            result = _run_batch(reviewer, ops)
            applied, skipped = _outcomes(result)
            receipts = _receipt_comments(result)
            for mod, op in ops:
                if op["id"] in applied:
                    entry = applied[op["id"]]
                    _settle(mod, "applied", op["type"], revisionIds=_revision_ids(entry))
                    comment_id = entry.get("commentId") or receipts.get(op["id"])
                    if comment_id is not None:
                        mod.record["commentId"] = comment_id
                    continue
                issue, reason = skipped.get(op["id"], ({"code": "invalidResult"}, "not applied"))
                if issue.get("code") == _OVERLAP:  # not expected with one operation per block
                    waiting.append(mod)
                    continue
                _skip_record(mod, op, issue, reason, blocks[mod.element].text)
        pending = sorted(waiting, key=lambda m: m.index)
    for mod in pending:
        _settle(mod, "skipped", "the modification could not be scheduled", code=_OVERLAP)


def _comment_batch(reviewer: DocxReviewer, mods: list[_Mod]) -> None:
    """Comments: pure ones, and the basis of every applied edit that has no comment yet."""
    wanted = [
        m
        for m in mods
        if m.basis
        and "commentId" not in m.record
        and ((m.record.get("status") == "applied") or (not m.done and not m.original and not m.content))
    ]
    if not wanted:
        return
    blocks = _current_blocks(reviewer)
    ops: list[tuple[_Mod, dict[str, Any]]] = []
    for mod in wanted:
        block = blocks.get(mod.element)
        if block is None:
            _comment_failed(mod, "the block is no longer in the document", "missingBlock")
            continue
        mod.record["blockId"] = block.id
        op: dict[str, Any] = {
            "id": f"c{mod.index}",
            "type": "commentOnBlock",
            "blockId": block.id,
            "comment": {"text": mod.basis},
        }
        if mod.quote and _count(block.text, mod.quote) == 1 and mod.quote != block.text:
            op["quote"] = mod.quote
        ops.append((mod, op))
    if not ops:
        return
    applied, skipped = _outcomes(_run_batch(reviewer, ops))
    for mod, op in ops:
        if op["id"] in applied:
            mod.record["commentId"] = applied[op["id"]].get("commentId")
            if not mod.done:
                _settle(mod, "applied", "commentOnBlock")
            continue
        issue, reason = skipped.get(op["id"], ({"code": "invalidResult"}, "not applied"))
        _comment_failed(mod, reason, str(issue.get("code")))


def _comment_failed(mod: _Mod, reason: str, code: str) -> None:
    if mod.done:  # the edit stands; only its comment is missing
        mod.record["commentSkipped"] = reason
    else:
        _settle(mod, "skipped", reason, code=code, reason=reason)


# ----------------------------------------------------------------- entry points
def _read_mods(entries: list[Any], blocks: list[Block]) -> list[_Mod]:
    """One :class:`_Mod` per entry; an entry that is malformed or names no block is settled here."""
    mods: list[_Mod] = []
    for index, entry in enumerate(entries):
        record: dict[str, Any] = {"index": index, "blockIndex": None, "blockId": None, "operation": None}
        mod = _Mod(index, "", "", "", None, record)
        mods.append(mod)
        if not isinstance(entry, Mapping):
            _settle(mod, "skipped", "the modification is not an object", code="invalidModification")
            continue
        try:
            record["blockIndex"] = _block_index(entry)
            mod.original = _text_field(entry, "originalContent")
            mod.content = _text_field(entry, "content")
            mod.basis = _text_field(entry, "basis")
        except ValueError as exc:
            _settle(mod, "skipped", str(exc), code="invalidModification")
            continue
        if not 0 <= record["blockIndex"] < len(blocks):
            _settle(
                mod,
                "not found",
                f"there is no block {record['blockIndex']} (the document has blocks 0 to {len(blocks) - 1})",
                currentText=None,
            )
            continue
        block = blocks[record["blockIndex"]]
        mod.element, record["blockId"] = block.element, block.id
        if block.element is None:  # a read-only diagnostic block (embedded content): not editable
            reason = reason_for("unsupportedBlock")
            _settle(mod, "skipped", reason, code="unsupportedBlock", reason=reason)
            continue
        if not (mod.original or mod.content):
            record["operation"] = "commentOnBlock"
        if not (mod.original or mod.content or mod.basis):
            _settle(
                mod,
                "skipped",
                "originalContent, content and basis are all empty; nothing to apply",
                code="emptyOperation",
            )
    return mods


def plan_operations(
    blocks: list[Block], data: Any, id_prefix: str = "m"
) -> list[tuple[dict[str, Any], str | None, dict[str, Any]]]:
    """Each modification's record and the agent tool call it becomes, without applying anything.

    For a caller that runs the calls itself (the agent's pipeline fallback sends them through
    ``suggest_changes`` and ``add_comment``, so they become tracked changes or review proposals
    exactly as the model's own calls would). Returns ``(record, tool, input)`` in input order:
    ``tool`` is ``"suggest_changes"`` with one operation (id ``<id_prefix><index>``: an id names
    one operation for the whole document session, so each call needs a fresh prefix; the ``basis`` as its
    comment), ``"add_comment"`` for a pure comment, or None when the record is already settled
    (``not found``, ``ambiguous`` or ``skipped``, as :func:`apply_pipeline_edits` reports them).
    Every modification is matched against the block as read, so a block's second modification
    may be refused by the engine as overlapping; the caller reports that as ``skipped``.
    Raises :class:`PipelineEditError` when ``data`` has no modifications list.
    """
    out: list[tuple[dict[str, Any], str | None, dict[str, Any]]] = []
    for mod in _read_mods(modifications_of(data), blocks):
        if mod.done:
            out.append((mod.record, None, {}))
            continue
        block = blocks[mod.record["blockIndex"]]
        if not (mod.original or mod.content):
            out.append((mod.record, "add_comment", {"blockId": block.id, "text": mod.basis}))
            continue
        _plan(mod, block, block.text)
        if mod.notes:
            mod.record["notes"] = mod.notes
        if mod.op is None:
            out.append((mod.record, None, {}))
            continue
        op = {"id": f"{id_prefix}{mod.index}", "blockId": block.id, **mod.op}
        if mod.basis:
            op["comment"] = mod.basis
        out.append((mod.record, "suggest_changes", op))
    return out


def apply_pipeline_edits(
    reviewer: DocxReviewer, data: Any, author: str | None = None
) -> list[dict[str, Any]]:
    """Apply the pipeline's edit JSON to ``reviewer``; return one record per modification.

    Records, in input order: ``index`` (position in ``modifications``), ``blockIndex``,
    ``blockId`` (null when the index names no block), ``operation`` (the inferred type),
    ``status`` (one of :data:`STATUSES`), ``message`` (one line for people), and per status
    ``revisionIds``/``commentId``/``commentSkipped`` (applied), ``currentText`` (not found),
    ``matches`` (ambiguous), ``code``/``reason`` (skipped); ``notes`` when the match needed the
    leniency described in the module docstring. Changes are written as ``author`` (default: the
    reviewer's author). Raises :class:`PipelineEditError` when ``data`` has no modifications list.
    """
    blocks = indexed_blocks(reviewer)
    mods = _read_mods(modifications_of(data), blocks)
    with _authored(reviewer, author):
        _edit_rounds(reviewer, mods)
        _comment_batch(reviewer, mods)
    final = _current_blocks(reviewer)
    for mod in mods:
        if mod.record.get("status") == "not found" and mod.element in final:
            mod.record["currentText"] = final[mod.element].text  # as the output reads, after every edit
        if mod.notes:
            mod.record["notes"] = mod.notes
        if not mod.done:  # cannot happen; never report a modification without a status
            _settle(mod, "skipped", "the modification was not applied", code="invalidResult")
    return [m.record for m in mods]


def status_line(record: Mapping[str, Any]) -> str:
    """One line per modification for people: ``[0] b:12 applied: replaceInBlock (comment 7)``."""
    where = f"b:{record['blockIndex']}" if record.get("blockIndex") is not None else "b:?"
    status = record["status"]
    if status in ("applied", "proposed"):
        detail = str(record.get("operation") or "")
        if record.get("commentId") is not None:
            detail += f" (comment {record['commentId']})"
        if record.get("commentSkipped"):
            detail += f" (comment not added: {record['commentSkipped']})"
    elif status == "not found" and record.get("currentText") is not None:
        detail = f"{record['message']}; its current text: {_quoted(record['currentText'])}"
    else:
        detail = str(record.get("message") or "")
    if record.get("notes"):
        detail += f" [{'; '.join(record['notes'])}]"
    return f"[{record['index']}] {where} {status}: {detail}"


def _quoted(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return '"' + (flat if len(flat) <= limit else flat[: limit - 1] + "…") + '"'


def summary(records: list[Mapping[str, Any]]) -> str:
    """``3 applied, 1 not found`` (statuses with a count, in :data:`STATUSES` order)."""
    counts = [(s, sum(1 for r in records if r["status"] == s)) for s in STATUSES]
    shown = [f"{n} {s}" for s, n in counts if n]
    return ", ".join(shown) if shown else "no modifications"

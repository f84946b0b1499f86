"""Deleting a Word comment the way Word does: a top-level comment goes with its replies; a reply alone.

A person deletes comments (their own notes before a draft goes out, a thread that is settled);
the comment must then leave every place Word keeps it (ooxml-rules §5.8): its words in
``comments.xml``, its thread entry in ``commentsExtended.xml``, its durable id in
``commentsIds.xml`` and that id's date in ``commentsExtensible.xml``, and its anchor (range
markers and reference run) in the story. Leaving any of them behind makes Word drop or misplace
other threads. ``people.xml`` is kept: the author may have other comments. Changes are reported
through :class:`~.edit.comment_parts.Recorder`, so the person's undo restores the comment exactly.
"""

from __future__ import annotations

from lxml import etree

from .comments import CommentRecord, comment_records
from .document import WordDocument
from .edit.comment_parts import PART_SPECS, W16CEX, W16CID, Recorder
from .vocabulary import REVISION_WRAPPERS
from .xmlutil import W


def delete_comment(doc: WordDocument, comment_id: str) -> list[str]:
    """Delete comment ``comment_id`` (with its replies when it starts a thread).

    Returns the ids deleted, in document order of the records (empty when there is no such comment).
    """
    records = comment_records(doc)
    target = next((r for r in records if r.id == str(comment_id)), None)
    if target is None:
        return []
    if target.thread_id in ("", target.id):  # a thread's first comment: the replies go with it
        doomed = [r for r in records if r.id == target.id or r.thread_id == target.id]
    else:
        doomed = [target]
    rec = Recorder(doc)
    parts = _existing_parts(doc)
    for record in doomed:
        _remove_anchor(record, rec)
        _remove_entries(record, parts, rec)
    rec.note_comments(r.id for r in doomed)
    rec.finish()
    return [r.id for r in doomed]


def _existing_parts(doc: WordDocument) -> dict[str, tuple[str, etree._Element]]:
    """The comment parts this document has, by key (deleting never creates one)."""
    found: dict[str, tuple[str, etree._Element]] = {}
    for spec in PART_SPECS:
        name = doc.package.related_part(doc.main_part, spec.rel_type.rsplit("/", 1)[-1])
        if name is not None:
            found[spec.key] = (name, doc.package.xml(name))
    return found


def _remove(element: etree._Element | None, part: str | None, rec: Recorder, marker: bool = False) -> None:
    """Detach ``element``, and any revision wrapper it leaves empty, reporting the change first
    (``marker``: it is a comment marker or its reference run, which hold no text)."""
    if element is None or part is None:
        return
    parent = element.getparent()
    if parent is None:
        return
    rec.touch(parent, part, markers_only=marker)
    parent.remove(element)
    while parent.tag in REVISION_WRAPPERS and len(parent) == 0:
        grand = parent.getparent()
        if grand is None:
            break
        rec.touch(grand, part, markers_only=marker)
        grand.remove(parent)
        parent = grand


def _remove_anchor(record: CommentRecord, rec: Recorder) -> None:
    part = record.anchor_part
    _remove(record.range_start, part, rec, marker=True)
    _remove(record.range_end, part, rec, marker=True)
    reference = record.reference
    if reference is not None:
        run = reference.getparent()
        only_reference = (
            run is not None
            and run.tag == W + "r"
            and all(child is reference or child.tag == W + "rPr" for child in run)
        )
        _remove(run if only_reference else reference, part, rec, marker=True)


def _remove_entries(
    record: CommentRecord, parts: dict[str, tuple[str, etree._Element]], rec: Recorder
) -> None:
    comments = parts.get("comments")
    if comments is not None:
        _remove(record.element, comments[0], rec)
    extended = parts.get("extended")
    if extended is not None:
        _remove(record.extended, extended[0], rec)
    last_para = next((p for p in reversed(record.para_ids) if p), None)
    ids = parts.get("ids")
    if ids is None or last_para is None:
        return
    durable_ids = []
    for entry in list(ids[1].iterchildren(W16CID + "commentId")):
        if entry.get(W16CID + "paraId") == last_para:
            durable_ids.append(entry.get(W16CID + "durableId"))
            _remove(entry, ids[0], rec)
    extensible = parts.get("extensible")
    if extensible is not None:
        for entry in list(extensible[1].iterchildren(W16CEX + "commentExtensible")):
            if entry.get(W16CEX + "durableId") in durable_ids:
                _remove(entry, extensible[0], rec)

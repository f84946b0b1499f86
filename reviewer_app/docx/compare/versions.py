"""``compare_docx_versions``: two versions of a document, compared block by block (contract §10).

Both versions are read as accepted (pending changes count as applied: the snapshot's clean text
already is that view, and a version whose pending changes would reshape its blocks is resolved
first, see :mod:`.inputs`). Stories pair up (:mod:`.stories`), each pair is aligned (:mod:`.align`) and
its events become changes in revised order, deletions and move sources slotted where they sat:
``modified`` with word segments, ``formatChanged`` with the run properties that differ,
``added``/``deleted``, and ``movedFrom``/``movedTo`` for a deleted and an added block with the
same text of at least three words. Counts cover every block, unchanged ones included; ``moved``
counts pairs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

from ..worddiff import diff_segments
from .align import align
from .errors import CompareOptionError
from .formatting import changed_properties
from .inputs import open_resolved
from .metadata import metadata_changes, read_properties
from .model import Budget, entries, word_count_at_least
from .privacy import apply_to_diff, empty_report, resolve_transforms
from .stories import Story, pair_stories, read_stories

SCOPES = ("text", "formatting", "metadata")
DEFAULT_SCOPES = ("text", "formatting")
#: A deleted and an added block with the same text are a move from this many words on.
MOVE_MINIMUM_WORDS = 3


def resolve_scopes(include: Any) -> set[str]:
    """The comparison scopes; :class:`CompareOptionError` for an empty or unknown selection."""
    chosen = DEFAULT_SCOPES if include is None else include
    if isinstance(chosen, str) or not isinstance(chosen, Iterable):
        chosen = [chosen]
    chosen = list(chosen)
    if not chosen or any(scope not in SCOPES for scope in chosen):
        raise CompareOptionError(
            "include",
            include,
            "Version comparison requires at least one recognized scope (text, formatting, metadata).",
        )
    return set(chosen)


def empty_counts() -> dict[str, int]:
    return {
        "added": 0,
        "deleted": 0,
        "modified": 0,
        "formatChanged": 0,
        "moved": 0,
        "metadataChanged": 0,
        "unchanged": 0,
    }


def _detect_moves(changes: list[dict[str, Any]], counts: dict[str, int], first_group: int) -> None:
    """Deleted + added blocks with identical text (≥3 words) become a move, first-to-first."""
    waiting: dict[str, list[int]] = {}
    for index, change in enumerate(changes):
        if change["type"] == "deleted" and word_count_at_least(change["_key"], MOVE_MINIMUM_WORDS):
            waiting.setdefault(change["_key"], []).append(index)
    if not waiting:
        return
    group = first_group - 1
    for change in changes:
        if change["type"] != "added" or not waiting.get(change["_key"]):
            continue
        source = changes[waiting[change["_key"]].pop(0)]
        group += 1
        source["type"], change["type"] = "movedFrom", "movedTo"
        source["moveGroupId"] = change["moveGroupId"] = group
        counts["deleted"] -= 1
        counts["added"] -= 1
        counts["moved"] += 1


def _change(kind: str, entry: Any, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "blockId": entry.block.id, "kind": entry.block.kind, **fields}


def compare_story(
    base: Story | None, revised: Story | None, scopes: set[str], budget: Budget, first_group: int
) -> dict[str, Any]:
    """The ``FolioStoryDiff`` of one story pair (either side may be missing)."""
    base_handle = base.handle if base is not None else None
    revised_handle = revised.handle if revised is not None else None
    changes: list[dict[str, Any]] = []
    counts = empty_counts()
    text, formatting = "text" in scopes, "formatting" in scopes
    events = align(entries(base.blocks if base else []), entries(revised.blocks if revised else []), budget)
    for event in events:
        b, r = event.base, event.revised
        if b is not None and r is not None:
            handles = {
                "baseHandle": {"story": base_handle, "blockId": b.block.id},
                "revisedHandle": {"story": revised_handle, "blockId": r.block.id},
            }
            if b.key != r.key:
                if not text:
                    counts["unchanged"] += 1
                    continue
                counts["modified"] += 1
                segments = diff_segments(b.block.text, r.block.text, partial(budget.take, "words"))
                changes.append(_change("modified", r, segments=segments, **handles))
                continue
            props = changed_properties(b.block, r.block) if formatting else []
            if props:
                counts["formatChanged"] += 1
                extra = {"text": r.block.text, "changedProperties": props}
                changes.append(_change("formatChanged", r, **extra, **handles))
            else:
                counts["unchanged"] += 1
        elif not text:
            continue
        elif b is not None:
            counts["deleted"] += 1
            handle = {"story": base_handle, "blockId": b.block.id}
            changes.append(_change("deleted", b, text=b.block.text, baseHandle=handle, _key=b.key))
        elif r is not None:
            counts["added"] += 1
            handle = {"story": revised_handle, "blockId": r.block.id}
            changes.append(_change("added", r, text=r.block.text, revisedHandle=handle, _key=r.key))
    _detect_moves(changes, counts, first_group)
    for change in changes:
        change.pop("_key", None)
    return {
        "baseStory": base_handle,
        "revisedStory": revised_handle,
        "changes": changes,
        "summaryCounts": counts,
    }


def compare_docx_versions(
    base: Any, revised: Any, include: Any = DEFAULT_SCOPES, privacy: Any = None
) -> dict[str, Any]:
    """Compare two versions (paths, bytes or open reviewers); the contract's ``FolioVersionDiff``.

    Raises :class:`~.errors.CompareOptionError` for an invalid ``include`` or privacy transform,
    :class:`~.errors.CompareInputError` when a document cannot be opened safely.
    """
    scopes = resolve_scopes(include)
    transforms = resolve_transforms(privacy)
    base_reviewer = open_resolved(base, "base", "final")
    revised_reviewer = open_resolved(revised, "revised", "final")
    budget = Budget()
    diff: dict[str, Any] = {
        "changes": [],
        "stories": [],
        "metadataChanges": [],
        "privacyReport": empty_report(),
        "summaryCounts": empty_counts(),
    }
    totals = diff["summaryCounts"]
    group = 1
    for b, r in pair_stories(read_stories(base_reviewer.document), read_stories(revised_reviewer.document)):
        story = compare_story(b, r, scopes, budget, group)
        diff["stories"].append(story)
        diff["changes"].extend(story["changes"])
        for key, value in story["summaryCounts"].items():
            totals[key] += value
        group += story["summaryCounts"]["moved"]
    if "metadata" in scopes:
        base_props = read_properties(base_reviewer.package, "base")
        revised_props = read_properties(revised_reviewer.package, "revised")
        diff["metadataChanges"] = metadata_changes(base_props, revised_props)
        totals["metadataChanged"] = len(diff["metadataChanges"])
    return apply_to_diff(diff, transforms)

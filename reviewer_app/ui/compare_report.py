"""What a redline could not show, in words, for a banner over the redline window.

A comparison marks most differences as tracked changes, but some cannot be written that way: a
footnote or header only one version has, a difference the edit engine refused, a paragraph style
the older version does not define. A lawyer who trusts the redline to show *everything* the other
side changed must be told, in the window, what to check by hand; the result's ``skipped``,
``unprocessedStories`` and ``referenceWarnings`` become one sentence and a detailed list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from .plurals import count_text

#: how a story kind reads in a sentence, one and many
_KINDS = {
    "footnote": ("{n} footnote", "{n} footnotes"),
    "endnote": ("{n} endnote", "{n} endnotes"),
    "header": ("{n} header", "{n} headers"),
    "footer": ("{n} footer", "{n} footers"),
    "comment": ("{n} comment", "{n} comments"),
    "textBox": ("{n} text box", "{n} text boxes"),
}
#: most detail lines listed; the rest are counted
_MAX_DETAILS = 25


def _tr(text: str) -> str:
    return QCoreApplication.translate("CompareReport", text)


def _story_kind(entry: Mapping[str, Any]) -> str:
    story = entry.get("baseStory") or entry.get("revisedStory") or {}
    return str(story.get("type") or "part")


def incomplete_redline(result: Mapping[str, Any], older: str) -> tuple[str, str] | None:
    """``(sentence, details)`` naming what the redline from ``older`` does not show; None when
    it shows every difference. ``result`` is :func:`~reviewer_app.docx.compare.generate_redline_docx`'s."""
    parts: list[str] = []
    details: list[str] = []
    skipped = list(result.get("skipped") or [])
    if skipped:
        parts.append(
            count_text(
                len(skipped),
                "{n} difference could not be marked as a tracked change",
                "{n} differences could not be marked as tracked changes",
            )
        )
        details.extend(str(s.get("reason") or s.get("message") or s) for s in skipped)
    unprocessed = list(result.get("unprocessedStories") or [])
    stories = Counter((_story_kind(e), e.get("reason")) for e in unprocessed)
    for entry in unprocessed:
        story = entry.get("baseStory") or entry.get("revisedStory") or {}
        name = " ".join(str(v) for k, v in story.items() if k in ("type", "noteId", "relationshipId"))
        if entry.get("reason") == "missing-base-story":
            details.append(_tr("{name}: only this version has it").format(name=name))
        else:
            details.append(_tr("{name}: only {older} has it").format(name=name, older=older))
    for (kind, reason), count in sorted(stories.items()):
        one, many = _KINDS.get(kind, ("{n} other part", "{n} other parts"))
        what = count_text(count, one, many)
        if reason == "missing-base-story":
            parts.append(_tr("{what} added since {older} not marked").format(what=what, older=older))
        else:
            parts.append(_tr("{what} of {older} missing here not marked").format(what=what, older=older))
    warnings = list(result.get("referenceWarnings") or [])
    for warning in warnings:
        details.append(str(warning.get("message") or warning))
    styles = sum(int(w.get("paragraphs") or 0) for w in warnings)
    if styles:
        parts.append(
            count_text(styles, "{n} paragraph's new style not shown", "{n} paragraphs' new styles not shown")
        )
    if not parts:
        return None
    sentence = _tr("This redline does not show everything: {parts}. Check these by hand.").format(
        parts="; ".join(parts)
    )
    shown = details[:_MAX_DETAILS]
    if len(details) > len(shown):
        shown.append(count_text(len(details) - len(shown), "…and {n} more", "…and {n} more"))
    return sentence, "\n".join(shown)

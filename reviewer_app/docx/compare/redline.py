"""``generate_redline_docx``: the base package with the revised version's differences as tracked changes.

The base is opened as a copy (the caller's input never changes) and resolved to its chosen view
first (``final`` accepts its pending changes, ``original`` rejects them), so the redline holds only
the comparison's own changes. The revised version is read as ``final`` or ``original`` the same
way. Stories pair up; each paired story is aligned, planned (:mod:`.redline_plan`) and written
through the edit engine in several kinds of pass: the plan itself; fallbacks for operations the
engine refused (a row it cannot delete loses its words instead; a change spanning a note
reference is written around it); paired paragraphs' property changes (``w:pPrChange``, a pass of
their own since the text change of the same paragraph may be in the first); insertions at the
story's end when a new table is among them; and the splits that cut paragraphs added inside a
table cell off their host. After its words, a story's equations, pictures and drawings are
written whole (:mod:`.unit_changes`). Text boxes are
stories too (:mod:`.stories`); footnotes and endnotes only one version has are written as
inserted or deleted notes with their references, and a note the base left with no paragraph
gets the revised one's inserted (:mod:`.note_changes`). Headers and footers only one version
has get their text inserted (the part copied in and referenced from its section) or deleted
(:mod:`.header_footer`); a section whose page setup changed gets a ``w:sectPrChange``, a
section break added is a paragraph with an inserted mark carrying the new ``w:sectPr``, and one
removed has its mark deleted (:mod:`.sections`). Another story only
one version has (but a text box drawn in a drawing written whole) cannot be written as a
tracked change and is reported in ``unprocessedStories``. Comments and replies only the
revised version has are carried over by their authors (:mod:`.comment_report`). What a story's
redline cannot write (a drawing linked to a file outside the package: :mod:`.units`) and a
comment it cannot carry (one in a note, or on a paragraph it added) are listed in ``skipped``
with a ``reason`` and a ``place``.
Refusals the engine makes are reported in ``skipped`` with its reason, except a blank paragraph
it must keep (one that ends a section or a cell): that is layout, not text.

Lists and paragraph styles the revised version's paragraphs use are mapped to the base's, and
copied into the base's numbering and styles parts when it lacks them (:mod:`.numbering_import`,
:mod:`.style_import`).

All revisions of one redline share one date and one author, draw ids from one counter across
every part, and new paragraphs get paraIds no other part uses.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from typing import Any

from lxml import etree

from ..document import WordDocument
from ..edit.batch import ContractError, parse_batch
from ..edit.engine import Applier
from ..edit.stamp import RevisionStamp, Stamper, utc_now
from ..stories import story_blocks
from ..xmlutil import W14, W
from .align import Event, align
from .comment_report import carry_new_comments
from .errors import CompareOptionError
from .header_footer import HeaderFooterChanges
from .inputs import open_resolved
from .model import Budget, entries
from .note_changes import NoteChanges, note_not_placed
from .numbering_import import NumberingImport
from .paragraph_props import RevisedProperties
from .privacy import apply_to_package, resolve_transforms
from .redline_ops import SPLIT_SEPARATOR, Planned, StoryPlan
from .redline_plan import plan_story
from .sections import track_section_changes
from .stories import Story, StoryDocument, pair_stories, read_stories, story_roots
from .style_import import StyleImport
from .unit_changes import UnitWriter
from .units import UnitReader, unit_report

DEFAULT_AUTHOR = "Reviewer compare"
VIEWS = ("original", "final")
_P, _TR, _TBL, _PARA_ID = W + "p", W + "tr", W + "tbl", W14 + "paraId"


def _check_view(option: str, value: Any) -> str:
    if value not in VIEWS:
        raise CompareOptionError(option, value, f"{option} must be original or final.")
    return value


class _Writer:
    """Applies story plans to the base document and collects what was applied and refused."""

    def __init__(self, doc: WordDocument, author: str) -> None:
        self.doc = doc
        self.author = author
        self.date = utc_now()
        self.floor = Stamper(doc, author).next_revision_id - 1
        self.op_ids = itertools.count(1)
        self.applied: list[dict[str, Any]] = []
        self.skipped: list[dict[str, Any]] = []

    def refuse(self, reason: str) -> None:
        self.skipped.append({"id": f"redline-{next(self.op_ids)}", "reason": reason})

    def report(self, left_out: list[dict[str, Any]]) -> None:
        """Differences found but not written (``reason`` and ``place``), listed with the refusals."""
        self.skipped.extend({"id": f"redline-{next(self.op_ids)}", **entry} for entry in left_out)

    def write(self, story: Story, plan: StoryPlan) -> None:
        """Apply ``plan`` to ``story`` of the base document: the plan, fallbacks, then splits."""
        for reason in plan.refused:
            self.refuse(reason)
        first = plan.first_pass
        if not first and not plan.tail and not plan.properties:
            return
        main = story.handle["type"] == "main"
        doc = self.doc if main else StoryDocument(self.doc, story.part, story.container)
        applier = Applier(doc, self.author, RevisionStamp(self.date, self.floor))
        done = self._pass(doc, applier, first)
        fallbacks = [f for p in first if done.get(id(p)) is False for f in p.fallback]
        if fallbacks:
            self._pass(doc, applier, fallbacks)
        if plan.properties:
            self._pass(doc, applier, plan.properties)
        if plan.tail:
            sentinel = _following(plan.tail_after) if plan.tail_after is not None else None
            for planned in plan.tail:
                planned.target = sentinel if sentinel is not None and sentinel.tag == _P else None
            self._pass(doc, applier, plan.tail)
        hosts = {p.target for p in first if p.op["type"] == "replaceBlock" and done.get(id(p))}
        splits = [s for s in plan.splits if s.host in hosts]
        while splits:
            batch = [
                Planned(
                    {"type": "splitBlock", "offset": s.offsets.pop(), "separator": SPLIT_SEPARATOR}, s.host
                )
                for s in splits
            ]
            result = self._pass(doc, applier, batch)
            splits = [s for s, p in zip(splits, batch, strict=True) if s.offsets and result.get(id(p))]

    def write_units(
        self,
        story: Story,
        events: list[Event],
        base: UnitReader,
        revised: UnitReader,
        before: set[etree._Element],
    ) -> set[etree._Element]:
        """Write the story's equations and drawings changed (:mod:`.unit_changes`) after its
        words; report what could not be. ``before``: the story's paragraphs before its write.
        Returns the units written whole."""
        made = [p for p in story.container.iter(_P) if p not in before]
        units = UnitWriter(
            base, revised, lambda: Stamper(self.doc, self.author, RevisionStamp(self.date, self.floor))
        )
        self.report(unit_report(units.write(events, made), base, revised, story.handle))
        if units.next_revision_id is not None:
            self.floor = max(self.floor, units.next_revision_id - 1)
            self.doc.package.mark_dirty(story.part)
        return units.carried

    def _pass(self, doc: WordDocument, applier: Applier, planned: list[Planned]) -> dict[int, bool]:
        """Send ``planned`` as one batch; return, per planned op, whether it applied.

        A refused op with a fallback is not reported (its fallback is); one the contract parser
        rejects is reported with the parser's message and left out of the batch.
        """
        blocks = {b.element: b for b in doc.snapshot().blocks if b.element is not None}
        ops: list[dict[str, Any]] = []
        by_id: dict[str, Planned] = {}
        blank_deletes: set[str] = set()
        outcome: dict[int, bool] = {}
        for p in planned:
            block = blocks.get(p.target)
            if block is None:
                outcome[id(p)] = False
                if not p.fallback:
                    self.refuse(f"{p.op['type']}: its target paragraph is no longer in the story")
                continue
            op = {"id": f"redline-{next(self.op_ids)}", **p.op}
            if "range" in op:
                op["range"] = {**op["range"], "blockId": block.id}
            else:
                op["blockId"] = block.id
            if op["type"] == "deleteBlock" and not block.normalized:
                blank_deletes.add(op["id"])
            ops.append(op)
            by_id[op["id"]] = p
        ops = self._valid(ops, by_id, outcome)
        if not ops:
            return outcome
        result = applier.apply({"version": 1, "mode": "tracked-changes", "operations": ops})
        self.floor = max(self.floor, result["nextRevisionId"] - 1)
        self.applied.extend(result["applied"])
        for entry in result["applied"]:
            outcome[id(by_id[entry["id"]])] = True
        noop = {issue["operationId"] for issue in result["issues"] if issue["code"] == "noopOperation"}
        for entry in result["skipped"]:
            p = by_id[entry["id"]]
            outcome[id(p)] = False
            if p.fallback or (entry["id"] in noop and entry["id"] in blank_deletes):
                continue  # a blank paragraph the engine must keep (it ends a section or a cell)
            self.skipped.append(entry)
        return outcome

    def _valid(
        self, ops: list[dict[str, Any]], by_id: dict[str, Planned], outcome: dict[int, bool]
    ) -> list[dict[str, Any]]:
        """The ops the contract parser accepts (one bad op must not sink the whole story)."""
        try:
            parse_batch({"version": 1, "operations": ops})
            return ops
        except ContractError:
            pass
        good = []
        for op in ops:
            try:
                parse_batch({"version": 1, "operations": [op]})
                good.append(op)
            except ContractError as exc:
                outcome[id(by_id[op["id"]])] = False
                self.skipped.append({"id": op["id"], "reason": f"{op['type']} could not be expressed: {exc}"})
        return good


def _write_twin(
    writer: _Writer, twin: Story, revised: Story, props: RevisedProperties, budget: Budget
) -> None:
    """Write a text box's fallback copy like the box itself, so a reader of either sees the same
    change; what it refuses repeats what the box refused and is reported once."""
    reported = len(writer.skipped)
    events = align(entries(twin.blocks), entries(revised.blocks), budget)
    writer.write(twin, plan_story(events, props, budget, itertools.count(1)))
    del writer.skipped[reported:]


def _following(el: etree._Element) -> etree._Element | None:
    """The block after ``el`` (after its outermost table when ``el`` sits in one)."""
    tables = list(el.iterancestors(_TBL))
    return (tables[-1] if tables else el).getnext()


def _para_id_holders(roots: Iterable[tuple[str, etree._Element]]) -> Iterable[tuple[str, etree._Element]]:
    for name, root in roots:
        for el in root.iter(_P, _TR):
            if el.get(_PARA_ID):
                yield name, el


def _unique_para_ids(doc: WordDocument, before: set[etree._Element]) -> None:
    """New paragraphs whose paraId another part already uses get a fresh one (ooxml-rules §5.8).

    Each story's batch mints paraIds unique within its own part; only across parts can two meet.
    Paragraphs the input already had keep theirs, duplicates included (not ours to change).
    """
    roots = story_roots(doc)
    used = {el.get(_PARA_ID, "").upper() for _, el in _para_id_holders(roots)}
    seen: set[str] = {el.get(_PARA_ID, "").upper() for el in before}
    rng = random.Random(len(used))
    for name, el in _para_id_holders(roots):
        if el in before:
            continue
        value = el.get(_PARA_ID, "").upper()
        if value in seen:
            fresh = value
            while fresh in used:
                fresh = format(rng.randrange(1, 0x80000000), "08X")
            used.add(fresh)
            el.set(_PARA_ID, fresh)
            doc.package.mark_dirty(name)
            value = fresh
        seen.add(value)


def generate_redline_docx(
    base: Any,
    revised: Any,
    author: str = DEFAULT_AUTHOR,
    base_view: str = "final",
    revised_view: str = "final",
    privacy: Any = None,
) -> dict[str, Any]:
    """The base package with the differences to ``revised`` written as tracked changes (contract §10).

    Returns ``{buffer, applied, skipped, unprocessedStories, referenceWarnings, privacyReport}``;
    ``referenceWarnings`` names revised paragraph styles that could not be carried into the base
    (defined in neither version as paragraph styles; those style changes are left out). Raises
    :class:`~.errors.CompareOptionError` for a bad view, author or privacy transform and
    :class:`~.errors.CompareInputError` when a document cannot be opened safely.
    """
    _check_view("baseView", base_view)
    _check_view("revisedView", revised_view)
    if not isinstance(author, str) or not author.strip():
        raise CompareOptionError("author", author, "author must be a non-empty name.")
    transforms = resolve_transforms(privacy)
    base_reviewer = open_resolved(base, "base", base_view, copy=True, author=author, whole=True)
    revised_reviewer = open_resolved(revised, "revised", revised_view)
    doc = base_reviewer.document
    before = {el for _, el in _para_id_holders(story_roots(doc))}
    writer = _Writer(doc, author)
    budget = Budget()
    move_ids = itertools.count(1)
    unprocessed: list[dict[str, Any]] = []
    revised_doc = revised_reviewer.document
    numbering = NumberingImport(doc, revised_doc)
    props = RevisedProperties(StyleImport(doc, revised_doc, numbering), revised_doc.styles, numbering)
    only_one: list[tuple[Story | None, Story | None]] = []
    main_events: list[Event] = []
    main_before: set[etree._Element] = set()
    carried: set[etree._Element] = set()
    empty_notes: list[tuple[Story, Story]] = []
    paired_notes: list[tuple[Story, Story]] = []
    for b, r in pair_stories(read_stories(doc), read_stories(revised_doc)):
        if b is None or r is None:
            only_one.append((b, r))
            continue
        if b.handle["type"] in ("footnote", "endnote") and not b.blocks and r.blocks:
            empty_notes.append((b, r))
            continue
        events = align(entries(b.blocks), entries(r.blocks), budget)
        if b.handle["type"] == "main":
            main_events = events
        elif b.handle["type"] in ("footnote", "endnote"):
            paired_notes.append((b, r))
        before_write = set(b.container.iter(_P))
        if b.handle["type"] == "main":
            main_before = before_write
        writer.write(b, plan_story(events, props, budget, move_ids))
        carried |= writer.write_units(
            b, events, UnitReader(doc, b.part), UnitReader(revised_doc, r.part), before_write
        )
        for twin in b.twins:
            _write_twin(writer, Story(b.handle, b.part, twin, story_blocks(doc, twin)), r, props, budget)
    notes = NoteChanges(doc, revised_doc, Stamper(doc, author, RevisionStamp(writer.date, writer.floor)))
    for b, r in empty_notes:
        if not notes.fill(b, r):
            writer.refuse("the base story has no paragraph to anchor an insertion on")
    for b, r in paired_notes:
        if notes.move_reference(b, r, main_events) is False:
            writer.report([note_not_placed(b.handle, r.handle)])
    made = [p for p in doc.body if p.tag == _P and p not in main_before]
    writer.report(track_section_changes(doc, revised_doc, main_events, notes.stamper, made))
    headers = HeaderFooterChanges(doc, revised_doc, notes.stamper)  # one id counter with the notes
    for b, r in only_one:
        if any(a in carried for s in (b, r) if s is not None for a in s.container.iterancestors()):
            continue  # a text box in a drawing written whole
        if b is not None and b.handle["type"] in ("footnote", "endnote") and notes.delete(b):
            continue
        if r is not None and r.handle["type"] in ("footnote", "endnote") and notes.insert(r, main_events):
            continue
        if b is not None and b.handle["type"] in ("header", "footer"):
            headers.delete(b)
            continue
        if r is not None and r.handle["type"] in ("header", "footer"):
            writer.report([entry] if (entry := headers.insert(r)) is not None else [])
            continue
        reason = "missing-base-story" if b is None else "missing-revised-story"
        handles = {"baseStory": b.handle if b else None, "revisedStory": r.handle if r else None}
        unprocessed.append({**handles, "reason": reason})
    writer.report(carry_new_comments(doc, revised_doc, main_events))
    _unique_para_ids(doc, before)
    report = apply_to_package(doc.package, doc.main_part, transforms)
    return {
        "buffer": base_reviewer.to_bytes(),
        "applied": writer.applied,
        "skipped": writer.skipped,
        "unprocessedStories": unprocessed,
        "referenceWarnings": props.reference_warnings(),
        "privacyReport": report,
    }

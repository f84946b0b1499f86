"""List labels: what number or bullet a reader sees in front of each paragraph.

A lawyer refers to clauses by their visible numbers ("see 4.2(b)"), but Word never stores those
numbers: it stores list *definitions* (``word/numbering.xml``) and each paragraph's list and
level, and counts at display time. This module does the same counting, live and in document
order, so the labels the agent and the UI show are the ones Word and LibreOffice show, and
stay right after an edit inserts or removes a numbered paragraph.

LibreOffice 7.4 is the reference the tests compare with, and its counting rules are followed
where they differ from a plain reading of ECMA-376. The exceptions are Word features it lacks:
legal numbering (``w:isLgl``), ``w:lvlRestart``, levels linked to a style (``w:lvl/w:pStyle``)
and hidden levels (``w:vanish``) behave as in Word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from lxml import etree

from .numformats import bullet_text, format_number, zero_pad_width
from .styles import StyleIndex
from .xmlutil import MC, W, child_val, first_child, int_value, is_on

_MAX_LEVEL = 8
#: What a paragraph's ``w:numPr`` states: the ``w:val`` of its ``w:numId`` and ``w:ilvl``
#: (None where absent); None for a paragraph without a ``w:numPr``.
Stated = tuple[str | None, str | None] | None
_PLACEHOLDER = re.compile(r"%([1-9])")
#: Formats legal numbering (``w:isLgl``) leaves alone: they already are Arabic numerals (Word's
#: built-in "Article I / Section 1.01" list relies on decimalZero surviving), or show nothing.
_LEGAL_KEEPS = frozenset({"decimal", "decimalZero", "custom", "none", "bullet"})


# -- level definitions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """One ``w:lvl``: everything needed to count and render that level of a list."""

    ilvl: int
    start: int
    num_fmt: str
    lvl_text: str | None
    is_lgl: bool = False
    #: ``w:lvlRestart``: ``None`` = restart after any higher level (the default), 0 = never,
    #: n = restart only after a paragraph at level n (1-based) or higher.
    restart: int | None = None
    suffix: str = "tab"
    hidden: bool = False
    jc: str | None = None
    pstyle: str | None = None
    font: str | None = None
    custom_format: str | None = None
    #: the ``w:lvl`` itself, whose ``w:pPr``/``w:rPr`` the page view lays the label and item out with
    element: etree._Element | None = field(default=None, compare=False, repr=False)


def _num_fmt(lvl: etree._Element) -> tuple[str, str | None]:
    """Read ``w:numFmt``; Word 2010 wraps ``custom`` formats in mc:AlternateContent with a plain
    fallback, so the choice is taken when its pattern is understood and the fallback otherwise."""
    direct = lvl.find(W + "numFmt")
    if direct is not None:
        return direct.get(W + "val") or "decimal", direct.get(W + "format")
    for alt in lvl.iterchildren(MC + "AlternateContent"):
        for choice in alt.iterchildren(MC + "Choice"):
            fmt = choice.find(W + "numFmt")
            if fmt is not None and fmt.get(W + "val") == "custom" and zero_pad_width(fmt.get(W + "format")):
                return "custom", fmt.get(W + "format")
        fallback = alt.find(MC + "Fallback/" + W + "numFmt")
        if fallback is not None:
            return fallback.get(W + "val") or "decimal", None
    return "decimal", None


def parse_level(lvl: etree._Element) -> Level | None:
    """Parse one ``w:lvl`` (from an abstractNum or a ``w:lvlOverride``); ``None`` if unusable."""
    ilvl = int_value(lvl.get(W + "ilvl"))
    if ilvl is None or not 0 <= ilvl <= _MAX_LEVEL:
        return None
    fmt, custom = _num_fmt(lvl)
    rpr = lvl.find(W + "rPr")
    fonts = rpr.find(W + "rFonts") if rpr is not None else None
    return Level(
        ilvl=ilvl,
        # ECMA-376 17.9.26: an absent w:start means 0.
        start=int_value(child_val(lvl, "start")) or 0,
        num_fmt=fmt,
        lvl_text=child_val(lvl, "lvlText"),
        is_lgl=is_on(lvl.find(W + "isLgl")),
        restart=int_value(child_val(lvl, "lvlRestart")),
        suffix=child_val(lvl, "suff") or "tab",
        hidden=rpr is not None and is_on(rpr.find(W + "vanish")),
        jc=child_val(lvl, "lvlJc"),
        pstyle=child_val(lvl, "pStyle"),
        font=None if fonts is None else (fonts.get(W + "ascii") or fonts.get(W + "hAnsi")),
        custom_format=custom,
        element=lvl,
    )


@dataclass
class _Abstract:
    levels: dict[int, Level]
    num_style_link: str | None
    style_link: str | None


@dataclass
class _Instance:
    abstract_id: str | None
    start_overrides: dict[int, int]
    level_overrides: dict[int, Level]


class NumberingDefinitions:
    """The list definitions of one document: abstract numberings and their ``w:num`` instances.

    Built from the root of ``word/numbering.xml`` (``None`` when the package has none, then no
    paragraph is numbered) and the document's :class:`StyleIndex`, which is needed both for
    style-borne numbering and for ``w:numStyleLink`` (a list defined by a numbering style).
    """

    def __init__(self, root: etree._Element | None, styles: StyleIndex | None = None) -> None:
        self.styles = styles if styles is not None else StyleIndex(None)
        self._abstracts: dict[str, _Abstract] = {}
        self._instances: dict[str, _Instance] = {}
        self._resolved: dict[str, tuple[str, _Abstract] | None] = {}
        #: effective numbering by what a paragraph states (see :meth:`numbering_of`) and its style
        self._effective: dict[tuple[Stated, str | None], tuple[str, int] | None] = {}
        self._levels: dict[tuple[str, int], Level | None] = {}
        self._plans: dict[str, ListPlan | None | bool] = {}
        if root is None:
            return
        for el in root.iterchildren(W + "abstractNum"):
            aid = el.get(W + "abstractNumId")
            if aid is None or aid in self._abstracts:
                continue
            levels: dict[int, Level] = {}
            for lvl_el in el.iterchildren(W + "lvl"):
                level = parse_level(lvl_el)
                if level is not None and level.ilvl not in levels:
                    levels[level.ilvl] = level
            self._abstracts[aid] = _Abstract(
                levels, child_val(el, "numStyleLink"), child_val(el, "styleLink")
            )
        for el in root.iterchildren(W + "num"):
            nid = el.get(W + "numId")
            if nid is None or nid in self._instances:
                continue
            starts: dict[int, int] = {}
            overrides: dict[int, Level] = {}
            for ov in el.iterchildren(W + "lvlOverride"):
                ilvl = int_value(ov.get(W + "ilvl"))
                if ilvl is None or not 0 <= ilvl <= _MAX_LEVEL:
                    continue
                start = int_value(child_val(ov, "startOverride"))
                if start is not None:
                    # LibreOffice keeps start values in 16 bits and restarts at 1 beyond that.
                    starts[ilvl] = start if 0 <= start <= 32767 else 1
                lvl_el = ov.find(W + "lvl")
                level = parse_level(lvl_el) if lvl_el is not None else None
                if level is not None:
                    overrides[ilvl] = replace(level, ilvl=ilvl)
            self._instances[nid] = _Instance(child_val(el, "abstractNumId"), starts, overrides)

    # -- instances and levels ------------------------------------------------------------------

    def instance_defined(self, num_id: str | None) -> bool:
        """True when ``num_id`` is a ``w:num`` whose abstract numbering exists (and is not "0")."""
        return bool(num_id) and num_id != "0" and self._abstract_of(num_id) is not None

    def abstract_id(self, num_id: str) -> str | None:
        """The abstractNumId whose levels ``num_id`` shows, after ``w:numStyleLink`` indirection."""
        found = self._abstract_of(num_id)
        return found[0] if found else None

    def _abstract_of(self, num_id: str) -> tuple[str, _Abstract] | None:
        if num_id not in self._resolved:
            self._resolved[num_id] = self._resolve(num_id)
        return self._resolved[num_id]

    def _resolve(self, num_id: str) -> tuple[str, _Abstract] | None:
        inst = self._instances.get(num_id)
        if inst is None or inst.abstract_id not in self._abstracts:
            return None
        aid = inst.abstract_id
        seen: set[str] = set()
        # A numStyleLink abstract has no levels of its own: they live on the abstract that the
        # numbering style's w:num points to (which carries the matching w:styleLink).
        while aid not in seen:
            seen.add(aid)
            link = self._abstracts[aid].num_style_link
            if not link:
                break
            target = self._linked_abstract(link)
            if target is None:
                break
            aid = target
        return aid, self._abstracts[aid]

    def _linked_abstract(self, style_id: str) -> str | None:
        style_num, _ = self.styles.numbering(style_id)
        inst = self._instances.get(style_num) if style_num else None
        if inst is not None and inst.abstract_id in self._abstracts:
            return inst.abstract_id
        for aid, abstract in self._abstracts.items():
            if abstract.style_link == style_id:
                return aid
        return None

    def level(self, num_id: str, ilvl: int) -> Level | None:
        """The level definition ``num_id`` uses at ``ilvl`` (a ``w:lvlOverride`` ``w:lvl`` wins).

        Remembered per (instance, level): counting asks for every level of a list at each item.
        """
        key = (num_id, ilvl)
        if key not in self._levels:
            inst = self._instances.get(num_id)
            found = self._abstract_of(num_id)
            self._levels[key] = (
                None
                if inst is None or found is None
                else inst.level_overrides.get(ilvl) or found[1].levels.get(ilvl)
            )
        return self._levels[key]

    def start_override(self, num_id: str, ilvl: int) -> int | None:
        """The instance's ``w:startOverride`` for ``ilvl`` (``None`` when it has none)."""
        return self.start_overrides(num_id).get(ilvl)

    def start_overrides(self, num_id: str) -> dict[int, int]:
        """The instance's ``w:startOverride`` values by level (empty when it has none)."""
        inst = self._instances.get(num_id)
        return inst.start_overrides if inst else {}

    def list_plan(self, num_id: str) -> ListPlan | None:
        """How :class:`ListCounter` counts ``num_id`` (None when the instance is not defined),
        made once: the definitions never change (an edit that adds a list reads them again)."""
        plan = self._plans.get(num_id, False)
        if plan is False:
            plan = self._plans[num_id] = ListPlan(self, num_id) if self.instance_defined(num_id) else None
        return plan

    def counter_key(self, num_id: str) -> str:
        """Which counters ``num_id`` advances: those of its abstract numbering.

        Word and LibreOffice continue one list across every ``w:num`` of the same abstract
        numbering. "Restart numbering" is stored as a new ``w:num`` with ``w:startOverride``;
        :class:`ListCounter` applies the override to the shared counters once, after which
        paragraphs of either instance continue the restarted count.
        """
        found = self._abstract_of(num_id)
        return "num:" + num_id if found is None else "abstract:" + found[0]

    def linked_level(self, num_id: str, style_id: str | None) -> int | None:
        """The level of ``num_id`` whose ``w:pStyle`` is ``style_id`` (``None`` if no level is)."""
        found = self._abstract_of(num_id)
        if found is None or not style_id:
            return None
        for ilvl in range(_MAX_LEVEL + 1):
            level = self.level(num_id, ilvl)
            if level is not None and level.pstyle == style_id:
                return ilvl
        return None

    def effective_numbering(self, ppr: etree._Element | None, style_id: str | None) -> tuple[str, int] | None:
        """The paragraph's effective ``(numId, ilvl)``, or ``None`` when it is not in a list.

        Direct ``w:numPr`` wins over the style's; a direct ``w:ilvl`` alone re-levels the
        style's list; ``numId`` "0" removes numbering; an undefined list means no numbering.
        When no ``w:ilvl`` is stated anywhere, the level linked to the paragraph's style
        (``w:lvl/w:pStyle``, ECMA-376 17.9.24; LibreOffice 7.4 ignores the link) is used, else
        level 0. A paragraph without a (known) style uses the default paragraph style.
        """
        num_pr = first_child(ppr, W + "numPr") if ppr is not None else None
        stated = None if num_pr is None else (child_val(num_pr, "numId"), child_val(num_pr, "ilvl"))
        return self.numbering_of(stated, style_id)

    def numbering_of(self, stated: Stated, style_id: str | None) -> tuple[str, int] | None:
        """:meth:`effective_numbering` of a paragraph whose ``w:numPr`` the caller has read
        already (the block walk reads a ``w:pPr`` in one pass): ``stated`` is the ``w:val`` of
        its ``w:numId`` and ``w:ilvl``, None without a ``w:numPr``. Remembered per statement and
        style: a 300-page contract's thousands of numbered paragraphs state a few dozen."""
        key = (stated, style_id)
        if key not in self._effective:
            self._effective[key] = self._paragraph_numbering(stated, style_id)
        return self._effective[key]

    def _paragraph_numbering(self, stated: Stated, style_id: str | None) -> tuple[str, int] | None:
        if not self.styles.is_paragraph_style(style_id):
            style_id = self.styles.default_paragraph_style_id
        num_val, ilvl_val = stated or (None, None)
        direct_num = (num_val or "").strip() or None
        direct_ilvl = int_value(ilvl_val)
        style_num, style_ilvl = self.styles.numbering(style_id)
        num_id = direct_num or style_num
        if not num_id or num_id == "0" or not self.instance_defined(num_id):
            return None
        ilvl = direct_ilvl if direct_ilvl is not None else style_ilvl
        if ilvl is None:
            ilvl = self.linked_level(num_id, style_id) or 0
        return num_id, min(max(ilvl, 0), _MAX_LEVEL)


# -- counting ------------------------------------------------------------------------------------

#: A compiled label: its text pieces and the level counters (index, format, custom format,
#: start) shown between them; a plain string for a label that shows no counter (a bullet).
_Counter = tuple[int, str, str | None, int]
_Pieces = tuple[str | _Counter, ...]
_Template = str | _Pieces


class ListPlan:
    """What counting one ``w:num`` needs, read once from its definitions: a long contract labels
    thousands of items of a few dozen lists, and each label would otherwise look up all nine
    levels and re-parse the level text. A level's part is worked out when an item first uses it."""

    __slots__ = ("key", "starts", "overrides", "_levels", "_restarts", "_per_level")

    def __init__(self, defs: NumberingDefinitions, num_id: str) -> None:
        self._levels = [defs.level(num_id, ilvl) for ilvl in range(_MAX_LEVEL + 1)]
        #: the counters it advances (see NumberingDefinitions.counter_key)
        self.key = defs.counter_key(num_id)
        #: each level's start (1 for an undefined level, as LibreOffice counts it)
        self.starts = tuple(1 if level is None else level.start for level in self._levels)
        self.overrides = defs.start_overrides(num_id)
        self._restarts = [None if level is None else level.restart for level in self._levels]
        self._per_level: dict[int, tuple[tuple[int, ...], _Template | None]] = {}

    def at(self, ilvl: int) -> tuple[tuple[int, ...], _Template | None]:
        """The deeper levels an item at ``ilvl`` restarts, and its label (None: the level is
        undefined or hidden)."""
        found = self._per_level.get(ilvl)
        if found is None:
            restarts = self._restarts
            # w:lvlRestart n (1-based) restarts a level only after a paragraph at level < n; 0
            # never restarts it. LibreOffice 7.4 ignores w:lvlRestart; Word honours it.
            resets = tuple(
                deeper
                for deeper in range(ilvl + 1, _MAX_LEVEL + 1)
                if (restart := restarts[deeper]) is None or ilvl < restart
            )
            level = self._levels[ilvl]
            template = None if level is None or level.hidden else _compile(level, self._levels, self.starts)
            found = self._per_level[ilvl] = (resets, template)
        return found


def _compile(level: Level, levels: list[Level | None], starts: tuple[int, ...]) -> _Template:
    """A level's label as literal pieces and the counters shown between them."""
    text = level.lvl_text or ""
    if level.num_fmt == "bullet":
        return bullet_text(text, level.font)
    matches = list(_PLACEHOLDER.finditer(text))
    if level.num_fmt == "none":
        # A level without a number shows only the text before its first and after its
        # last placeholder ("(%1)" -> "()", "%1.%2" -> ""), as LibreOffice does.
        return text if not matches else text[: matches[0].start()] + text[matches[-1].end() :]
    out: list[str | _Counter] = []
    pos = 0
    for index, match in enumerate(matches):
        out.append(text[pos : match.start()])
        pos = match.end()
        ref = int(match.group(1)) - 1
        ref_level = levels[ref] if ref <= level.ilvl else None
        if ref_level is None:
            continue
        if ref_level.num_fmt == "none":
            # Drop an unnumbered level with its separator: "%1.%2.%3" gives "1.1", not
            # "1..1" (LibreOffice's rule, made for Word's legal lists).
            if index + 1 < len(matches):
                pos = matches[index + 1].start()
            continue
        fmt = ref_level.num_fmt
        if level.is_lgl and fmt not in _LEGAL_KEEPS:
            fmt = "decimal"
        out.append((ref, fmt, ref_level.custom_format, starts[ref]))
    out.append(text[pos:])
    return tuple(piece for piece in out if piece != "")


class ListCounter:
    """Counts list items live over one walk of a document, in document order.

    Make a fresh counter per walk: every :meth:`label` call advances the list, exactly as each
    numbered paragraph does on screen. Nothing is read from cached field results. The counting
    rules were checked paragraph by paragraph against LibreOffice 7.4 on synthetic files.
    """

    def __init__(self, definitions: NumberingDefinitions) -> None:
        self._defs = definitions
        self._counters: dict[str, list[int | None]] = {}
        self._restarted: set[str] = set()
        #: rendered counters by (value, format, custom format): a list shows the same few often
        self._numbers: dict[tuple[int, str, str | None], str] = {}

    def label(self, num_id: str, ilvl: int) -> str | None:
        """Advance ``num_id`` at ``ilvl`` and return the visible label ("1.", "4.2(b)", "•").

        Returns ``None`` for a level the list does not define, a level hidden with
        ``w:vanish`` and a label that renders as empty text; such paragraphs still count, as
        they do in LibreOffice (the next visible item is not renumbered).
        """
        plan = self._defs.list_plan(num_id)
        if plan is None or not 0 <= ilvl <= _MAX_LEVEL:
            return None
        values = self._counters.get(plan.key)
        if values is None:
            values = self._counters[plan.key] = [None] * (_MAX_LEVEL + 1)
        for higher in range(ilvl):
            # A level skipped over counts once, at its start value (LibreOffice's "phantom"
            # item): "1.1" is shown, and the next paragraph at that level is number 2.
            if values[higher] is None:
                values[higher] = plan.starts[higher]
        # "Restart numbering" (w:startOverride) takes effect once per instance: at its first
        # paragraph on a level that has an override. Later restarts use w:start again, and
        # overrides of the instance's other levels are then spent (LibreOffice's rule).
        override = None if num_id in self._restarted else plan.overrides.get(ilvl)
        if override is not None:
            self._restarted.add(num_id)
            values[ilvl] = override
        else:
            current = values[ilvl]
            values[ilvl] = plan.starts[ilvl] if current is None else current + 1
        resets, template = plan.at(ilvl)
        for deeper in resets:
            values[deeper] = None
        if template is None or template.__class__ is str:
            return template or None  # type: ignore[return-value]
        return self._render(template, values) or None  # type: ignore[arg-type]

    def _render(self, template: _Pieces, values: list[int | None]) -> str:
        out: list[str] = []
        numbers = self._numbers
        for piece in template:
            if piece.__class__ is str:
                out.append(piece)  # type: ignore[arg-type]
                continue
            ref, fmt, custom, start = piece  # type: ignore[misc]
            value = values[ref]
            key = (start if value is None else value, fmt, custom)
            shown = numbers.get(key)
            if shown is None:
                shown = numbers[key] = format_number(*key)
            out.append(shown)
        return "".join(out)


# -- number formats ------------------------------------------------------------------------------

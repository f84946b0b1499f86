"""Effective run and paragraph formatting, resolved the way Word layers it.

Word never stores what a run looks like in one place: the value a reader sees is the last one
stated along docDefaults → table style → paragraph style chain (``w:basedOn``, root first) →
numbering level (paragraph properties only) → character style chain → direct ``w:rPr``/``w:pPr``.
The page view needs that answer for every run of a 300-page contract, so each layer is parsed
once into a small dict of the properties it states, and the merged result is cached per
(style, direct-properties) key: most runs of a contract share a handful of formats.

Pure lxml, no Qt: the values are Word's own units (twips, half-points, ``RRGGBB``) and the page
view's ``qformats`` turns them into Qt formats. The styles and list levels come from the
document's own :class:`~.styles.StyleIndex` and :class:`~.numbering.NumberingDefinitions`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from lxml import etree

from .document import WordDocument
from .format_props import PPR_SKIP, RPR_SKIP, ParaProps, RunProps, element_key, parse_ppr, parse_rpr
from .xmlutil import W, int_attr, is_on

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"

#: Theme font references resolve through the theme part; these stand in when it has none.
_THEME_FALLBACK = {"minor": "Calibri", "major": "Calibri Light"}
_RUN_FIELDS = frozenset(f.name for f in fields(RunProps))
_PARA_FIELDS = frozenset(f.name for f in fields(ParaProps))


# ----------------------------------------------------------------- theme and settings
def theme_fonts(document: WordDocument) -> dict[str, str]:
    """``{"major": family, "minor": family}`` from the theme part (fallbacks when absent)."""
    fonts = dict(_THEME_FALLBACK)
    root = document.part_root("theme")
    if root is None:
        return fonts
    for kind in ("major", "minor"):
        latin = root.find(f".//{_A}{kind}Font/{_A}latin")
        if latin is not None and latin.get("typeface"):
            fonts[kind] = latin.get("typeface")
    return fonts


def document_settings(document: WordDocument) -> dict[str, Any]:
    """The few settings that change layout: default tab stop, even/odd headers."""
    root = document.part_root("settings")
    out: dict[str, Any] = {"default_tab": 720, "even_odd": False}
    if root is None:
        return out
    tab = int_attr(root.find(W + "defaultTabStop"), "val")
    if tab and tab > 0:
        out["default_tab"] = tab
    out["even_odd"] = is_on(root.find(W + "evenAndOddHeaders"))
    return out


def _merge_ppr(base: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    """Later layers win per property; tab stops accumulate, ``clear`` removes an inherited stop."""
    merged = {**base, **layer}
    if "tabs" in layer:
        stops = {pos: (kind, leader) for pos, kind, leader in base.get("tabs", ())}
        for pos, kind, leader in layer["tabs"]:
            if kind == "clear":
                stops.pop(pos, None)
            else:
                stops[pos] = (kind, leader)
        merged["tabs"] = tuple(sorted((pos, kind, leader) for pos, (kind, leader) in stops.items()))
    return merged


# ----------------------------------------------------------------- the resolver
class FormatResolver:
    """Effective formatting for the runs and paragraphs of one document, cached per key.

    Built once per layout; the style tree never changes while a layout is being built.
    """

    def __init__(self, document: WordDocument) -> None:
        self.document = document
        self.themes = theme_fonts(document)
        self.settings = document_settings(document)
        root = document.part_root("styles")
        self.styles = document.styles
        self._default_char = self.styles.default_style_id("character")
        self._default_table = self.styles.default_style_id("table")
        defaults_r: dict[str, Any] = {}
        defaults_p: dict[str, Any] = {}
        defaults = root.find(W + "docDefaults") if root is not None else None
        if defaults is not None:
            defaults_r = parse_rpr(defaults.find(f"{W}rPrDefault/{W}rPr"), self.themes)
            defaults_p = parse_ppr(defaults.find(f"{W}pPrDefault/{W}pPr"))
        if "font" not in defaults_r:
            defaults_r["font"] = "Times New Roman" if root is not None else self.themes["minor"]
        if "size_hp" not in defaults_r:
            defaults_r["size_hp"] = 20 if root is not None else 22
        # widow control is on unless the styles turn it off, as LibreOffice lays such files out
        # (ECMA-376 leaves it off when no style mentions it); LibreOffice does so only for a file
        # with a styles part, checked on generated files (tests/ui/test_pageview_break_fidelity.py)
        defaults_p.setdefault("widow_control", root is not None)
        self._defaults_r = defaults_r
        self._defaults_p = defaults_p
        self._indents_list: dict[str | None, bool] = {}
        self._chain_cache: dict[tuple[str, str | None], tuple[dict[str, Any], dict[str, Any]]] = {}
        self._run_cache: dict[tuple[Any, ...], RunProps] = {}
        self._para_cache: dict[tuple[Any, ...], ParaProps] = {}
        #: the same, by what the properties are merged from (see _paragraph)
        self._para_values: dict[tuple[Any, ...], ParaProps] = {}
        self._rpr_layers: dict[tuple[Any, ...], dict[str, Any]] = {}
        #: each distinct ParaProps/RunProps value once: paragraphs whose keys differ (every list
        #: of a contract has its own numId) but whose properties are equal share one object, so
        #: the page view's formats, cached per properties object, are made once per look
        self._values: dict[Any, Any] = {}
        self._numbering_layers: dict[tuple[str, int], tuple[dict[str, Any], dict[str, Any]]] = {}

    # -- style chains ------------------------------------------------------------------------
    def style(self, style_id: str | None) -> etree._Element | None:
        """The ``w:style`` element of ``style_id`` (None when unknown)."""
        return self.styles.element(style_id)

    def _chain(self, style_id: str | None, kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """(pPr layer, rPr layer) of a style merged along its basedOn chain, root first."""
        key = (style_id or "", kind)
        cached = self._chain_cache.get(key)
        if cached is not None:
            return cached
        p_layer: dict[str, Any] = {}
        r_layer: dict[str, Any] = {}
        for el in reversed(self.styles.chain_elements(style_id)):
            p_layer = _merge_ppr(p_layer, parse_ppr(el.find(W + "pPr")))
            r_layer.update(parse_rpr(el.find(W + "rPr"), self.themes))
        self._chain_cache[key] = (p_layer, r_layer)
        return p_layer, r_layer

    def _style_indents_its_list(self, style_id: str | None) -> bool:
        """Whether the nearest style of ``style_id``'s chain that names a list also states indents."""
        found = self._indents_list.get(style_id)
        if found is None:
            found = self._indents_list[style_id] = False
            for el in self.styles.chain_elements(style_id):
                ppr = el.find(W + "pPr")
                if ppr is not None and ppr.find(W + "numPr") is not None:
                    found = self._indents_list[style_id] = ppr.find(W + "ind") is not None
                    break
        return found

    def table_layers(self, table_style: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """(pPr, rPr) a table style gives the paragraphs in its cells."""
        return self._chain(table_style or self._default_table, "table")

    # -- numbering levels --------------------------------------------------------------------
    def numbering_level(self, num_id: str, ilvl: int) -> etree._Element | None:
        """The ``w:lvl`` element a paragraph's list reference shows (override first)."""
        level = self.document.numbering.level(num_id, ilvl)
        return level.element if level is not None else None

    def _numbering_layer(self, num_id: str, ilvl: int) -> tuple[dict[str, Any], dict[str, Any]]:
        key = (num_id, ilvl)
        cached = self._numbering_layers.get(key)
        if cached is None:
            lvl = self.numbering_level(num_id, ilvl)
            if lvl is None:
                cached = ({}, {})
            else:
                cached = (parse_ppr(lvl.find(W + "pPr")), parse_rpr(lvl.find(W + "rPr"), self.themes))
            self._numbering_layers[key] = cached
        return cached

    # -- effective properties ----------------------------------------------------------------
    def paragraph(
        self,
        ppr: etree._Element | None,
        style_id: str | None,
        numbering: tuple[str, int] | None = None,
        table_style: str | None = None,
        in_table: bool = False,
    ) -> ParaProps:
        """Effective paragraph properties: defaults → table style → style → list level → direct.

        The list level goes under the style instead when the style that numbers the paragraph
        states its own indents (``w:numPr`` and ``w:ind`` in one style, none in the paragraph):
        LibreOffice then indents the paragraph and places its number by the style's chain.
        """
        direct = element_key(ppr, PPR_SKIP)
        key = (direct, style_id, numbering, table_style, in_table)
        cached = self._para_cache.get(key)
        if cached is None:
            cached = self._para_cache[key] = self._paragraph(
                ppr, direct, style_id, numbering, table_style, in_table
            )
        return cached

    def _paragraph(
        self,
        ppr: etree._Element | None,
        direct: tuple[Any, ...],
        style_id: str | None,
        numbering: tuple[str, int] | None,
        table_style: str | None,
        in_table: bool,
    ) -> ParaProps:
        """:meth:`paragraph` for a key not met yet, merged once per distinct content: every list
        of a contract has its own ``w:numId``, but their levels state the same few properties."""
        under = False
        level_key: tuple[Any, ...] | None = None
        if numbering is not None:
            lvl = self.numbering_level(*numbering)
            level_key = element_key(lvl.find(W + "pPr"), PPR_SKIP) if lvl is not None else ()
            under = not _numbers_directly(ppr) and self._style_indents_its_list(style_id)
        content = (direct, style_id, level_key, under, table_style, in_table)
        props = self._para_values.get(content)
        if props is not None:
            return props
        merged = dict(self._defaults_p)
        if in_table:
            merged = _merge_ppr(merged, self.table_layers(table_style)[0])
        layers = [self._chain(style_id, "paragraph")[0]]
        if numbering is not None:
            layers.insert(0 if under else 1, self._numbering_layer(*numbering)[0])
        for layer in layers:
            merged = _merge_ppr(merged, layer)
        merged = _merge_ppr(merged, parse_ppr(ppr))
        if "tabs" in merged:
            merged["tabs"] = tuple(merged["tabs"])
        props = ParaProps(**{k: v for k, v in merged.items() if k in _PARA_FIELDS})
        props = self._para_values[content] = self._values.setdefault(props, props)
        return props

    def run(
        self,
        rpr: etree._Element | None,
        style_id: str | None,
        table_style: str | None = None,
        in_table: bool = False,
        extra: etree._Element | None = None,
    ) -> RunProps:
        """Effective run properties: defaults → table style → paragraph style → char style → direct.

        ``extra`` is a layer applied last (a list level's ``w:rPr`` for the label it draws).
        """
        direct = element_key(rpr, RPR_SKIP) if rpr is not None else ()
        extra_key = element_key(extra, RPR_SKIP) if extra is not None else ()
        key = (direct, extra_key, style_id, table_style, in_table)
        cached = self._run_cache.get(key)
        if cached is not None:
            return cached
        merged = dict(self._defaults_r)
        if in_table:
            merged.update(self.table_layers(table_style)[1])
        merged.update(self._chain(style_id, "paragraph")[1])
        char_style = None
        if rpr is not None:
            rstyle = rpr.find(W + "rStyle")
            char_style = rstyle.get(W + "val") if rstyle is not None else None
        char_style = char_style or self._default_char
        if char_style:
            merged.update(self._chain(char_style, "character")[1])
        merged.update(self._rpr_layer(direct, rpr))
        merged.update(self._rpr_layer(extra_key, extra))
        props = RunProps(**{k: v for k, v in merged.items() if k in _RUN_FIELDS})
        props = self._run_cache[key] = self._values.setdefault(props, props)
        return props

    def _rpr_layer(self, key: tuple[Any, ...], rpr: etree._Element | None) -> dict[str, Any]:
        """What the ``w:rPr`` whose :func:`element_key` is ``key`` states, parsed once per key."""
        layer = self._rpr_layers.get(key)
        if layer is None:
            layer = self._rpr_layers[key] = parse_rpr(rpr, self.themes)
        return layer


def _numbers_directly(ppr: etree._Element | None) -> bool:
    """Whether a paragraph names its list itself (``w:numPr`` with a ``w:numId``)."""
    num = ppr.find(W + "numPr") if ppr is not None else None
    return num is not None and num.find(W + "numId") is not None

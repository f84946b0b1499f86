"""What every document the edit engine saves must satisfy (ooxml-rules §5.12), as reusable checks.

Schema validators miss exactly the mistakes that make Word report unreadable content or group
accept/reject wrongly (ooxml-rules §5.11): colliding ids across parts, live ``w:t`` inside a
deletion, duplicate paraIds, revision children out of place, undeclared extension namespaces. So
each invariant here reads the *saved bytes* with plain ``zipfile`` + ``lxml`` — independently of the
engine's own package code, which could share the bug it is meant to catch.

Real inputs are not always clean (Word files with ``w:id="0"``, PowerTools files with schema errors),
and the rule is that an edit must not make a document worse. So every ``*_findings`` function
returns a list of findings (stable strings, no positions that an edit would shift), and
:func:`assert_no_new` fails only on findings the output has more often than the input.

Beyond the structural checks (:data:`STRUCTURAL`, cheap, used on every property example): the
schema checker compared with the input (:func:`assert_schema_no_new_errors`), our own reject of
our changes giving back the original text (:func:`assert_reject_restores`), and helpers to state
the accepted text an edit intends on LibreOffice's paragraph list (:func:`intended`).
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from posixpath import dirname, join, normpath

from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
PR_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
W = "{%s}" % W_NS
MC = "{%s}" % MC_NS
#: The author every conformance and property test writes as.
OUR_AUTHOR = "Reviewer AI"

# Every ``docx`` argument below is the saved bytes, a path, a reviewer (``to_bytes()``) or a SavedDocx.

#: Elements whose ``w:id`` is in the revision family (one id space across every story part).
_REVISION_NAMES = (
    *("ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange"),
    *("tblGridChange", "trPrChange", "tcPrChange", "tblPrExChange", "numberingChange"),
    *("cellIns", "cellDel", "cellMerge", "moveFromRangeStart", "moveToRangeStart"),
    *("customXmlInsRangeStart", "customXmlDelRangeStart", "customXmlMoveFromRangeStart"),
    "customXmlMoveToRangeStart",
)
REVISION_TAGS = frozenset(W + t for t in _REVISION_NAMES)
_RANGES = (
    *("moveFromRange", "moveToRange", "commentRange", "customXmlInsRange", "customXmlDelRange"),
    *("customXmlMoveFromRange", "customXmlMoveToRange"),
)
#: Range ends share their start's id; they pair rather than count.
RANGE_PAIRS = {W + f"{kind}Start": W + f"{kind}End" for kind in _RANGES}
_WRAPPERS = frozenset(W + t for t in ("ins", "del", "moveFrom", "moveTo"))
_DELETING = frozenset((W + "del", W + "moveFrom"))
_MARK_REVISIONS = _WRAPPERS
#: Property containers whose ``*Change`` child must come last (schema sequence order).
_LAST_CHILD = {
    W + "rPr": W + "rPrChange",
    W + "pPr": W + "pPrChange",
    W + "sectPr": W + "sectPrChange",
    W + "tblPr": W + "tblPrChange",
    W + "trPr": W + "trPrChange",
    W + "tcPr": W + "tcPrChange",
    W + "tblPrEx": W + "tblPrExChange",
}
#: Story parts by relationship type suffix: where revisions, comments and paragraphs live.
STORY_RELS = ("header", "footer", "footnotes", "endnotes", "comments")
#: Namespaces ECMA-376 (transitional) itself defines: everything else needs markup compatibility.
_ECMA_PREFIXES = (
    "http://schemas.openxmlformats.org/",
    "urn:schemas-microsoft-com:vml",
    "urn:schemas-microsoft-com:office:office",
    "urn:schemas-microsoft-com:office:word",
    "urn:schemas-microsoft-com:office:excel",
    "urn:schemas-microsoft-com:office:powerpoint",
    "http://www.w3.org/XML/1998/namespace",
    "http://www.w3.org/2001/XMLSchema-instance",
    "http://purl.org/dc/",
)
_MAX_ID = 2**31 - 1
_DRAWING_EXT = "{http://schemas.openxmlformats.org/drawingml/2006/main}ext"


# ----------------------------------------------------------------------------- reading the package
class SavedDocx:
    """A saved package read with zipfile + lxml only: parts, content types, relationships."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            self.parts = {name: z.read(name) for name in z.namelist() if not name.endswith("/")}
        self._xml: dict[str, etree._Element] = {}
        types = self.xml("[Content_Types].xml")
        self.defaults = {
            el.get("Extension", "").lower(): el.get("ContentType") for el in types.iter(f"{{{CT_NS}}}Default")
        }
        self.overrides = {
            el.get("PartName", "").lstrip("/"): el.get("ContentType")
            for el in types.iter(f"{{{CT_NS}}}Override")
        }
        office = [r for r in self.relationships("") if r[1].endswith("/officeDocument")]
        self.main_part = office[0][2] if office else "word/document.xml"

    def xml(self, name: str) -> etree._Element:
        if name not in self._xml:
            parser = etree.XMLParser(resolve_entities=False, huge_tree=True, remove_blank_text=False)
            self._xml[name] = etree.fromstring(self.parts[name], parser)
        return self._xml[name]

    def content_type(self, name: str) -> str | None:
        return self.overrides.get(name) or self.defaults.get(name.rsplit(".", 1)[-1].lower())

    def relationships(self, source: str) -> list[tuple[str, str, str, bool]]:
        """``(rId, type, resolved target, external)`` of ``source`` ("" = the package)."""
        folder, base = dirname(source), source.rsplit("/", 1)[-1]
        rels_name = join(folder, "_rels", base + ".rels") if source else "_rels/.rels"
        if rels_name not in self.parts:
            return []
        out = []
        for rel in self.xml(rels_name).iter(f"{{{PR_NS}}}Relationship"):
            target = rel.get("Target", "")
            external = rel.get("TargetMode") == "External"
            if not external:
                target = normpath(target.lstrip("/") if target.startswith("/") else join(folder, target))
            out.append((rel.get("Id", ""), rel.get("Type", ""), target, external))
        return out

    def story_parts(self) -> list[str]:
        """The main part, then every header, footer, notes and comments part it relates to."""
        names = [self.main_part]
        for _rid, rel_type, target, external in self.relationships(self.main_part):
            story = rel_type.rsplit("/", 1)[-1] in STORY_RELS
            if story and not external and target in self.parts and target not in names:
                names.append(target)
        return names

    def xml_parts(self) -> list[str]:
        return [n for n in self.parts if n.endswith(".xml") or n.endswith(".rels")]


def load(docx: object) -> SavedDocx:
    """A :class:`SavedDocx` from bytes, a path, or a reviewer-like object with ``to_bytes()``."""
    if isinstance(docx, SavedDocx):
        return docx
    if isinstance(docx, bytes | bytearray):
        return SavedDocx(bytes(docx))
    if hasattr(docx, "to_bytes"):
        return SavedDocx(docx.to_bytes())  # type: ignore[union-attr]
    return SavedDocx(Path(docx).read_bytes())  # type: ignore[arg-type]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _w_id(el: etree._Element) -> str | None:
    return el.get(W + "id")


# ----------------------------------------------------------------------------- invariants (findings)
def revision_id_findings(docx: object) -> list[str]:
    """§5.1: revision ids unique across every story part, within 1..2^31-1; range markers pair."""
    doc = load(docx)
    findings: list[str] = []
    seen: Counter[str] = Counter()
    move_names: dict[str, set[str]] = {"moveFrom": set(), "moveTo": set()}
    for part in doc.story_parts():
        root = doc.xml(part)
        starts: dict[str, Counter[str]] = {}
        ends: dict[str, Counter[str]] = {}
        for el in root.iter(etree.Element):
            tag = el.tag
            if tag in RANGE_PAIRS and tag != W + "commentRangeStart":
                starts.setdefault(_local(tag), Counter())[_w_id(el) or "?"] += 1
            elif tag in RANGE_PAIRS.values() and tag != W + "commentRangeEnd":
                ends.setdefault(_local(tag).replace("End", "Start"), Counter())[_w_id(el) or "?"] += 1
            if tag in (W + "moveFromRangeStart", W + "moveToRangeStart"):
                move_names[_local(tag)[: -len("RangeStart")]].add(el.get(W + "name") or "")
            if tag not in REVISION_TAGS:
                continue
            raw = _w_id(el)
            if raw is None or not re.fullmatch(r"-?\d+", raw):
                findings.append(f"{_local(tag)} without a numeric w:id ({raw!r})")
                continue
            if not 1 <= int(raw) <= _MAX_ID:
                findings.append(f"revision id {raw} outside 1..2^31-1 on {_local(tag)}")
            seen[raw] += 1
            if seen[raw] > 1:
                findings.append(f"revision id {raw} used more than once")
        for kind in set(starts) | set(ends):
            missing_end = starts.get(kind, Counter()) - ends.get(kind, Counter())
            missing_start = ends.get(kind, Counter()) - starts.get(kind, Counter())
            findings += [f"{part}: {kind} {i} has no end" for i in missing_end.elements()]
            findings += [f"{part}: end of {kind} {i} has no start" for i in missing_start.elements()]
    for name in move_names["moveFrom"] ^ move_names["moveTo"]:
        findings.append(f"move name {name!r} has only one half")
    return findings


def comment_findings(docx: object) -> list[str]:
    """§5.1/§5.8: comment ids unique; every range start has its end; every marker has a comment."""
    doc = load(docx)
    findings: list[str] = []
    comments_part = next(
        (
            target
            for _r, rel_type, target, ext in doc.relationships(doc.main_part)
            if not ext and rel_type.endswith("/comments") and target in doc.parts
        ),
        None,
    )
    defined: Counter[str] = Counter()
    if comments_part is not None:
        defined.update(_w_id(c) or "?" for c in doc.xml(comments_part).iter(W + "comment"))
    findings += [f"comment id {i} defined more than once" for i, n in defined.items() if n > 1]
    for part in doc.story_parts():
        if part == comments_part:
            continue
        root = doc.xml(part)
        starts = Counter(_w_id(el) or "?" for el in root.iter(W + "commentRangeStart"))
        ends = Counter(_w_id(el) or "?" for el in root.iter(W + "commentRangeEnd"))
        refs = Counter(_w_id(el) or "?" for el in root.iter(W + "commentReference"))
        findings += [f"{part}: commentRangeStart {i} appears {n} times" for i, n in starts.items() if n > 1]
        findings += [f"{part}: commentRangeStart {i} has no end" for i in (starts - ends).elements()]
        findings += [f"{part}: commentRangeEnd {i} has no start" for i in (ends - starts).elements()]
        for marker, ids in (("commentRangeStart", starts), ("commentRangeEnd", ends), ("reference", refs)):
            findings += [f"{part}: comment {marker} {i} has no w:comment" for i in ids if i not in defined]
    return findings


def _nearest_wrapper(el: etree._Element) -> etree._Element | None:
    """The closest ins/del/moveFrom/moveTo around a run's content, within its own paragraph."""
    for ancestor in el.iterancestors():
        if ancestor.tag in _WRAPPERS:
            return ancestor
        if ancestor.tag == W + "p":
            return None
    return None


def _deleted_ancestor(el: etree._Element) -> bool:
    for ancestor in el.iterancestors():
        if ancestor.tag in _DELETING:
            return True
        if ancestor.tag == W + "p":
            return False
    return False


def revision_text_findings(docx: object) -> list[str]:
    """§5.3: no live text in deletions; deleted text only inside a deletion (a nested one in an ins)."""
    doc = load(docx)
    findings: list[str] = []
    for part in doc.story_parts():
        root = doc.xml(part)
        for el in root.iter(W + "t", W + "instrText"):
            wrapper = _nearest_wrapper(el)
            if wrapper is not None and wrapper.tag in _DELETING:
                findings.append(
                    f"{part}: w:{_local(el.tag)} {el.text!r} inside w:{_local(wrapper.tag)} "
                    f"by {wrapper.get(W + 'author')}"
                )
        for el in root.iter(W + "delText", W + "delInstrText"):
            wrapper = _nearest_wrapper(el)
            if wrapper is None or wrapper.tag not in _DELETING and not _deleted_ancestor(wrapper):
                where = "outside any deletion" if wrapper is None else f"inside w:{_local(wrapper.tag)}"
                findings.append(f"{part}: w:{_local(el.tag)} {el.text!r} {where}")
    return findings


def _preserved(el: etree._Element) -> bool:
    for node in (el, *el.iterancestors()):
        value = node.get(XML_SPACE)
        if value is not None:
            return value == "preserve"
    return False


def whitespace_findings(docx: object) -> list[str]:
    """§5.3: edge whitespace is preserved; no literal line break inside ``w:t``."""
    doc = load(docx)
    findings: list[str] = []
    for part in doc.story_parts():
        for el in doc.xml(part).iter(W + "t", W + "delText", W + "instrText", W + "delInstrText"):
            text = el.text or ""
            if text and (text[0] in " \t\r\n" or text[-1] in " \t\r\n") and not _preserved(el):
                findings.append(f"{part}: w:{_local(el.tag)} {text!r} has edge whitespace, not preserved")
            if el.tag == W + "t" and ("\n" in text or "\r" in text):
                findings.append(f"{part}: w:t {text!r} holds a line break")
    return findings


def placement_findings(docx: object) -> list[str]:
    """§5.4/§5.6: ``*Change`` last in its container, with no nested change or out-of-scope children;
    paragraph-mark ins/del/moveFrom/moveTo the first children of ``w:pPr/w:rPr``."""
    doc = load(docx)
    findings: list[str] = []
    for part in doc.story_parts():
        for el in doc.xml(part).iter(*_LAST_CHILD):
            change_tag = _LAST_CHILD[el.tag]
            changes = el.findall(change_tag)
            if len(changes) > 1 or (changes and el[-1] is not changes[0]):
                findings.append(f"{part}: w:{_local(change_tag)} is not the single last child of its parent")
            for change in changes:
                inner = change.find(el.tag)
                if inner is None:
                    continue
                nested = inner.find(change_tag)
                if nested is not None:
                    findings.append(f"{part}: w:{_local(change_tag)} holds another change")
                if el.tag == W + "pPr":
                    extra = [c for c in inner if c.tag in (W + "rPr", W + "sectPr")]
                    findings += [f"{part}: w:pPrChange holds w:{_local(c.tag)}" for c in extra]
                if el.tag == W + "rPr":
                    extra = [c for c in inner if c.tag in _MARK_REVISIONS]
                    findings += [f"{part}: w:rPrChange holds a mark w:{_local(c.tag)}" for c in extra]
        for rpr in doc.xml(part).iterfind(f".//{W}pPr/{W}rPr"):
            seen_other = False
            for child in rpr:
                if child.tag in _MARK_REVISIONS:
                    if seen_other:
                        findings.append(
                            f"{part}: paragraph-mark w:{_local(child.tag)} is not first in pPr/rPr"
                        )
                elif isinstance(child.tag, str):
                    seen_other = True
    return findings


def para_id_findings(docx: object) -> list[str]:
    """§5.8: every ``w14:paraId`` unique across story parts and below 0x80000000."""
    doc = load(docx)
    findings: list[str] = []
    seen: Counter[str] = Counter()
    attr = "{%s}paraId" % W14_NS
    for part in doc.story_parts():
        for el in doc.xml(part).iter(etree.Element):
            value = el.get(attr)
            if value is None:
                continue
            if not re.fullmatch(r"[0-9A-Fa-f]{1,8}", value) or int(value, 16) >= 0x80000000:
                findings.append(f"{part}: paraId {value} is not hex below 0x80000000")
            seen[value.upper()] += 1
            if seen[value.upper()] > 1:
                findings.append(f"paraId {value.upper()} used more than once")
    return findings


def _is_ecma(uri: str) -> bool:
    return uri.startswith(_ECMA_PREFIXES)


def _ignorable_here(el: etree._Element, uri: str) -> bool:
    """Is ``uri`` ignorable (mc:Ignorable) or required by an enclosing mc:Choice, at ``el``?"""
    for node in (el, *el.iterancestors()):
        if node.tag == _DRAWING_EXT:
            return True  # a DrawingML extension list entry: its own extensibility, not MCE
        for prefix in (node.get(MC + "Ignorable") or "").split():
            if node.nsmap.get(prefix) == uri:
                return True
        if node.tag == MC + "Choice":
            for prefix in (node.get("Requires") or "").split():
                if node.nsmap.get(prefix) == uri:
                    return True
    return False


def namespace_findings(docx: object) -> list[str]:
    """§5.9: every extension namespace used on a part is declared and ignorable there."""
    doc = load(docx)
    findings: set[str] = set()
    for part in doc.xml_parts():
        if part.endswith(".rels") or part == "[Content_Types].xml" or part.startswith("customXml/"):
            continue  # package plumbing and the user's own custom XML are not subject to MCE
        try:
            root = doc.xml(part)
        except etree.XMLSyntaxError:
            findings.add(f"{part}: not well-formed XML")
            continue
        own = etree.QName(root).namespace
        everywhere = {root.nsmap.get(prefix) for prefix in (root.get(MC + "Ignorable") or "").split()}
        for el in root.iter(etree.Element):
            for prefix in (el.get(MC + "Ignorable") or "").split():
                if prefix not in el.nsmap:
                    findings.add(f"{part}: mc:Ignorable lists undeclared prefix {prefix}")
            uris = {etree.QName(el).namespace} | {etree.QName(a).namespace for a in el.attrib}
            for uri in uris:
                if (
                    uri
                    and uri not in everywhere
                    and uri != own
                    and not _is_ecma(uri)
                    and not _ignorable_here(el, uri)
                ):
                    findings.add(f"{part}: {uri} used but not ignorable")
    return sorted(findings)


def relationship_findings(docx: object) -> list[str]:
    """§5.12.6: every relationship target exists and has a content type; every part is related."""
    doc = load(docx)
    findings: list[str] = []
    related: set[str] = set()
    for rels_name in [n for n in doc.parts if n.endswith(".rels")]:
        source = ""
        if rels_name != "_rels/.rels":
            source = join(dirname(dirname(rels_name)), rels_name.rsplit("/", 1)[-1][: -len(".rels")])
        for rid, rel_type, target, external in doc.relationships(source):
            if external:
                continue
            related.add(target)
            kind = rel_type.rsplit("/", 1)[-1]
            if target not in doc.parts:
                findings.append(f"{rels_name} {rid} ({kind}): target {target} missing")
            elif doc.content_type(target) is None:
                findings.append(f"{rels_name} {rid} ({kind}): {target} has no content type")
    for name in doc.parts:
        if name.endswith(".rels") or name == "[Content_Types].xml":
            continue
        if name not in related:
            findings.append(f"part {name} is the target of no relationship")
    return findings


def python_docx_findings(docx: object) -> list[str]:
    """§5.12.8: python-docx still opens the package and reads its paragraphs and tables."""
    import docx as python_docx

    try:
        document = python_docx.Document(io.BytesIO(load(docx).data))
        sum(len(p.text) for p in document.paragraphs)
        sum(len(t.rows) for t in document.tables)
    except Exception as exc:  # any failure to open is the finding
        return [f"python-docx cannot open it: {type(exc).__name__}: {exc}"]
    return []


#: The structural invariants, cheap and LibreOffice-free (the property tests run all of them).
STRUCTURAL: dict[str, Callable[[object], list[str]]] = {
    "revision ids": revision_id_findings,
    "comments": comment_findings,
    "text in revisions": revision_text_findings,
    "whitespace": whitespace_findings,
    "placement": placement_findings,
    "paraIds": para_id_findings,
    "namespaces": namespace_findings,
    "relationships": relationship_findings,
    "python-docx": python_docx_findings,
}


# ----------------------------------------------------------------------------- comparing
def new_findings(found: Iterable[str], baseline: Iterable[str] = ()) -> list[str]:
    """Findings the output has more often than the input (an edit must not make a file worse)."""
    return sorted((Counter(found) - Counter(baseline)).elements())


def assert_no_new(check: Callable[[object], list[str]], out: object, source: object | None = None) -> None:
    """Assert that ``check`` finds nothing in ``out`` beyond what it finds in ``source``."""
    baseline = check(source) if source is not None else []
    fresh = new_findings(check(out), baseline)
    assert not fresh, f"{check.__name__}: {fresh[:20]}"


_FILE_CACHE: dict[tuple[str, str, int, int], list[str] | dict[str, list[str]]] = {}


def _cached(kind: str, docx: object, compute: Callable[[object], object]) -> object:
    """``compute(docx)``, remembered for a file on disk (inputs are checked against many outputs)."""
    if not isinstance(docx, str | os.PathLike):
        return compute(docx)
    path = Path(docx).resolve()
    stat = path.stat()
    key = (kind, str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _FILE_CACHE:
        _FILE_CACHE[key] = compute(path)  # type: ignore[assignment]
    return _FILE_CACHE[key]


def structural_findings(docx: object) -> dict[str, list[str]]:
    """Every structural invariant's findings on ``docx``, by invariant name (a baseline to reuse)."""

    def compute(value: object) -> dict[str, list[str]]:
        doc = load(value)
        return {name: check(doc) for name, check in STRUCTURAL.items()}

    return _cached("structural", docx, compute)  # type: ignore[return-value]


def structural_problems(out: object, source: object | None = None) -> dict[str, list[str]]:
    """Every structural invariant's new findings, by invariant name (empty dict = all hold).

    ``source`` is the input document, or its :func:`structural_findings` computed once.
    """
    if source is None:
        baseline: dict[str, list[str]] = {}
    else:
        baseline = source if isinstance(source, dict) else structural_findings(source)
    found = structural_findings(out)
    problems: dict[str, list[str]] = {}
    for name in STRUCTURAL:
        fresh = new_findings(found[name], baseline.get(name, []))
        if fresh:
            problems[name] = fresh[:20]
    return problems


def assert_structural(out: object, source: object | None = None) -> None:
    """Assert every structural invariant on ``out`` (no new findings relative to ``source``)."""
    problems = structural_problems(out, source)
    assert not problems, problems


# ----------------------------------------------------------------------------- schema and reject
def _as_path(docx: object, folder: Path) -> Path:
    if isinstance(docx, str | os.PathLike) and not isinstance(docx, bytes):
        return Path(docx)
    target = folder / f"doc-{id(docx)}.docx"
    target.write_bytes(load(docx).data)
    return target


def schema_findings(docx: object) -> list[str]:
    """The schema checker's errors as ``part: message`` (paths left out: edits shift them)."""
    return _cached("schema", docx, _schema_findings)  # type: ignore[return-value]


def _schema_findings(docx: object) -> list[str]:
    from tests.checkers import schema_report

    with tempfile.TemporaryDirectory() as folder:
        report = schema_report(_as_path(docx, Path(folder)))
    found = {f"{part['part']}: {e['message']}" for part in report["parts"] for e in part["errors"]}
    found |= {
        f"package: {e if isinstance(e, str) else e.get('message', e)}" for e in report["package_errors"]
    }
    return sorted(found)


def assert_schema_no_new_errors(out: object, source: object) -> None:
    """§5.12.7: ``ooxml_validate.py`` reports no kind of error the input did not have."""
    fresh = sorted(set(schema_findings(out)) - set(schema_findings(source)))
    assert not fresh, f"new schema errors: {fresh[:10]}"


def accepted_texts(reviewer: object) -> list[str]:
    """The accepted-view texts of a reviewer's content blocks, in order (``read_document``)."""
    return [b["text"] for b in reviewer.read_document()]  # type: ignore[attr-defined]


def texts_after_our_reject(out: object, author: str = OUR_AUTHOR) -> list[str]:
    """Content-block texts once our own ``reject_all(author=...)`` has run on the saved ``out``."""
    from reviewer_app.docx import DocxReviewer

    reviewer = DocxReviewer.from_bytes(load(out).data)
    reviewer.reject_all(author=author)
    return accepted_texts(DocxReviewer.from_bytes(reviewer.to_bytes()))


def assert_reject_restores(out: object, original_texts: list[str], author: str = OUR_AUTHOR) -> None:
    """§5.12.1: rejecting our own changes gives back the original text, paragraph by paragraph."""
    after = texts_after_our_reject(out, author)
    if after != original_texts:
        import difflib

        diff = list(difflib.unified_diff(original_texts, after, "original", "after reject", lineterm="", n=1))
        raise AssertionError("reject_all(author) does not restore the original:\n" + "\n".join(diff[:30]))


# ----------------------------------------------------------------------------- accepted text (LibreOffice)
# §5.12.2: accept-all gives the text the agent intended. LibreOffice lays text out as paragraphs
# (table cells included); these helpers state the intended edit on that list and compare with it.

NOTE_MARKER = re.compile(r"\[\^e?\d+\]")


def normalize_text(text: str) -> str:
    """The contract's whitespace normalization (the one block texts are compared with)."""
    from reviewer_app.docx.hashing import normalize_text as contract_normalize

    return contract_normalize(text)


def shown(paragraphs: list[str]) -> list[str]:
    """Paragraph texts normalized, blank ones left out (LibreOffice folds merged cells and empty
    section paragraphs, which are layout, not text)."""
    return [t for t in map(normalize_text, paragraphs) if t]


def matches(ours: str, theirs: str) -> bool:
    """Equal, allowing our ``[^N]`` note markers where LibreOffice shows the note's number."""
    if ours == theirs:
        return True
    pattern = ".{0,6}?".join(re.escape(piece) for piece in NOTE_MARKER.split(ours))
    return re.fullmatch(pattern, theirs) is not None


@dataclass
class Edit:
    """What an operation does to the accepted text: ``anchor`` paragraphs replaced or flanked by ``new``."""

    anchor: list[str]
    how: str  # "replace" | "after" | "before"
    new: list[str]


def locate(paragraphs: list[str], anchor: list[str]) -> int | None:
    """Where ``anchor`` starts in ``paragraphs`` when it occurs exactly once (else None)."""
    hits = [
        i
        for i in range(len(paragraphs) - len(anchor) + 1)
        if all(matches(a, p) for a, p in zip(anchor, paragraphs[i : i + len(anchor)], strict=False))
    ]
    return hits[0] if len(hits) == 1 else None


def intended(paragraphs: list[str], edits: list[Edit]) -> list[str]:
    """The paragraphs once ``edits`` are applied (anchors must occur exactly once)."""
    out = list(paragraphs)
    for edit in edits:
        i = locate(out, edit.anchor)
        assert i is not None, f"anchor {edit.anchor[:3]} does not occur exactly once"
        end = i + len(edit.anchor)
        if edit.how == "replace":
            out[i:end] = edit.new
        elif edit.how == "after":
            out[end:end] = edit.new
        else:
            out[i:i] = edit.new
    return [t for t in map(normalize_text, out) if t]


def lo_copy(path: Path, folder: Path) -> Path:
    """The file LibreOffice judges: ``path`` itself, or a copy without floating-table positions.

    LibreOffice 7.4 re-anchors floating tables (``w:tblpPr``): it moves the paragraph after such
    a table across it on Accept All and loses rows inserted into it. Positioning is layout the
    input brought, not markup we wrote, so both the original and our output are judged without it.
    """
    data = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        main = z.read("word/document.xml")
        if b"tblpPr" not in main:
            return path
        root = etree.fromstring(main)
        for el in root.iter(W + "tblpPr"):
            el.getparent().remove(el)
        body = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
        target = folder / f"lo-{path.name}"
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
            for item in z.infolist():
                out.writestr(item, body if item.filename == "word/document.xml" else z.read(item))
    return target

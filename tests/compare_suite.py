"""Reading a package as the compare-suite proof sees it, and counting revisions as WmlComparer does.

The proof of a redline must not read content through the model the compare engine itself uses
(a text box the engine cannot see would be invisible to the proof as well). So this reader walks
the package XML directly:

- stories: the body's paragraphs, each text box's paragraphs, and each footnote and endnote in
  the order the body refers to them (a note nobody refers to is not shown, as in Word); a
  paragraph of a table reads with its place (the story's n-th table, its row, its cell), so
  content in the wrong cell or row differs;
- a paragraph reads as its characters, with each equation (``m:oMath``, as its own text), each
  image (by the bytes of its picture) and each other drawing as one unit token; text boxes are
  read once (``mc:Choice``, not the ``mc:Fallback`` copy of the same box);
- whitespace runs of ordinary spaces collapse; a non-breaking space stays itself; blank
  paragraphs are left out.

:func:`revision_count` counts revisions the way ``WmlComparer.GetRevisions`` does (see
``../shared/corpus/compare-suite/README.md``): per story (body, each note), a flat list of atoms
whose status is the outermost revision around them; adjacent atoms with one status, author and
date form one revision.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
import zipfile
from io import BytesIO
from typing import Any

from lxml import etree

from reviewer_app.docx import DocxReviewer

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
V = "{urn:schemas-microsoft-com:vml}"
PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_SPACES = re.compile(" +")
_BOX = W + "txbxContent"
_NOTE_REFS = {W + "footnoteReference": "footnotes", W + "endnoteReference": "endnotes"}
_REVISIONS = {W + "ins": "ins", W + "del": "del", W + "moveFrom": "moveFrom", W + "moveTo": "moveTo"}


class _Package:
    """A .docx's parts and the main part's relationships (id → the target's bytes)."""

    def __init__(self, data: bytes) -> None:
        self.zip = zipfile.ZipFile(BytesIO(data))
        self.names = set(self.zip.namelist())
        self.targets: dict[str, str] = {}
        self.kinds: dict[str, str] = {}
        rels = "word/_rels/document.xml.rels"
        if rels in self.names:
            for rel in etree.fromstring(self.zip.read(rels)).iter(PKG_REL + "Relationship"):
                target = posixpath.normpath(posixpath.join("word", rel.get("Target", "")))
                self.targets[rel.get("Id", "")] = target
                self.kinds[rel.get("Type", "").rsplit("/", 1)[-1]] = target

    def xml(self, name: str) -> etree._Element | None:
        return etree.fromstring(self.zip.read(name)) if name in self.names else None

    def blob_hash(self, rel_id: str | None) -> str:
        target = self.targets.get(rel_id or "")
        if target is None or target not in self.names:
            return "?"
        return hashlib.sha1(self.zip.read(target)).hexdigest()[:8]


class _Reader:
    """Reads one package's stories (see the module docstring)."""

    def __init__(self, data: bytes) -> None:
        self.pkg = _Package(data)
        self.note_order: dict[str, list[str]] = {"footnotes": [], "endnotes": []}
        self.boxes: list[etree._Element] = []

    def _unit(self, el: etree._Element) -> str:
        if el.tag in (M + "oMath",):
            return "⟨eq:" + "".join(t.text or "" for t in el.iter(M + "t")) + "⟩"
        blip = next(el.iter(A + "blip"), None)
        if blip is not None:
            return "⟨img:" + self.pkg.blob_hash(blip.get(R + "embed")) + "⟩"
        image = next(el.iter(V + "imagedata"), None)
        if image is not None:
            return "⟨img:" + self.pkg.blob_hash(image.get(R + "id")) + "⟩"
        return "⟨box⟩" if next(el.iter(_BOX), None) is not None else "⟨drawing⟩"

    def _walk(self, el: etree._Element, out: list[str]) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag == MC + "Fallback":
                continue
            if tag == _BOX:
                self.boxes.append(child)
            elif tag in (M + "oMath", W + "drawing", W + "pict", W + "object"):
                out.append(self._unit(child))
                for box in child.iter(_BOX):
                    if not any(a.tag == MC + "Fallback" for a in box.iterancestors()):
                        self.boxes.append(box)
            elif tag == W + "t":
                out.append(child.text or "")
            elif tag == W + "tab":
                out.append("\t")
            elif tag in (W + "br", W + "cr"):
                out.append("\n")
            elif tag == W + "noBreakHyphen":
                out.append("\u2011")
            elif tag == W + "sym":
                out.append(chr(int(child.get(W + "char", "20"), 16) & 0xFFFF))
            elif tag in _NOTE_REFS:
                self.note_order[_NOTE_REFS[tag]].append(child.get(W + "id", ""))
                out.append("⟨note⟩")
            elif tag in (W + "delText", W + "instrText", W + "delInstrText", W + "pPr", W + "rPr"):
                continue
            else:
                self._walk(child, out)

    def paragraphs(self, container: etree._Element) -> list[str]:
        texts: list[str] = []
        tables = {t: n for n, t in enumerate(container.iter(W + "tbl"))}
        for p in _paragraphs(container):
            out: list[str] = []
            self._walk(p, out)
            text = _SPACES.sub(" ", "".join(out)).strip(" ")
            if text:
                texts.append(_cell_place(p, container, tables) + text)
        return texts

    def stories(self) -> dict[str, list[str]]:
        root = self.pkg.xml("word/document.xml")
        body = root.find(W + "body") if root is not None else None
        found: dict[str, list[str]] = {"body": self.paragraphs(body) if body is not None else []}
        index = 0
        while index < len(self.boxes):  # boxes found while reading boxes are read too
            found[f"text box {index + 1}"] = self.paragraphs(self.boxes[index])
            index += 1
        for kind, tag in (("footnotes", "footnote"), ("endnotes", "endnote")):
            part = self.pkg.xml(self.pkg.kinds.get(kind, "-"))
            notes = {n.get(W + "id"): n for n in part.iter(W + tag)} if part is not None else {}
            for number, note_id in enumerate(self.note_order[kind], start=1):
                note = notes.get(note_id)
                found[f"{tag} {number}"] = self.paragraphs(note) if note is not None else ["⟨missing⟩"]
        return found


def _cell_place(p: etree._Element, container: etree._Element, tables: dict[etree._Element, int]) -> str:
    """Where a paragraph of a table sits, as ``⟨table.row.cell⟩`` from its outermost table in
    ``container`` inwards (the n-th table of the story, its row, its cell); "" outside tables.
    A word or picture that lands in another cell, or a row that gains a cell's paragraph, reads
    differently even when the story's words follow in the same order."""
    places: list[str] = []
    for cell in p.iterancestors():
        if cell is container:
            break
        if cell.tag != W + "tc":
            continue
        row = next(cell.iterancestors(W + "tr"))
        table = next(row.iterancestors(W + "tbl"))
        cells = [c for c in row.iter(W + "tc") if next(c.iterancestors(W + "tr")) is row]
        rows = [r for r in table.iter(W + "tr") if next(r.iterancestors(W + "tbl")) is table]
        places.append(f"{tables.get(table, -1)}.{rows.index(row)}.{cells.index(cell)}")
    return "⟨" + "/".join(reversed(places)) + "⟩ " if places else ""


def _paragraphs(container: etree._Element) -> list[etree._Element]:
    """Paragraphs of ``container`` in order, not those of text boxes inside it nor fallbacks."""
    out: list[etree._Element] = []
    for child in container:
        if not isinstance(child.tag, str) or child.tag in (_BOX, MC + "Fallback"):
            continue
        if child.tag == W + "p":
            out.append(child)
        elif child.tag not in (W + "r", W + "pPr", W + "rPr", W + "drawing", W + "pict"):
            out.extend(_paragraphs(child))
    return out


def stories(data: bytes) -> dict[str, list[str]]:
    """Every story of a package, as the proof compares them (see the module docstring)."""
    return _Reader(data).stories()


def resolved(data: bytes, accept: bool) -> bytes:
    """The package with every tracked change accepted (or rejected) by our engine."""
    reviewer = DocxReviewer.from_bytes(data)
    if accept:
        reviewer.accept_all()
    else:
        reviewer.reject_all()
    return reviewer.to_bytes()


def story_differences(got: bytes, want: bytes) -> list[str]:
    """Names of the stories whose reading differs between two packages."""
    ours, theirs = stories(got), stories(want)
    return [name for name in sorted(set(ours) | set(theirs)) if ours.get(name) != theirs.get(name)]


# ----------------------------------------------------------------------------- revision count
def _status(el: etree._Element, top: etree._Element) -> tuple[str, str, str] | None:
    """The outermost revision wrapper between ``el`` and ``top``, as (kind, author, date)."""
    found = None
    for ancestor in el.iterancestors():
        if ancestor is top:
            break
        kind = _REVISIONS.get(ancestor.tag)
        if kind is not None:
            found = (kind, ancestor.get(W + "author", ""), ancestor.get(W + "date", ""))
    return found


def _mark_status(p: etree._Element) -> tuple[str, str, str] | None:
    rpr = p.find(f"{W}pPr/{W}rPr")
    if rpr is None:
        return None
    for child in rpr:
        kind = _REVISIONS.get(child.tag)
        if kind is not None:
            return kind, child.get(W + "author", ""), child.get(W + "date", "")
    return None


def _atoms(el: etree._Element, top: etree._Element, out: list[Any]) -> None:
    for child in el:
        tag = child.tag
        if not isinstance(tag, str) or tag in (MC + "Fallback", W + "pPr", W + "rPr"):
            continue
        if tag in (W + "t", W + "delText"):
            out.extend([_status(child, top)] * len(child.text or ""))
        elif tag in (W + "br", W + "tab", W + "cr", W + "sym", M + "oMath"):
            out.append(_status(child, top))
        elif tag in (W + "drawing", W + "pict"):
            out.append(_status(child, top))
            for box in child.iter(_BOX):  # a text box's paragraphs are atoms of the story too
                if next(box.iterancestors(MC + "Fallback"), None) is None:
                    _atoms(box, top, out)
        elif tag in _NOTE_REFS:
            out.append(_status(child, top))
        else:
            _atoms(child, top, out)
            if tag == W + "p":
                out.append(_mark_status(child))


def _groups(atoms: list[Any]) -> int:
    count, last = 0, None
    for status in atoms:
        if status is not None and status != last:
            count += 1
        last = status
    return count


def revision_count(data: bytes) -> int:
    """WmlComparer's count of the revisions in a package: body, each footnote, each endnote."""
    pkg = _Package(data)
    total = 0
    root = pkg.xml("word/document.xml")
    if root is not None:
        atoms: list[Any] = []
        _atoms(root, root, atoms)
        total += _groups(atoms)
    for kind, tag in (("footnotes", "footnote"), ("endnotes", "endnote")):
        part = pkg.xml(pkg.kinds.get(kind, "-"))
        for note in part.iter(W + tag) if part is not None else ():
            atoms = []
            _atoms(note, note, atoms)
            total += _groups(atoms)
    return total

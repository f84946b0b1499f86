"""The .docx package: zip members, content types and relationships, opened safely, saved faithfully.

Opening checks the container before anything is inflated (encrypted OLE files, non-zips,
truncated zips, member counts, sizes and compression ratios) and inflates each member through a
capped stream, so a header that lies about its size cannot blow up memory. XML parts are parsed
lazily with the one safe parser of :mod:`.xmlutil`.

Saving rewrites only the parts marked dirty; every other member is written back with the same
name, order, timestamp and bytes it had, so a round trip with no change keeps the package as it was.
"""

from __future__ import annotations

import io
import os
import posixpath
import stat
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree

from . import limits
from .atomic_write import write_atomically
from .errors import (
    DocxOpenError,
    DuplicatePartError,
    EncryptedPartError,
    MalformedXmlError,
    MissingPartError,
    NotADocxError,
    NotARegularFileError,
    PackageTooLargeError,
    PasswordProtectedError,
    StrictOoxmlError,
    TruncatedPackageError,
    UnsafeXmlError,
    UnsupportedZipError,
)
from .xmlutil import NS, STRICT_W_NS, parse_xml, serialize_xml

_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
_ENCRYPTION_STREAM = "EncryptionInfo".encode("utf-16-le")
_STRICT_REL_PREFIX = "http://purl.oclc.org/ooxml/officeDocument/relationships/"
_CT = "{%s}" % NS["ct"]
_PR = "{%s}" % NS["pr"]
_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class Relationship:
    """One ``<Relationship>`` of a part: id, type URI, resolved target part name (or URL)."""

    rel_id: str
    rel_type: str
    target: str
    external: bool

    def is_type(self, suffix: str) -> bool:
        """True when the relationship type ends with ``/suffix`` (Transitional or MS variants)."""
        return self.rel_type.rsplit("/", 1)[-1] == suffix


def _rels_name(part_name: str) -> str:
    """Part name of the relationships part that belongs to ``part_name`` ('' = the package)."""
    folder, base = posixpath.split(part_name)
    return posixpath.join(folder, "_rels", base + ".rels")


def _resolve_target(source_part: str, target: str) -> str:
    """Resolve a relative relationship target against the folder of its source part."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    folder = posixpath.dirname(source_part)
    return posixpath.normpath(posixpath.join(folder, target))


class Package:
    """An opened .docx: members in their original order, inflated and parsed on demand.

    Only the compressed file is held; a member is inflated when it is parsed or saved, so
    images and untouched parts never sit in memory twice.
    """

    def __init__(
        self,
        archive: zipfile.ZipFile,
        members: list[zipfile.ZipInfo],
        path: str | None,
        verified: dict[str, bytes] | None = None,
    ) -> None:
        self.path = path
        self._archive = archive
        self._infos = members
        self._by_name = {i.filename: i for i in members}
        self._xml: dict[str, etree._Element] = {}
        self._dirty: set[str] = set()
        #: the count of marks so far, and each part's count at its last mark (see :meth:`marked_since`)
        self._marks = 0
        self._marked: dict[str, int] = {}
        self._removed: set[str] = set()
        self._added: list[str] = []
        self._blobs: dict[str, bytes] = {}  # binary parts added since opening (a copied picture)
        self._rels_cache: dict[str, list[Relationship]] = {}
        #: the main part's bytes as opening inflated them, until it is parsed
        self._inflated: dict[str, bytes] = {}
        self.main_part = self._find_main_part()
        if verified and self.main_part in verified:
            self._inflated[self.main_part] = verified[self.main_part]

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Package:
        """Open the file at ``path``; raise a :class:`DocxOpenError` subclass when it cannot be."""
        shown = str(path)
        return cls.from_bytes(_read_regular_file(path, shown), path=shown)

    @classmethod
    def from_bytes(cls, data: bytes, path: str | None = None) -> Package:
        """Open a package held in memory (same checks as :meth:`open`)."""
        head = data[:8]
        if head.startswith(_OLE2_MAGIC):
            if _ENCRYPTION_STREAM in data:
                raise PasswordProtectedError(path)
            raise NotADocxError(
                path,
                "it is an older Word 97-2003 (.doc) file, not a .docx. "
                "Open it in Word and save it as a Word Document (.docx).",
            )
        if not head.startswith(_ZIP_MAGICS):
            raise NotADocxError(path, "it is not a Word .docx file (the file is not a zip package).")
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            infos = archive.infolist()
        except NotImplementedError as exc:  # "zip file version N": a format feature Word never writes
            raise UnsupportedZipError(path, f"it uses a zip format Word does not write ({exc}).") from None
        except (zipfile.BadZipFile, EOFError, ValueError, OverflowError, struct.error):
            raise TruncatedPackageError(
                path,
                "the file is damaged or incomplete (its zip directory is missing). "
                "It may have been cut short while downloading or copying; get a fresh copy.",
            ) from None
        _check_unique_names(infos, path)
        _check_sizes(infos, path)
        members = [i for i in infos if not i.is_dir()]
        verified: dict[str, bytes] = {}
        for info in members:
            # CRC and size verified now, not at save time; the XML is kept until the main part is
            # known, so opening does not inflate that part (the largest) a second time to parse it
            data = _inflate(archive, info, path, keep=info.filename.endswith(".xml"))
            if data:
                verified[info.filename] = data
        return cls(archive, members, path, verified)

    def _find_main_part(self) -> str:
        """Locate the main document part through the package relationships, not a fixed path."""
        if not self.has_part("[Content_Types].xml"):
            raise MissingPartError(self.path, "it has no [Content_Types].xml, so it is not a Word package.")
        if not self.has_part(_rels_name("")):
            raise MissingPartError(self.path, "it has no package relationships (_rels/.rels).")
        for rel in self.relationships(""):
            if rel.rel_type.startswith(_STRICT_REL_PREFIX):
                raise StrictOoxmlError(
                    self.path,
                    'it is saved as "Strict Open XML", which Reviewer does not edit. '
                    'Save it in Word as a normal "Word Document (.docx)" and open that copy.',
                )
            if rel.is_type("officeDocument") and not rel.external:
                if not self.has_part(rel.target):
                    raise MissingPartError(
                        self.path, f"its main document part ({rel.target}) is missing from the package."
                    )
                return rel.target
        raise MissingPartError(self.path, "it has no main document part, so it is not a Word document.")

    # ----------------------------------------------------------------- parts
    def has_part(self, name: str) -> bool:
        """True when the package holds a part named ``name`` (no leading slash)."""
        return (name in self._by_name or name in self._added) and name not in self._removed

    def part_names(self) -> list[str]:
        """Part names in package order (original members first, then added ones)."""
        names = [i.filename for i in self._infos if i.filename not in self._removed]
        return names + [n for n in self._added if n not in self._removed]

    def read_bytes(self, name: str) -> bytes:
        """The bytes of a part as they will be saved (serialized when dirty)."""
        if name in self._dirty and name in self._xml:
            return serialize_xml(self._xml[name])
        if name in self._blobs and name not in self._removed:
            return self._blobs[name]
        info = self._by_name.get(name)
        if info is None or name in self._removed:
            raise MissingPartError(self.path, f"the part {name} is missing.")
        inflated = self._inflated.pop(name, None)
        return inflated if inflated is not None else _inflate(self._archive, info, self.path, keep=True)

    def xml(self, name: str) -> etree._Element:
        """Parse (once) and return the root element of the XML part ``name``."""
        root = self._xml.get(name)
        if root is None:
            try:
                root = parse_xml(self.read_bytes(name))
            except ValueError:
                raise UnsafeXmlError(
                    self.path,
                    f"the part {name} declares a DTD or entities, which Word documents never contain. "
                    "The file may have been tampered with.",
                ) from None
            except etree.XMLSyntaxError as exc:
                raise MalformedXmlError(self.path, f"the part {name} is not valid XML ({exc.msg}).") from None
            if root.tag.startswith("{%s}" % STRICT_W_NS):
                raise StrictOoxmlError(
                    self.path,
                    'it is saved as "Strict Open XML", which Reviewer does not edit. '
                    'Save it in Word as a normal "Word Document (.docx)" and open that copy.',
                )
            self._xml[name] = root
        return root

    def mark_dirty(self, name: str) -> None:
        """Record that the parsed tree of ``name`` changed and must be serialized on save.

        Call it after every change, also to a part that is dirty already: the undo journal takes
        a part no act marked (:meth:`marked_since`) as unchanged and does not serialize it again.
        """
        if name not in self._xml:
            raise KeyError(f"{name} was never parsed; only parsed parts can be dirty")
        self._dirty.add(name)
        self._note_mark(name)

    def _note_mark(self, name: str) -> None:
        self._marks += 1
        self._marked[name] = self._marks

    def marks(self) -> int:
        """How many times a part was marked changed so far (an act's journal notes it when it begins)."""
        return self._marks

    def marked_since(self, name: str, marks: int) -> bool:
        """True when ``name`` was marked changed (or put in place) after the first ``marks`` marks."""
        return self._marked.get(name, 0) > marks

    def is_dirty(self, name: str) -> bool:
        """True when part ``name`` will be re-serialized on save."""
        return name in self._dirty

    def mark_clean(self, name: str) -> None:
        """Forget that ``name`` changed: a rollback restored it exactly, so save keeps its bytes."""
        self._dirty.discard(name)

    def put_xml(self, name: str, root: etree._Element, content_type: str | None = None) -> None:
        """Add or replace the XML part ``name``; a new part gets a content-type override."""
        is_new = not self.has_part(name)
        self._xml[name] = root
        self._dirty.add(name)
        self._note_mark(name)
        self._removed.discard(name)
        if is_new and name not in self._added and name not in self._by_name:
            self._added.append(name)
        if content_type and is_new:
            types = self.xml("[Content_Types].xml")
            etree.SubElement(types, _CT + "Override", PartName="/" + name, ContentType=content_type)
            self.mark_dirty("[Content_Types].xml")
        self._rels_cache.pop(name, None)

    def put_bytes(self, name: str, data: bytes, content_type: str | None = None) -> None:
        """Add the new binary part ``name`` (a picture a redline copies from the other version);
        it gets a content-type override when no default covers its extension."""
        if self.has_part(name):
            raise ValueError(f"the part {name} already exists")
        self._blobs[name] = data
        self._removed.discard(name)
        if name not in self._added:
            self._added.append(name)
        if content_type and self.content_type(name) is None:
            types = self.xml("[Content_Types].xml")
            etree.SubElement(types, _CT + "Override", PartName="/" + name, ContentType=content_type)
            self.mark_dirty("[Content_Types].xml")

    def remove_part(self, name: str) -> None:
        """Forget part ``name`` (a part an undone edit had created); it is not saved."""
        self._removed.add(name)
        self._xml.pop(name, None)
        self._dirty.discard(name)
        self._rels_cache.pop(name, None)

    def remove_content_type_override(self, name: str) -> bool:
        """Drop the ``[Content_Types].xml`` override of part ``name``; True when there was one.

        A removed part must not keep its override: validators (and Word) treat an override for a
        missing part as a broken package.
        """
        types = self.xml("[Content_Types].xml")
        found = [el for el in types.iter(_CT + "Override") if el.get("PartName", "").lstrip("/") == name]
        for el in found:
            types.remove(el)
        if found:
            self.mark_dirty("[Content_Types].xml")
        return bool(found)

    def remove_relationship(self, source_part: str, rel_id: str) -> bool:
        """Remove relationship ``rel_id`` of ``source_part``; True when it existed.

        The target part is left alone (another relationship may still use it); callers remove
        it with :meth:`remove_part` when it is no longer wanted.
        """
        rels_part = _rels_name(source_part)
        if not self.has_part(rels_part):
            return False
        root = self.xml(rels_part)
        found = [el for el in root.iter(_PR + "Relationship") if el.get("Id") == rel_id]
        for el in found:
            root.remove(el)
        if found:
            self.mark_dirty(rels_part)
            self._rels_cache.pop(source_part, None)
        return bool(found)

    def add_relationship(self, source_part: str, rel_type: str, target_part: str) -> str:
        """Relate ``source_part`` to ``target_part`` with the full ``rel_type`` URI; return the new id.

        The ``.rels`` part is created when the source has none yet.
        """
        rels_part = _rels_name(source_part)
        if self.has_part(rels_part):
            root = self.xml(rels_part)
        else:
            root = etree.Element(_PR + "Relationships", nsmap={None: NS["pr"]})
            self.put_xml(rels_part, root)
        used = {el.get("Id") for el in root.iter(_PR + "Relationship")}
        number = len(used) + 1
        while f"rId{number}" in used:
            number += 1
        rel_id = f"rId{number}"
        folder = posixpath.dirname(source_part)
        target = posixpath.relpath(target_part, folder) if folder else target_part
        etree.SubElement(root, _PR + "Relationship", Id=rel_id, Type=rel_type, Target=target)
        self.mark_dirty(rels_part)
        self._rels_cache.pop(source_part, None)
        return rel_id

    def content_type(self, name: str) -> str | None:
        """The content type of part ``name`` from ``[Content_Types].xml`` (override, then default)."""
        types = self.xml("[Content_Types].xml")
        for el in types.iter(_CT + "Override"):
            if el.get("PartName", "").lstrip("/") == name:
                return el.get("ContentType")
        ext = name.rsplit(".", 1)[-1].lower()
        for el in types.iter(_CT + "Default"):
            if el.get("Extension", "").lower() == ext:
                return el.get("ContentType")
        return None

    # ----------------------------------------------------------------- undo (see .journal)
    def bookkeeping(self) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
        """Which parts are dirty, removed and added: one side of an undo record."""
        return frozenset(self._dirty), frozenset(self._removed), tuple(self._added)

    def archived_bytes(self, name: str) -> bytes | None:
        """The bytes part ``name`` had when the package was opened (None for a part added since)."""
        info = self._by_name.get(name)
        return _inflate(self._archive, info, self.path, keep=True) if info is not None else None

    def restore_state(
        self,
        bytes_by_part: dict[str, bytes | None],
        bookkeeping: tuple[frozenset[str], frozenset[str], tuple[str, ...]],
        parse: Callable[[bytes], etree._Element],
    ) -> None:
        """Put parts back as an undo record saw them: ``bytes_by_part`` (None: absent) and the
        dirty/removed/added sets. A part clean on that side is re-read from the archive."""
        dirty, removed, added = bookkeeping
        self._dirty, self._removed, self._added = set(dirty), set(removed), list(added)
        for name, data in bytes_by_part.items():
            if data is None or name not in dirty:
                self._xml.pop(name, None)
            else:
                self._xml[name] = parse(data)
        self._rels_cache.clear()

    # ----------------------------------------------------------------- relationships
    def relationships(self, source_part: str) -> list[Relationship]:
        """Relationships of ``source_part`` ('' for the package) with targets resolved to part names."""
        cached = self._rels_cache.get(source_part)
        if cached is not None:
            return cached
        rels_part = _rels_name(source_part)
        found: list[Relationship] = []
        if self.has_part(rels_part):
            for el in self.xml(rels_part).iter(_PR + "Relationship"):
                external = el.get("TargetMode") == "External"
                target = el.get("Target", "")
                found.append(
                    Relationship(
                        rel_id=el.get("Id", ""),
                        rel_type=el.get("Type", ""),
                        target=target if external else _resolve_target(source_part, target),
                        external=external,
                    )
                )
        self._rels_cache[source_part] = found
        return found

    @staticmethod
    def relationships_part(source_part: str) -> str:
        """The name of the ``.rels`` part that holds ``source_part``'s relationships."""
        return _rels_name(source_part)

    def related_part(self, source_part: str, type_suffix: str) -> str | None:
        """The first internal, present target of ``source_part`` with the given relationship type."""
        for rel in self.relationships(source_part):
            if rel.is_type(type_suffix) and not rel.external and self.has_part(rel.target):
                return rel.target
        return None

    def related_parts(self, source_part: str, type_suffix: str) -> list[Relationship]:
        """Every internal, present relationship of ``source_part`` with the given type, in file order."""
        return [
            r
            for r in self.relationships(source_part)
            if r.is_type(type_suffix) and not r.external and self.has_part(r.target)
        ]

    def invalidate_relationships(self, source_part: str | None = None) -> None:
        """Forget cached relationships of ``source_part`` (all of them when None).

        Needed whenever a ``.rels`` tree changes behind the cache: an edit, or a rollback that
        restores one.
        """
        if source_part is None:
            self._rels_cache.clear()
        else:
            self._rels_cache.pop(source_part, None)

    # ----------------------------------------------------------------- saving
    def to_bytes(self) -> bytes:
        """Serialize the package: unchanged members byte for byte, dirty parts re-serialized."""
        return zip_members(self.members())

    def members(self) -> list[tuple[zipfile.ZipInfo, bytes]]:
        """Every member :meth:`to_bytes` writes, in order, with its bytes: the dirty parts are
        serialized now, and nothing returned refers to the parsed parts, so the compressing
        (:func:`zip_members`, more than half of a save) may run on another thread while the
        document is edited."""
        out: list[tuple[zipfile.ZipInfo, bytes]] = []
        for info in self._infos:
            if info.filename in self._removed:
                continue
            clone = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            clone.compress_type = info.compress_type
            clone.external_attr = info.external_attr
            clone.create_system = info.create_system
            clone.extra = info.extra
            clone.comment = info.comment
            out.append((clone, self.read_bytes(info.filename)))
        for name in self._added:
            if name in self._removed:
                continue
            clone = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            clone.compress_type = zipfile.ZIP_DEFLATED
            out.append((clone, self.read_bytes(name)))
        return out

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a temporary file in the target folder, fsync, then ``os.replace``.

        A crash or a full disk mid-save leaves the previous file untouched.
        """
        write_atomically(path, self.to_bytes())


def zip_members(members: list[tuple[zipfile.ZipInfo, bytes]]) -> bytes:
    """The package file holding ``members`` (:meth:`Package.members`), in their order."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info, data in members:
            archive.writestr(info, data)
    return out.getvalue()


def _check_sizes(infos: list[zipfile.ZipInfo], path: str | None) -> None:
    """Refuse packages whose declared sizes or ratios exceed :mod:`.limits` before inflating."""
    if len(infos) > limits.MAX_MEMBERS:
        raise PackageTooLargeError(
            path, f"it holds {len(infos):,} files, over the {limits.MAX_MEMBERS:,}-file safety limit."
        )
    total = 0
    for info in infos:
        _check_member(info.filename, info.file_size, info.compress_size, path)
        total += info.file_size
        if total > limits.MAX_TOTAL_BYTES:
            raise PackageTooLargeError(
                path,
                f"it would expand to more than {limits.MAX_TOTAL_BYTES // (1024 * 1024):,} MB, "
                "far beyond any real document. It may be a 'zip bomb'; it was not opened.",
            )


def _check_member(name: str, size: int, compressed: int, path: str | None) -> None:
    """Check one member's (declared or actual) size and compression ratio against the limits."""
    if size > limits.MAX_MEMBER_BYTES:
        raise PackageTooLargeError(
            path,
            f"its part {name} would expand to {size // (1024 * 1024):,} MB, over the "
            f"{limits.MAX_MEMBER_BYTES // (1024 * 1024):,} MB safety limit. It may be a 'zip bomb'; "
            "it was not opened.",
        )
    if size > limits.RATIO_FLOOR_BYTES and size > limits.MAX_COMPRESSION_RATIO * max(compressed, 1):
        raise PackageTooLargeError(
            path,
            f"its part {name} is compressed {size // max(compressed, 1):,} to 1, far beyond any real "
            "document. It may be a 'zip bomb'; it was not opened.",
        )


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: str | None, keep: bool) -> bytes:
    """Inflate one member through a stream capped at its declared size (headers can lie).

    With ``keep=False`` the data is only verified (size cap and CRC) and dropped. Whatever a
    damaged header makes :mod:`zipfile` raise becomes the refusal that names the damage.
    """
    if info.flag_bits & 0x1:
        raise EncryptedPartError(
            path,
            f"its part {info.filename} is encrypted with a zip password, which Word never does. "
            "Get an unencrypted copy of the document.",
        )
    cap = info.file_size
    chunks: list[bytes] = []
    got = 0
    try:
        with archive.open(info) as stream:
            while True:
                chunk = stream.read(_CHUNK)
                if not chunk:
                    break
                got += len(chunk)
                if got > cap:
                    _check_member(info.filename, got, info.compress_size, path)
                    raise TruncatedPackageError(
                        path, f"its part {info.filename} is larger than its zip header says; it is damaged."
                    )
                if keep:
                    chunks.append(chunk)
    except NotImplementedError:
        raise UnsupportedZipError(
            path, f"its part {info.filename} uses a compression method Word does not use."
        ) from None
    except RuntimeError:  # zipfile's "encrypted, password required": the local header says so
        raise EncryptedPartError(
            path, f"its part {info.filename} is encrypted with a zip password, which Word never does."
        ) from None
    except (
        zipfile.BadZipFile,
        zlib.error,
        EOFError,
        OSError,
        ValueError,
        OverflowError,
        struct.error,
    ) as exc:
        raise TruncatedPackageError(
            path, f"its part {info.filename} is damaged and cannot be read ({exc}). Get a fresh copy."
        ) from None
    return b"".join(chunks)


def _check_unique_names(infos: list[zipfile.ZipInfo], path: str | None) -> None:
    """Refuse two members with one part name (OPC names ignore case): readers disagree on which wins."""
    seen: set[str] = set()
    for info in infos:
        key = info.filename.lower()
        if key in seen:
            raise DuplicatePartError(
                path,
                f"it holds the part {info.filename} twice, so what it says is ambiguous. "
                "The file may have been tampered with; get a fresh copy.",
            )
        seen.add(key)


def _read_regular_file(path: str | os.PathLike[str], shown: str) -> bytes:
    """The bytes of the regular file at ``path`` (links followed), at most :data:`limits.MAX_FILE_BYTES`.

    A device (``/dev/zero`` behind a link) would be read until memory ran out and a FIFO would
    block forever: the file is opened without blocking and checked on its descriptor, so what
    is read is what was checked.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise DocxOpenError(shown, f"the file could not be read ({exc.strerror or exc}).") from None
    with os.fdopen(fd, "rb") as fh:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise NotARegularFileError(shown, "it is a folder, not a Word document.")
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFileError(
                shown,
                "it is a device, a pipe or a socket, not a file. Save the document as a file and open that.",
            )
        if status.st_size > limits.MAX_FILE_BYTES:
            raise _too_large(shown)
        try:
            data = fh.read(limits.MAX_FILE_BYTES + 1)  # the file may have grown since fstat
        except OSError as exc:
            raise DocxOpenError(shown, f"the file could not be read ({exc.strerror or exc}).") from None
    if len(data) > limits.MAX_FILE_BYTES:
        raise _too_large(shown)
    return data


def _too_large(shown: str) -> PackageTooLargeError:
    return PackageTooLargeError(
        shown, f"the file is over the {limits.MAX_FILE_BYTES:,}-byte limit for a document."
    )

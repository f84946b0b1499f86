"""Open the two versions safely, whatever form they come in, without ever changing them.

A version may be a path, the bytes of a .docx, or an open :class:`~..reviewer.DocxReviewer`.
Paths and bytes go through the package's archive guards (sizes, ratios, member counts, safe XML);
a refusal becomes a :class:`~.errors.CompareInputError` with the contract's code.

A version with pending tracked changes is compared as its chosen view: ``final`` (accepted) or
``original`` (rejected). The snapshot's clean text already is each block's accepted text, so a
final view is read as it is unless accepting would reshape the blocks (a pending paragraph-mark,
row or cell deletion still reads as two blocks where the accepted document has one); then, and
for every original view, the changes are resolved on a copy: an open reviewer's bytes are
reopened, so the caller's session is never touched.
"""

from __future__ import annotations

import os
from typing import Any

from ..edit import resolve
from ..errors import DocxOpenError, PackageTooLargeError
from ..reviewer import DocxReviewer
from ..revisions import changes_block_structure, has_pending_changes
from .errors import CompareInputError, CompareOptionError

Source = str | os.PathLike[str] | bytes | bytearray | memoryview | DocxReviewer


def _code(error: DocxOpenError) -> str:
    if isinstance(error, PackageTooLargeError):
        return "too-many-entries" if "-file safety limit" in error.detail else "input-too-large"
    return "load-failed"


def open_resolved(
    source: Any, role: str, view: str, copy: bool = False, author: str | None = None, whole: bool = False
) -> DocxReviewer:
    """A reviewer over ``source`` reading as ``view`` ("final" or "original") of its pending changes.

    ``original`` rejects every pending change. ``final`` accepts them when accepting changes the
    block structure, or always with ``whole`` (the redline's base, which must hold no change but
    the comparison's own). A caller's open reviewer is copied before anything is resolved;
    ``copy`` asks for a copy in any case.
    """
    reviewer = open_source(source, role, copy=copy, author=author)
    if view == "final" and not whole:
        needed = changes_block_structure(reviewer.document)
    else:
        needed = has_pending_changes(reviewer.document)
    if not needed:
        return reviewer
    if reviewer is source:
        reviewer = open_source(source, role, copy=True, author=author)
    # resolved on the working copy itself, never saved: a protection for tracked changes guards
    # the person's file, not the comparison's view of it (DocxReviewer would refuse)
    if view == "final":
        resolve.accept_all(reviewer.document)
    else:
        resolve.reject_all(reviewer.document)
    return reviewer


def open_source(source: Any, role: str, copy: bool = False, author: str | None = None) -> DocxReviewer:
    """A reviewer over ``source`` (``role`` is "base" or "revised", for messages).

    With ``copy`` the result is always a fresh session the caller may change.
    """
    kwargs: dict[str, Any] = {} if author is None else {"author": author}
    try:
        if isinstance(source, DocxReviewer):
            if not copy:
                return source
            reviewer = DocxReviewer.from_bytes(source.to_bytes(), path=source.path, **kwargs)
        elif isinstance(source, bytes | bytearray | memoryview):
            reviewer = DocxReviewer.from_bytes(bytes(source), **kwargs)
        elif isinstance(source, str | os.PathLike):
            reviewer = DocxReviewer.open(source, **kwargs)
        else:
            raise CompareOptionError(
                role, type(source).__name__, f"The {role} document must be a path, bytes or a DocxReviewer."
            )
    except DocxOpenError as exc:
        raise CompareInputError(_code(exc), role, exc.detail) from None
    return reviewer

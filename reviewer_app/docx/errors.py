"""Errors raised when a .docx cannot be opened, each with a message a lawyer can act on.

Every refusal is a subclass of :class:`DocxOpenError`, so the CLI and the app catch one type,
show ``str(error)`` and never a traceback.
"""

from __future__ import annotations


class DocxOpenError(Exception):
    """A file could not be opened as a Word document. ``str()`` is the user-facing message."""

    def __init__(self, path: str | None, detail: str) -> None:
        self.path = path
        self.detail = detail
        name = f'"{path}"' if path else "The document"
        super().__init__(f"{name} cannot be opened: {detail}")


class PasswordProtectedError(DocxOpenError):
    """The file is an encrypted (password-protected) Office document, not a plain package."""

    def __init__(self, path: str | None) -> None:
        super().__init__(
            path,
            "it is password-protected. Open it in Word, remove the password "
            "(File > Info > Protect Document), save an unprotected copy and open that copy.",
        )


class NotADocxError(DocxOpenError):
    """The file is not a zip package at all (a .doc, a PDF, a renamed file...)."""


class TruncatedPackageError(DocxOpenError):
    """The zip is damaged or cut short (an interrupted download or copy)."""


class MissingPartError(DocxOpenError):
    """A part the document needs (the main document part) is absent from the package."""


class PackageTooLargeError(DocxOpenError):
    """A member or the whole package would inflate past the safety limits (zip bomb)."""


class UnsafeXmlError(DocxOpenError):
    """A part declares a DTD or entities, which Word documents never need."""


class MalformedXmlError(DocxOpenError):
    """A part is not well-formed XML."""


class StrictOoxmlError(DocxOpenError):
    """The file uses the ISO 29500 Strict vocabulary, which Reviewer does not edit."""


class NotARegularFileError(DocxOpenError):
    """The path names a folder, a device, a pipe or a socket, not a file (read nothing from it)."""


class EncryptedPartError(DocxOpenError):
    """A zip member is encrypted with a zip password, which Word never does."""


class UnsupportedZipError(DocxOpenError):
    """The zip uses a format version or compression method Word does not write."""


class DuplicatePartError(DocxOpenError):
    """Two zip members carry one part name: which one is the document is ambiguous."""

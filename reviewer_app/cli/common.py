"""What every ``reviewer`` command shares: exit codes, the one error type, opening, writing, printing.

The reading commands (:mod:`.main`), the edit commands (:mod:`.edits`) and the agent tools
(:mod:`.tools`) refuse files, name output paths and report failed writes in the same words
and with the same exit codes; keeping those here means a message or a code is changed once.

Like the rest of the CLI, this module must not import PySide6.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..docx import DocxOpenError, DocxReviewer

PROG = "reviewer"
#: Exit status for "this file cannot be opened" (and for usage errors, as argparse does).
EXIT_CANNOT_OPEN = 2
#: Exit status when the output file could not be written (the input was fine).
EXIT_CANNOT_WRITE = 1


class CliError(Exception):
    """A failure the user can act on: printed as ``reviewer: <message>`` with no traceback."""

    def __init__(self, message: str, code: int = EXIT_CANNOT_OPEN) -> None:
        super().__init__(message)
        self.code = code


def _cannot_open(path: str, detail: str) -> CliError:
    """Phrase a refusal the way :class:`DocxOpenError` does, so every message reads alike."""
    return CliError(f'"{path}" cannot be opened: {detail}')


def check_file(path: str) -> Path:
    """Refuse missing files and folders before anything is read (exit 2, plain message)."""
    candidate = Path(path)
    if not candidate.exists():
        raise _cannot_open(path, "there is no such file.")
    if candidate.is_dir():
        raise _cannot_open(path, "it is a folder, not a Word document.")
    return candidate


def open_reviewer(path: str, author: str | None = None) -> DocxReviewer:
    """Open ``path`` with the engine; a refusal becomes a :class:`CliError` with its message."""
    check_file(path)
    try:
        reviewer = DocxReviewer.open(path) if author is None else DocxReviewer.open(path, author=author)
        reviewer.snapshot()  # parse now, so a broken main part is refused here, as a refusal
    except DocxOpenError as exc:
        raise CliError(str(exc)) from None
    warn_about_macros(path, reviewer)
    return reviewer


def warn_about_macros(path: str, reviewer: DocxReviewer) -> None:
    """Say on standard error that the document carries macros: a clean copy should not."""
    from ..docx.edit.hidden_data import has_macros

    if has_macros(reviewer.package):
        sys.stderr.write(
            f'{PROG}: warning: "{path}" contains macros (a VBA project); Reviewer never runs them, '
            "and finalize --strip-metadata removes them.\n"
        )


def refuse_files_open_in_reviewer(paths: list[str | None], force: bool) -> None:
    """Refuse (exit 2) to read or write a document a Reviewer window holds, unless ``force``.

    The window would save its own copy over whatever is written now, and the edit would be lost.
    """
    if force:
        return
    from ..docx.doc_lock import live_lock_owner  # here: the reading commands never need the lock

    for path in paths:
        owner = live_lock_owner(path) if path else None
        if owner is not None:
            raise CliError(
                f'"{path}" is open in Reviewer {owner.describe()}, so nothing was written: close it '
                "there first, or pass --force to write anyway."
            )


def write(text: str) -> None:
    """Print ``text`` with one trailing newline."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def dump_json(data: Any) -> None:
    """Print ``data`` as indented JSON, non-ASCII kept readable (contracts are not all English)."""
    write(json.dumps(data, indent=2, ensure_ascii=False))


def output_path(command: str, output: str | None) -> Path:
    """The ``-o`` target: required, and in a folder that exists (checked before any work)."""
    if not output:
        raise CliError(
            f"{command} needs -o OUT: it never changes FILE in place. Name the file to write "
            "(-o FILE overwrites FILE on purpose)."
        )
    target = Path(output)
    if target.is_dir():
        raise CliError(f'cannot write "{output}": it is a folder.')
    if not target.absolute().parent.is_dir():
        raise CliError(f'cannot write "{output}": the folder "{target.absolute().parent}" does not exist.')
    return target


def save_output(save: Callable[[Path], object], target: Path) -> None:
    """Run ``save(target)``; a failure is exit 1 (the input was fine, the output could not be written)."""
    try:
        save(target)
    except OSError as exc:
        raise CliError(f'cannot write "{target}": {exc.strerror or exc}.', EXIT_CANNOT_WRITE) from None


def review_save(reviewer: DocxReviewer, bridge: Any) -> Callable[[Path], object]:
    """Review mode's save for ``save_output``: the document, and its proposal queue moved along."""
    from ..agent.proposal_store import save_with_proposals  # here: most commands never load the agent

    return functools.partial(save_with_proposals, reviewer, bridge.store)

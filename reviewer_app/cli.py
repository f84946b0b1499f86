"""The ``reviewer`` command: start the desktop app, or read a document from the terminal.

``reviewer [FILE]`` starts the app (on the bundled sample contract when no file is given);
``reviewer read FILE`` and ``reviewer outline FILE`` print what the agent would see, so a
document can be checked without a window, in scripts and in CI.

This module must not import PySide6: the reading commands run on machines without a display
and the layer test imports it in a bare interpreter. The app is imported only when started.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .docx import DocxOpenError, DocxReviewer
from .docx.snapshot import Snapshot

PROG = "reviewer"
#: Exit status for "this file cannot be opened" (and for usage errors, as argparse does).
EXIT_CANNOT_OPEN = 2
COMMANDS = ("read", "outline")
#: Deepest heading level Word has (outline levels 0-8).
MAX_HEADING_LEVEL = 9

_USAGE = """\
reviewer [FILE]                            start the app (the sample contract when no FILE)
       reviewer read FILE [-f markdown|json]      print the document as the agent reads it
       reviewer outline FILE [-d N]               print the heading outline
       reviewer --version"""


class CliError(Exception):
    """A failure the user can act on: printed as ``reviewer: <message>`` with no traceback."""

    def __init__(self, message: str, code: int = EXIT_CANNOT_OPEN) -> None:
        super().__init__(message)
        self.code = code


# ----------------------------------------------------------------------------- parsers
def _app_parser() -> argparse.ArgumentParser:
    """Parser for ``reviewer [FILE]`` (the default: start the desktop app)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage=_USAGE,
        description="Review Word contracts with an AI agent; every change is a tracked change "
        "or a comment.",
        epilog="Run 'reviewer read --help' or 'reviewer outline --help' for the reading commands.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("file", nargs="?", help="the .docx to open (default: the sample contract)")
    # Smoke tests and packaging checks start the real app and need it to leave on its own.
    parser.add_argument("--quit-after", type=int, metavar="MS", help=argparse.SUPPRESS)
    return parser


def _depth(value: str) -> int:
    """argparse type for ``--depth``: a heading level from 1 to 9."""
    try:
        depth = int(value)
    except ValueError:
        depth = 0
    if not 1 <= depth <= MAX_HEADING_LEVEL:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_HEADING_LEVEL}")
    return depth


def _commands_parser() -> argparse.ArgumentParser:
    """Parser for the terminal commands (``read``, ``outline``)."""
    parser = argparse.ArgumentParser(prog=PROG, usage=_USAGE)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    read = sub.add_parser(
        "read",
        prog=f"{PROG} read",
        help="print the document as the agent reads it",
        description="Print the document as the agent reads it: blocks with ids, list labels, "
        "tracked changes and comments.",
    )
    read.add_argument("file", help="the .docx to read")
    read.add_argument(
        "-f", "--format", choices=("markdown", "json"), default="markdown", help="output format"
    )
    outline = sub.add_parser(
        "outline",
        prog=f"{PROG} outline",
        help="print the heading outline",
        description="Print the document's headings, indented by level, with labels and block ids.",
    )
    outline.add_argument("file", help="the .docx to read")
    outline.add_argument(
        "-d",
        "--depth",
        type=_depth,
        default=MAX_HEADING_LEVEL,
        metavar="N",
        help="show headings down to level N (1-9, default: all)",
    )
    return parser


# ----------------------------------------------------------------------------- helpers
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


def _open_reviewer(path: str) -> DocxReviewer:
    """Open ``path`` with the engine; a refusal becomes a :class:`CliError` with its message."""
    check_file(path)
    try:
        reviewer = DocxReviewer.open(path)
        reviewer.snapshot()  # parse now, so a broken main part is refused here, as a refusal
    except DocxOpenError as exc:
        raise CliError(str(exc)) from None
    return reviewer


def _entry_value(entry: Any, *names: str) -> Any:
    """Read the first present field of an outline entry, whether a mapping or an object."""
    for name in names:
        value = entry.get(name) if isinstance(entry, dict) else getattr(entry, name, None)
        if value is not None:
            return value
    return None


def _outline_entries(snapshot: Snapshot, max_depth: int) -> list[Any] | None:
    """Entries from :mod:`reviewer_app.docx.outline` (the agent's outline), None without it."""
    try:
        from .docx import outline as outline_module
    except ImportError:
        return None
    get_outline = getattr(outline_module, "get_outline", None)
    if get_outline is None:
        return None
    result = get_outline(snapshot, max_depth=max_depth)
    if isinstance(result, dict):  # the tool's shape: {sections, totalSections, truncated}
        result = result.get("sections", [])
    return list(result)


def outline_lines(reviewer: DocxReviewer, max_depth: int = MAX_HEADING_LEVEL) -> list[str]:
    """One line per heading, indented two spaces per level below 1: ``label text  [id]``.

    Uses the engine's outline (the same one the agent's ``get_document_outline`` returns)
    when present; otherwise every content block with a heading level.
    """
    snapshot = reviewer.snapshot()
    rows: list[tuple[int, str | None, str, str]] = []
    entries = _outline_entries(snapshot, max_depth)
    if entries is not None:
        for entry in entries:
            block_id = str(_entry_value(entry, "headingBlockId", "heading_block_id", "id"))
            block = snapshot.block(block_id)
            level = int(_entry_value(entry, "level", "headingLevel", "heading_level") or 1)
            text = str(_entry_value(entry, "text") or (block.text if block else ""))
            rows.append((level, block.display_label if block else None, text, block_id))
    else:
        for block in snapshot.content_blocks():
            if block.heading_level and block.heading_level <= max_depth:
                rows.append((block.heading_level, block.display_label, block.text, block.id))
    lines = []
    for level, label, text, block_id in rows:
        flat = " ".join(text.split())
        shown = f"{label} {flat}" if label else flat
        lines.append(f"{'  ' * max(level - 1, 0)}{shown}  [{block_id}]")
    return lines


def _write(text: str) -> None:
    """Print ``text`` with one trailing newline."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


# ----------------------------------------------------------------------------- commands
def run_read(path: str, fmt: str) -> int:
    """``reviewer read``: the LLM view as Markdown, or as pretty-printed JSON."""
    reviewer = _open_reviewer(path)
    from .docx import llm_view

    if fmt == "json":
        data = llm_view.to_json(reviewer)
        if isinstance(data, str):  # already serialized: re-indent for people
            data = json.loads(data)
        _write(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _write(llm_view.to_markdown(reviewer))
    return 0


def run_outline(path: str, max_depth: int = MAX_HEADING_LEVEL) -> int:
    """``reviewer outline``: headings indented by level."""
    reviewer = _open_reviewer(path)
    lines = outline_lines(reviewer, max_depth)
    _write("\n".join(lines) if lines else "(no headings)")
    return 0


def run_app(path: str | None, quit_after_ms: int | None = None) -> int:
    """Start the desktop app; PySide6 is imported here and nowhere else in this module."""
    if path is not None:
        check_file(path)
    from .app import main as app_main

    return app_main(path, quit_after_ms=quit_after_ms)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``reviewer`` console script and of ``python -m reviewer_app``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in COMMANDS:
            ns = _commands_parser().parse_args(args)
            if ns.command == "read":
                return run_read(ns.file, ns.format)
            return run_outline(ns.file, ns.depth)
        ns = _app_parser().parse_args(args)
        return run_app(ns.file, ns.quit_after)
    except CliError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:
        # `reviewer read big.docx | head`: the reader left; that is not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

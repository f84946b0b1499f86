"""The ``reviewer`` command: start the desktop app, or read a document from the terminal.

``reviewer [FILE]`` starts the app (on the bundled sample contract when no file is given);
``reviewer read FILE`` and ``reviewer outline FILE`` print what the agent would see, so a
document can be checked without a window, in scripts and in CI. This module owns the entry
point, the top-level parser and those two reading commands; the edit commands (``ops``,
``apply``, ``accept-all``, ``reject-all``, ``finalize``) live in :mod:`.edits`, the agent's
``tools`` in :mod:`.tools`, its ``agent`` turn in :mod:`.agent`, the playbook
``review`` in :mod:`.review`, and what all of them share in :mod:`.common`.

This module must not import PySide6: the reading commands run on machines without a display
and the layer test imports it in a bare interpreter. The app is imported only when started.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..docx import DocxReviewer
from ..docx.snapshot import Snapshot
from .agent import add_agent_command, add_check_model_command, run_agent, run_check_model
from .check import add_check_command, run_check
from .common import PROG, CliError, check_file, dump_json, open_reviewer, write
from .compare import COMPARE_COMMANDS, add_compare_commands, run_compare_command
from .edits import EDIT_COMMANDS, add_edit_commands, run_edit_command
from .render import RENDER_COMMANDS, add_render_commands, run_render_command
from .review import add_review_command, run_review
from .tools import add_tools_commands, run_tools

COMMANDS = (
    "read",
    "outline",
    *EDIT_COMMANDS,
    *COMPARE_COMMANDS,
    *RENDER_COMMANDS,
    "tools",
    "agent",
    "check-model",
    "check",
    "review",
)
#: Deepest heading level Word has (outline levels 0-8).
MAX_HEADING_LEVEL = 9

_USAGE = """\
reviewer [FILE]                            start the app (the sample contract when no FILE)
       reviewer read FILE [-f markdown|json]      print the document as the agent reads it
       reviewer outline FILE [-d N]               print the heading outline
       reviewer ops FILE BATCH.json -o OUT        apply a contract operation batch
       reviewer apply FILE EDITS.json -o OUT      apply the LLM pipeline's edit JSON
       reviewer accept-all|reject-all FILE -o OUT resolve tracked changes
       reviewer finalize FILE -o OUT              accept all changes, remove all comments
       reviewer compare A B [--json]              show what changed from version A to B
       reviewer redline A B -o OUT [--author NAME] [--privacy T,...]   A with B's changes tracked
       reviewer pdf FILE -o OUT.pdf [--markup all|none|original] [--no-comments]   the pages as a PDF
       reviewer render FILE -o DIR [--pages 1-3] [--markup ...] [--dpi N]   pages as PNG images
       reviewer tools schema [--format anthropic|openai]   print the agent's tool definitions
       reviewer tools run FILE --calls CALLS.jsonl [--mode tracked|review] [-o OUT]
       reviewer agent FILE "instruction" [-o OUT] [--mode tracked|review] [--model M] [--base-url URL]
       reviewer check-model [--model M] [--base-url URL]   does the model server answer?
       reviewer check FILE [--json] [--original]  list drafting problems (terms, references, blanks...)
       reviewer review FILE --playbook P.yaml [-o OUT] [--issues ISSUES.docx|.csv] [--model M]
       reviewer --self-test [--report PATH]       check this install works, offscreen
       reviewer --version"""


# ----------------------------------------------------------------------------- parsers
def _app_parser() -> argparse.ArgumentParser:
    """Parser for ``reviewer [FILE]`` (the default: start the desktop app)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage=_USAGE,
        description="Review Word contracts with an AI agent; every change is a tracked change or a comment.",
        epilog="Run 'reviewer read --help' or 'reviewer outline --help' for the reading commands, "
        "'reviewer COMMAND --help' for the edit commands.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("file", nargs="?", help="the .docx to open (default: the sample contract)")
    # Smoke tests and packaging checks start the real app and need it to leave on its own.
    parser.add_argument("--quit-after", type=int, metavar="MS", help=argparse.SUPPRESS)
    parser.add_argument(
        "--self-test", action="store_true", help="check this install works (offscreen) and exit 0 or 1"
    )
    parser.add_argument("--report", metavar="PATH", help="with --self-test: also write the results as JSON")
    # bench/bench_bundle.py times launches: print a line and leave once the first page is painted
    parser.add_argument("--exit-on-first-paint", action="store_true", help=argparse.SUPPRESS)
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
    """Parser for every terminal command (the edit and ``tools`` parsers come from their modules)."""
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
    add_edit_commands(sub)
    add_compare_commands(sub)
    add_render_commands(sub)
    add_tools_commands(sub)
    add_agent_command(sub)
    add_check_model_command(sub)
    add_check_command(sub)
    add_review_command(sub)
    return parser


# ----------------------------------------------------------------------------- helpers
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
        from ..docx import outline as outline_module
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


# ----------------------------------------------------------------------------- commands
def run_read(path: str, fmt: str) -> int:
    """``reviewer read``: the LLM view as Markdown, or as pretty-printed JSON."""
    reviewer = open_reviewer(path)
    from ..docx import llm_view

    if fmt == "json":
        data = llm_view.to_json(reviewer)
        if isinstance(data, str):  # already serialized: re-indent for people
            data = json.loads(data)
        dump_json(data)
    else:
        write(llm_view.to_markdown(reviewer))
    return 0


def run_outline(path: str, max_depth: int = MAX_HEADING_LEVEL) -> int:
    """``reviewer outline``: headings indented by level."""
    reviewer = open_reviewer(path)
    lines = outline_lines(reviewer, max_depth)
    write("\n".join(lines) if lines else "(no headings)")
    return 0


def _run_command(ns: argparse.Namespace) -> int:
    """Dispatch a parsed terminal command."""
    if ns.command == "read":
        return run_read(ns.file, ns.format)
    if ns.command == "outline":
        return run_outline(ns.file, ns.depth)
    if ns.command in COMPARE_COMMANDS:
        return run_compare_command(ns)
    if ns.command in RENDER_COMMANDS:
        return run_render_command(ns)
    if ns.command == "tools":
        return run_tools(ns)
    if ns.command == "agent":
        return run_agent(ns)
    if ns.command == "check-model":
        return run_check_model(ns)
    if ns.command == "check":
        return run_check(ns)
    if ns.command == "review":
        return run_review(ns)
    return run_edit_command(ns)


def run_app(path: str | None, quit_after_ms: int | None = None) -> int:
    """Start the desktop app; PySide6 is imported here and nowhere else in this module."""
    if path is not None:
        check_file(path)
    from ..app import main as app_main

    return app_main(path, quit_after_ms=quit_after_ms)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``reviewer`` console script and of ``python -m reviewer_app``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in COMMANDS:
            return _run_command(_commands_parser().parse_args(args))
        ns = _app_parser().parse_args(args)
        if ns.self_test:
            from ..selftest.runner import run_self_test

            return run_self_test(ns.report)
        if ns.exit_on_first_paint:
            from ..selftest.launch_probe import run_until_first_paint

            return run_until_first_paint(ns.file)
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

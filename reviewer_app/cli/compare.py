"""``reviewer compare`` and ``reviewer redline``: two versions of a contract, side by side.

``compare A B`` prints what changed from A to B, block by block, in the compact lines a model
reads (``--json`` for the full structured diff); ``redline A B -o OUT`` writes A with B's
differences as tracked changes, the way Word's "Compare" does, through the same edit engine the
agent uses. Neither ever changes A or B. Kept apart from :mod:`.main` because they take two
documents, not one; the compare engine is imported only when a command runs, and nothing here
imports PySide6.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from ..docx.atomic_write import write_atomically
from .common import PROG, CliError, check_file, dump_json, output_path, save_output, write

#: The comparison commands, in the order ``reviewer --help`` lists them.
COMPARE_COMMANDS = ("compare", "redline")
#: What ``--privacy`` accepts (contract §10).
PRIVACY_TRANSFORMS = ("remove-attribution", "remove-timestamps", "remove-descriptive-metadata")

_EXIT_CODES = """\
exit status:
  0  done{done}
  1  OUT could not be written (disk full, no permission); A and B are unchanged
  2  nothing was done: a usage error, or A or B cannot be opened as a Word document

A and B are never changed."""


def _csv(allowed: tuple[str, ...], what: str) -> Any:
    """argparse type: a comma-separated list, each item one of ``allowed``."""

    def parse(value: str) -> list[str]:
        items = [item.strip() for item in value.split(",") if item.strip()]
        bad = [item for item in items if item not in allowed]
        if not items or bad:
            shown = f"unknown {what} {', '.join(repr(b) for b in bad)}; " if bad else ""
            raise argparse.ArgumentTypeError(f"{shown}choose from {', '.join(allowed)}")
        return items

    return parse


def _parser(sub: Any, name: str, help_text: str, description: str, done: str) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name,
        prog=f"{PROG} {name}",
        help=help_text,
        description=textwrap.fill(description, width=90),
        epilog=_EXIT_CODES.format(done=done),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("base", metavar="A", help="the earlier version (.docx)")
    parser.add_argument("revised", metavar="B", help="the later version (.docx)")
    return parser


def add_compare_commands(sub: Any) -> None:
    """Parsers for ``compare`` and ``redline``."""
    compare = _parser(
        sub,
        "compare",
        "show what changed from one version to another",
        "Compare two versions block by block, each as if its own tracked changes were accepted, and "
        "print one line per change (+ added, - deleted, ~ modified with [-removed-]{+inserted+} words "
        "or format changed, < > moved) after a summary line. --json prints the structured diff.",
        ": the differences were printed (finding differences is not an error)",
    )
    compare.add_argument("--json", action="store_true", help="print the structured diff as JSON")
    compare.add_argument(
        "--include",
        type=_csv(("text", "formatting", "metadata"), "scope"),
        default=None,
        metavar="SCOPES",
        help="what to compare: text,formatting,metadata (default: text,formatting)",
    )
    compare.add_argument(
        "--privacy",
        type=_csv(PRIVACY_TRANSFORMS, "transform"),
        default=None,
        metavar="TRANSFORMS",
        help="leave out metadata: " + ",".join(PRIVACY_TRANSFORMS),
    )
    redline = _parser(
        sub,
        "redline",
        "write one version's differences into the other as tracked changes",
        "Write A with the differences to B as tracked changes (insertions, deletions, moves, "
        "formatting), so that accepting all of them gives B's text and rejecting all gives A's. "
        "Prints what was written as JSON: applied and skipped operations, and stories (headers, "
        "footers, notes) only one version has, which a tracked change cannot add or remove.",
        ': OUT was written (see "skipped" in the JSON for differences that could not be written)',
    )
    redline.add_argument("-o", "--output", metavar="OUT", help="where to write the redline (required)")
    redline.add_argument("--author", metavar="NAME", help="author of the changes (default: Reviewer compare)")
    redline.add_argument(
        "--privacy",
        type=_csv(PRIVACY_TRANSFORMS, "transform"),
        default=None,
        metavar="TRANSFORMS",
        help="strip from OUT: " + ",".join(PRIVACY_TRANSFORMS),
    )
    for side, version in (("base", "A"), ("revised", "B")):
        redline.add_argument(
            f"--{side}-view",
            choices=("final", "original"),
            default="final",
            help=f"read {version} with its own tracked changes accepted (final, default) or rejected",
        )


def _errors() -> tuple[type[Exception], ...]:
    from ..docx.compare import CompareInputError, CompareOptionError

    return CompareInputError, CompareOptionError


def run_compare(ns: argparse.Namespace) -> int:
    """``reviewer compare A B``: the diff as lines (or JSON)."""
    from ..docx.compare import compare_docx_versions, format_version_diff_for_llm

    check_file(ns.base)
    check_file(ns.revised)
    privacy = {"transforms": ns.privacy} if ns.privacy else None
    try:
        diff = compare_docx_versions(ns.base, ns.revised, include=ns.include, privacy=privacy)
    except _errors() as exc:
        raise CliError(str(exc)) from None
    if ns.json:
        dump_json(diff)
    else:
        write(format_version_diff_for_llm(diff))
    return 0


def run_redline(ns: argparse.Namespace) -> int:
    """``reviewer redline A B -o OUT``: write the redline, print its report."""
    from ..docx.compare import generate_redline_docx
    from ..docx.compare.redline import DEFAULT_AUTHOR

    target = output_path("redline", ns.output)
    check_file(ns.base)
    check_file(ns.revised)
    privacy = {"transforms": ns.privacy} if ns.privacy else None
    try:
        result = generate_redline_docx(
            ns.base,
            ns.revised,
            author=ns.author or DEFAULT_AUTHOR,
            base_view=ns.base_view,
            revised_view=ns.revised_view,
            privacy=privacy,
        )
    except _errors() as exc:
        raise CliError(str(exc)) from None
    buffer = result.pop("buffer")
    save_output(lambda path: write_atomically(path, buffer), target)
    dump_json({"output": str(target), **result})
    return 0


def run_compare_command(ns: argparse.Namespace) -> int:
    """Dispatch a parsed comparison command (one of :data:`COMPARE_COMMANDS`)."""
    return run_compare(ns) if ns.command == "compare" else run_redline(ns)

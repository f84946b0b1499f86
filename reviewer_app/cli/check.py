"""``reviewer check FILE [--json] [--original]``: the contract checks from the terminal.

Exit status tells a script what it needs without parsing: 0 the document is clean, 1 there are
findings, 2 the file cannot be opened. The file is only read.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from .common import PROG, dump_json, open_reviewer, write

EXIT_CLEAN, EXIT_FINDINGS = 0, 1

_EPILOG = """\
exit status:
  0  no findings
  1  findings were listed
  2  FILE cannot be opened as a Word document

FILE is never changed."""


def add_check_command(sub: Any) -> None:
    """The ``check`` parser."""
    parser = sub.add_parser(
        "check",
        prog=f"{PROG} check",
        help="list drafting problems: undefined terms, dangling references, blanks, number mismatches",
        description=textwrap.fill(
            "Check a contract offline: defined terms (undefined, unused, defined twice, misspelt), "
            "cross-references that point nowhere, words and figures that disagree, blanks and "
            "placeholders left in, and party names spelt two ways. The document is read as if every "
            "tracked change were accepted, or, with --original, rejected.",
            width=90,
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the .docx to check")
    parser.add_argument("--json", action="store_true", help="print the findings as JSON")
    parser.add_argument(
        "--original", action="store_true", help="check the text with tracked changes rejected"
    )


def run_check(ns: argparse.Namespace) -> int:
    """Print the findings (one line each, or JSON) and return the exit status."""
    # imported here: every other command (``reviewer pdf`` among them) starts without the checks
    from ..docx.checks import check_reviewer, summary
    from ..docx.checks.engine import collector_paused

    # Reading and checking a 300-page contract makes a few hundred thousand objects and no
    # cycle worth collecting before the command ends: the collector would walk them again and
    # again meanwhile (~50 ms of the command).
    with collector_paused():
        reviewer = open_reviewer(ns.file)
        findings = check_reviewer(reviewer, original=ns.original)
    if ns.json:
        dump_json(
            {
                "file": ns.file,
                "view": "original" if ns.original else "accepted",
                **summary(findings),
                "findings": [f.to_dict() for f in findings],
            }
        )
    else:
        for f in findings:
            fix = f"  [fix: {f.fix.label}]" if f.fix else ""
            write(f"{f.block_id}:{f.start}-{f.end}  {f.severity:<7} {f.kind:<10} {f.message}{fix}")
        counts = ", ".join(f"{n} {kind}" for kind, n in summary(findings)["byKind"].items() if n)
        write(
            f"{len(findings)} finding{'s' if len(findings) != 1 else ''}" + (f" ({counts})" if counts else "")
        )
    return EXIT_FINDINGS if findings else EXIT_CLEAN

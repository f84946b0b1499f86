"""``reviewer pdf`` and ``reviewer render``: the pages as Reviewer lays them out, without a window.

``pdf FILE -o OUT.pdf`` writes a redline PDF to send to a client (one PDF page per laid-out page,
each its own paper size); ``render FILE -o DIR`` writes PNGs of chosen pages. Both use the page
view's own layout and painter (:mod:`reviewer_app.ui.pageview.render`), so the output is exactly
what the window shows. Qt is imported only when a command runs, on the ``offscreen`` platform
when there is no display, so this module keeps the CLI free of PySide6 for every other command.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

from .common import PROG, CliError, open_reviewer, output_path, save_output, write

#: The rendering commands, in the order ``reviewer --help`` lists them.
RENDER_COMMANDS = ("pdf", "render")
MARKUP_MODES = ("all", "none", "original")

_EXIT_CODES = """\
exit status:
  0  the pages were written
  1  the output could not be written (disk full, no permission); FILE is unchanged
  2  nothing was done: a usage error, or FILE cannot be opened as a Word document

FILE is never changed."""

_MARKUP_HELP = "all: every change marked (default); none: as if accepted; original: as if rejected"


def _pages(value: str) -> list[tuple[int, int]]:
    """argparse type: ``1-3,7`` → [(1, 3), (7, 7)] (1-based, inclusive)."""
    ranges: list[tuple[int, int]] = []
    for part in value.split(","):
        first, _, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if last else low
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a page list like 1-3,7") from None
        if low < 1 or high < low:
            raise argparse.ArgumentTypeError(f"{part.strip()!r}: pages count from 1, low to high")
        ranges.append((low, high))
    return ranges


def _dpi(value: str) -> float:
    try:
        dpi = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 10 <= dpi <= 1200:
        raise argparse.ArgumentTypeError("choose a resolution from 10 to 1200 dpi")
    return dpi


def _parser(sub: Any, name: str, help_text: str, description: str) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name,
        prog=f"{PROG} {name}",
        help=help_text,
        description=textwrap.fill(description, width=90),
        epilog=_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the .docx to render")
    parser.add_argument("--markup", choices=MARKUP_MODES, default="all", help=_MARKUP_HELP)
    return parser


def add_render_commands(sub: Any) -> None:
    """Parsers for ``pdf`` and ``render``."""
    pdf = _parser(
        sub,
        "pdf",
        "write the pages, with their redline, to a PDF",
        "Lay the document out as Reviewer shows it and write every page to a PDF, tracked changes "
        "marked as in the window (--markup none: as if accepted; original: as if rejected). With all "
        "markup, comment balloons stand in a column beside each page, as in the window; "
        "--no-comments leaves the column out and keeps the paper size.",
    )
    pdf.add_argument("-o", "--output", metavar="OUT.pdf", help="the PDF to write")
    pdf.add_argument(
        "--no-comments", action="store_true", help="leave out the balloon column beside each page"
    )
    render = _parser(
        sub,
        "render",
        "write pages as PNG images",
        "Lay the document out as Reviewer shows it and write the chosen pages as PNG images named "
        "page-N.png (N counts from 1) into a folder, with the markup column when there is markup.",
    )
    render.add_argument("-o", "--output", metavar="DIR", help="the folder to write the PNGs into")
    render.add_argument(
        "--pages", type=_pages, default=None, metavar="LIST", help="pages to write, e.g. 1-3,7"
    )
    render.add_argument("--dpi", type=_dpi, default=96.0, metavar="N", help="resolution (default 96)")


def _start_qt() -> None:
    """Render without a window: the offscreen platform when no display is there to use."""
    headless = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if headless:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..ui.pageview.render import ensure_app

    ensure_app()


def run_render_command(ns: argparse.Namespace) -> int:
    """Run ``pdf`` or ``render``."""
    # The modules, Qt's enums and the caches leave some thirty thousand live objects, which the
    # collector would walk several times over while the interpreter shuts down: some 40 ms of a
    # conversion. Frozen at exit, they are left to the operating system like the rest of memory.
    atexit.register(gc.freeze)
    if ns.command == "pdf":
        target = output_path("pdf", ns.output)
        reviewer = open_reviewer(ns.file)
        _start_qt()
        from ..ui.pageview.render import render_pdf

        counted: list[int] = []
        save_output(
            lambda out: counted.append(render_pdf(reviewer, out, ns.markup, not ns.no_comments)), target
        )
        write(f"wrote {counted[0]} page(s) to {target}")
        return 0
    if not ns.output:
        raise CliError("render needs -o DIR: the folder to write the PNGs into.")
    folder = Path(ns.output)
    if folder.exists() and not folder.is_dir():
        raise CliError(f'cannot write into "{ns.output}": it is a file, not a folder.')
    reviewer = open_reviewer(ns.file)
    _start_qt()
    from ..ui.pageview.layout import PagedLayout
    from ..ui.pageview.render import render_pngs

    layout = PagedLayout(reviewer, ns.markup).build_all()
    count = layout.page_count()
    wanted = _wanted(ns.pages, count)
    written: list[Path] = []
    save_output(
        lambda out: written.extend(render_pngs(reviewer, wanted, out, ns.markup, ns.dpi, layout=layout)),
        folder,
    )
    write(f"wrote {len(written)} of {count} page(s) to {folder}")
    return 0


def _wanted(ranges: list[tuple[int, int]] | None, count: int) -> list[int]:
    """0-based page numbers from 1-based ranges; a range past the last page is an error."""
    if ranges is None:
        return list(range(count))
    beyond = [low for low, _high in ranges if low > count]
    if beyond:
        raise CliError(f"the document has {count} page(s); there is no page {beyond[0]}.")
    return sorted({n - 1 for low, high in ranges for n in range(low, min(high, count) + 1)})

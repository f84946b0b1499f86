"""Python's full garbage collections and the page layout.

A full collection walks every object alive. With a 300-page contract open that is a pause of
90-120 ms, the longest the window made while laying the contract out: the layout held full
collections back while it ran and the one it had put off ran as it finished. A finished layout
now freezes what exists (``gc.freeze``), so that collection walks only what is new, and opening
the next document gives the frozen objects back to the collector and collects them.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from tests import chat_fixtures
from tests.docx_factory import make_docx, p
from tests.window_fixtures import shown_main_window

#: the app's asyncio loop on Qt's: opening a second document retires the first one's chat session
loop = chat_fixtures.loop


class _Cycle:
    """An object in a reference cycle: only a full collection frees it."""

    def __init__(self) -> None:
        self.me = self


def _contract(folder: Path, name: str, paragraphs: int) -> Path:
    path = folder / name
    path.write_bytes(
        make_docx("".join(p(f"Clause {n}: the parties agree to the terms.") for n in range(paragraphs)))
    )
    return path


def test_a_finished_layout_leaves_the_document_out_of_later_full_collections(qapp) -> None:
    """Once laid out, the document's objects and its pages' records are frozen: the full
    collection held back during the layout walks none of them."""
    gc.unfreeze()
    reviewer = DocxReviewer.from_bytes(make_docx("".join(p(f"Clause {n}.") for n in range(200))))
    layout = PagedLayout(reviewer, "all")
    assert gc.get_freeze_count() == 0
    layout.build_all()
    assert layout.done
    frozen = gc.get_freeze_count()
    assert frozen > 2 * len(layout.by_id)  # the records and what they hold, the snapshot's blocks
    gc.collect()
    assert gc.get_freeze_count() == frozen  # a full collection leaves them where they are


def test_opening_the_next_document_collects_what_the_last_one_left(qtbot, loop, tmp_path: Path) -> None:
    """A reference cycle that was alive when the layout froze it and was let go afterwards is freed
    when the user opens another document (not before: it is frozen)."""
    window = shown_main_window(qtbot)
    cycle = _Cycle()
    gone = weakref.ref(cycle)
    assert window.open_path(_contract(tmp_path, "first.docx", 60))
    qtbot.waitUntil(window.page_view.is_laid_out)
    assert gc.get_freeze_count() > 0
    del cycle
    gc.collect()
    assert gone() is not None  # frozen with the first document's pages
    assert window.open_path(_contract(tmp_path, "second.docx", 30))
    assert gone() is None

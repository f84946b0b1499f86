"""No import circle inside the page view, the ui folder or the agent package: each module can be
read knowing only those below it.

The paged layout used to build its page index, headers, note room and endnotes with itself, and
each imported the layout back to reach into it: a circle of eight modules, where following one
paragraph's re-render meant reading most of them. Now the layout hands each part only what it
reads (the section documents, the finished pages, the block map, the body's build context) and
the parts import nothing that imports them. Likewise the main window's helpers (file, compare,
markup, playbook, triage, docks, services) were typed against ``MainWindow`` while it imported
them; they now name only ``window_host.WindowHost``, the part of the window they use, and a
redline's new window comes from a factory the window hands in.

Every import counts, including one inside a function and one under ``if TYPE_CHECKING:``: a
module that names another's class in its annotations depends on that class's shape as much as
one that calls it, and a circle through type-only imports is how the old knot was written.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.project.test_layers import scoped_imports

UI = REPO_ROOT / "reviewer_app" / "ui"
PAGEVIEW = UI / "pageview"
AGENT = REPO_ROOT / "reviewer_app" / "agent"


def import_graph(folder: Path, root: Path = REPO_ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the same folder it imports (by file stem), every import counted."""
    package = ".".join(folder.relative_to(root).parts)
    stems = {path.stem for path in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        found: set[str] = set()
        for imported in scoped_imports(path, root):
            if not imported.name.startswith(package + "."):
                continue
            stem = imported.name[len(package) + 1 :].split(".")[0]
            if stem in stems and stem != path.stem:
                found.add(stem)
        graph[path.stem] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another round a circle (strongly connected
    components of more than one module), each sorted, in sorted order."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.get(module, ())):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(found)


def _described(graph: dict[str, set[str]], group: list[str]) -> str:
    members = set(group)
    return "; ".join(f"{module} -> {', '.join(sorted(graph[module] & members))}" for module in group)


def test_no_import_circle_in_the_page_view() -> None:
    graph = import_graph(PAGEVIEW)
    assert "layout" in graph and "page_index" in graph["layout"]  # the scan reads the real folder
    assert [_described(graph, group) for group in circles(graph)] == []


def test_no_import_circle_between_the_main_window_and_its_helpers() -> None:
    """The ui folder's own modules (a subpackage, like the page view, is a folder of its own)."""
    graph = import_graph(UI)
    assert {"compare_command", "file_commands", "window_docks"} <= graph["main_window"]  # the real folder
    assert [_described(graph, group) for group in circles(graph)] == []


def test_no_import_circle_in_the_agent_package() -> None:
    """The session runs a pipeline turn for a model without tools; the pipeline names what it uses
    of the session (``PipelineHost``) and the turn's state lives in ``turn_state``."""
    graph = import_graph(AGENT)
    assert "pipeline_turn" in graph["session"]  # the scan reads the real folder
    assert [_described(graph, group) for group in circles(graph)] == []


def test_the_scan_counts_type_checking_and_function_imports(tmp_path: Path) -> None:
    """A circle closed by a type-only import, or by an import inside a method, is still one."""
    folder = tmp_path / "app" / "views"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "layout.py").write_text("from .index import PageIndex\nfrom .pages import Page\n")
    (folder / "index.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .layout import PagedLayout\n"
    )
    (folder / "pages.py").write_text("class Page:\n    def layout(self):\n        from . import layout\n")
    (folder / "paint.py").write_text("from .layout import PagedLayout\n")  # above the circle: fine
    graph = import_graph(folder, root=tmp_path)
    assert graph["index"] == {"layout"} and graph["pages"] == {"layout"}
    assert circles(graph) == [["index", "layout", "pages"]]

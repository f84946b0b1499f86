"""A firm's playbook kept as a Word table becomes a playbook, and the library lists the shipped
playbooks with the user's own (which win on the same file name, and are listed with their error
when broken). Importing validates first and never overwrites a playbook already there."""

from __future__ import annotations

import glob
import os
import stat
import tomllib
from pathlib import Path

import docx
import pytest

from reviewer_app.agent.playbook.docx_import import column_for, playbook_from_docx
from reviewer_app.agent.playbook.library import (
    import_playbook,
    list_playbooks,
    shipped_playbook_dir,
    user_playbook_dir,
)
from reviewer_app.agent.playbook.yaml_format import PlaybookError, load_playbook
from reviewer_app.private_paths import data_root

REPO_ROOT = Path(__file__).resolve().parents[2]
SHIPPED_NAMES = ["data-processing.yaml", "mutual-nda.yaml", "saas-cloud-services.yaml"]


def firm_table_docx(
    path: Path, header: list[str], rows: list[list[str | list[str]]], title: str = ""
) -> Path:
    """A Word document as firms keep playbooks: an intro paragraph, then one table row per position.

    A cell given as a list gets one paragraph per item (how a lawyer types several fallbacks).
    """
    document = docx.Document()
    document.core_properties.title = title
    document.add_paragraph("NDA playbook. Approved by the commercial team.")
    table = document.add_table(rows=1, cols=len(header))
    for cell, text in zip(table.rows[0].cells, header, strict=True):
        cell.text = text
    for values in rows:
        cells = table.add_row().cells
        for cell, value in zip(cells, values, strict=True):
            paragraphs = value if isinstance(value, list) else [value]
            cell.text = paragraphs[0] if paragraphs else ""
            for extra in paragraphs[1:]:
                cell.add_paragraph(extra)
    document.save(str(path))
    return path


HEADER = ["Ref", "Issue", "Preferred Position", "Fallback position(s)", "Red line", "Notes", "PRIORITY"]
ROWS: list[list[str | list[str]]] = [
    [
        "1.1",
        "Term of confidentiality",
        "Five years from the last disclosure.",
        ["1. Three years from the last disclosure.", "2. Three years from signature."],
        "Less than two years.",
        "Trade secrets indefinitely.",
        "High",
    ],
    ["", "", "", "", "", "", ""],  # a spacer row
    [
        "",
        "Governing law",
        "English law, English courts.",
        "(a) New York law\n(b) Swiss law",
        "",
        "",
        "",
    ],
    ["1.1", "Residuals", "No residuals clause.", "", "Any residuals clause.", "", "critical"],
]


def test_a_firm_table_with_its_own_headers_becomes_positions(tmp_path: Path) -> None:
    path = firm_table_docx(tmp_path / "nda-playbook.docx", HEADER, ROWS, title="Firm NDA playbook")

    playbook = playbook_from_docx(path)

    assert playbook.name == "Firm NDA playbook" and playbook.source == str(path)
    term, law, residuals = playbook.positions
    assert (term.id, term.title, term.standard) == (
        "1.1",
        "Term of confidentiality",
        "Five years from the last disclosure.",
    )
    assert term.fallbacks == ("Three years from the last disclosure.", "Three years from signature.")
    assert (term.unacceptable, term.guidance, term.severity) == (
        "Less than two years.",
        "Trade secrets indefinitely.",
        "high",
    )
    # no reference: an id from the title; numbered lines in one paragraph are ordered fallbacks too
    assert law.id == "governing-law" and law.fallbacks == ("New York law", "Swiss law")
    assert (
        law.severity == "medium"
        and law.question == "Does the contract meet our standard position on Governing law?"
    )
    assert residuals.id == "1.1-2" and residuals.severity == "high"  # a repeated reference stays unique
    assert playbook_from_docx(path, name="Ours").name == "Ours"


def test_header_synonyms_are_matched_case_insensitively() -> None:
    assert column_for("TOPIC") == "title"
    assert column_for("Standard position") == "standard"
    assert column_for("Our preferred position (2024)") == "standard"
    assert column_for("Fallback positions") == "fallbacks"
    assert column_for("Walk away") == "unacceptable"
    assert column_for("Model clause") == "model_clause"  # not the "clause" of a title column
    assert column_for("Question") == "question"
    assert column_for("Priority") == "severity"
    assert column_for("Owner") is None


def test_a_table_without_recognizable_headers_says_which_headers_it_found(tmp_path: Path) -> None:
    path = firm_table_docx(tmp_path / "budget.docx", ["Item", "Cost", "Owner"], [["Laptops", "£3,000", "IT"]])
    with pytest.raises(PlaybookError) as caught:
        playbook_from_docx(path)
    message = str(caught.value)
    assert message.startswith("budget.docx: has no table with an issue column and a standard position column")
    assert 'headers found: "Item", "Cost", "Owner"' in message
    assert '"Standard position"' in message  # says what to call the columns


def test_a_document_without_a_table_or_not_a_docx_at_all(tmp_path: Path) -> None:
    plain = tmp_path / "memo.docx"
    document = docx.Document()
    document.add_paragraph("Our positions are in the attached spreadsheet.")
    document.save(str(plain))
    with pytest.raises(PlaybookError, match=r"^memo\.docx: has no table"):
        playbook_from_docx(plain)
    fake = tmp_path / "fake.docx"
    fake.write_text("name: not a word file", encoding="utf-8")
    with pytest.raises(PlaybookError, match=r"^fake\.docx: is not a Word document"):
        playbook_from_docx(fake)


def test_a_row_that_cannot_be_a_position_names_the_row(tmp_path: Path) -> None:
    rows = [["1", "Term", "Five years.", "", "", "", "urgent"]]
    path = firm_table_docx(tmp_path / "bad.docx", HEADER, rows)
    with pytest.raises(PlaybookError, match=r'^bad\.docx: table 1, row 2: "urgent" is not a severity'):
        playbook_from_docx(path)
    rows = [["1", "Term", "", "Three years.", "", "", ""]]
    path = firm_table_docx(tmp_path / "empty.docx", HEADER, rows)
    with pytest.raises(PlaybookError, match=r"^empty\.docx: table 1, row 2: the standard cell is empty"):
        playbook_from_docx(path)


# ----------------------------------------------------------------------------- the library
def test_the_library_lists_the_shipped_playbooks_when_the_user_has_none() -> None:
    entries = list_playbooks()
    assert [e.path.name for e in entries] == SHIPPED_NAMES
    assert all(e.origin == "shipped" and e.playbook is not None and not e.error for e in entries)
    assert user_playbook_dir() == data_root() / "playbooks"
    assert not user_playbook_dir().exists()  # listing creates nothing


def test_a_user_playbook_wins_over_the_shipped_one_and_a_broken_one_is_listed_with_its_error() -> None:
    folder = user_playbook_dir()
    folder.mkdir(parents=True)
    ours = (shipped_playbook_dir() / "mutual-nda.yaml").read_text(encoding="utf-8")
    (folder / "mutual-nda.yaml").write_text(
        ours.replace("name: Mutual NDA", "name: Our NDA"), encoding="utf-8"
    )
    (folder / "broken.yaml").write_text("name: Broken\ncontract_type: X\npositions: 3\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not a playbook", encoding="utf-8")

    entries = {e.path.name: e for e in list_playbooks()}

    assert sorted(entries) == ["broken.yaml", *SHIPPED_NAMES]
    nda = entries["mutual-nda.yaml"]
    assert (nda.origin, nda.name, nda.path.parent) == ("user", "Our NDA", folder)
    broken = entries["broken.yaml"]
    assert broken.playbook is None and broken.name == "broken.yaml" and broken.origin == "user"
    assert broken.error.startswith('broken.yaml, line 3: field "positions": expected a list of positions')
    assert entries["saas-cloud-services.yaml"].origin == "shipped"


def test_importing_a_yaml_playbook_validates_then_copies_it_privately(tmp_path: Path) -> None:
    source = tmp_path / "Firm SaaS.yaml"
    text = (shipped_playbook_dir() / "saas-cloud-services.yaml").read_text(encoding="utf-8")
    source.write_text(text, encoding="utf-8")

    first = import_playbook(source)
    second = import_playbook(source)

    assert first == user_playbook_dir() / "Firm SaaS.yaml" and first.read_text(encoding="utf-8") == text
    assert second.name == "Firm SaaS-2.yaml"  # the first import is kept, not overwritten
    if os.name != "nt":
        assert stat.S_IMODE(user_playbook_dir().stat().st_mode) == 0o700
    assert {e.path.name for e in list_playbooks() if e.origin == "user"} == {
        "Firm SaaS.yaml",
        "Firm SaaS-2.yaml",
    }


def test_importing_a_broken_file_writes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: X\ncontract_type: Y\npositions:\n  - id: a\n    title: T\n", encoding="utf-8")
    with pytest.raises(PlaybookError, match=r'^bad\.yaml, line 4: required field "question" is missing'):
        import_playbook(bad)
    other = tmp_path / "positions.xlsx"
    other.write_bytes(b"PK")
    with pytest.raises(PlaybookError, match=r"^positions\.xlsx: is not a playbook"):
        import_playbook(other)
    table = firm_table_docx(tmp_path / "budget.docx", ["Item", "Cost"], [["Laptops", "£3,000"]])
    with pytest.raises(PlaybookError, match="has no table with an issue column"):
        import_playbook(table)
    assert not user_playbook_dir().exists()


def test_importing_a_docx_table_saves_it_as_yaml_that_reads_back(tmp_path: Path) -> None:
    source = firm_table_docx(tmp_path / "nda-playbook.docx", HEADER, ROWS, title="Firm NDA playbook")

    saved = import_playbook(source)

    assert saved == user_playbook_dir() / "nda-playbook.yaml"
    assert saved.read_text(encoding="utf-8").startswith("# Imported from nda-playbook.docx.")
    again = load_playbook(saved)
    assert again.positions == playbook_from_docx(source).positions
    assert [e.name for e in list_playbooks() if e.origin == "user"] == ["Firm NDA playbook"]


def test_the_shipped_playbooks_are_installed_and_bundled() -> None:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["data-files"]["share/reviewer/resources/playbooks"]
    installed = sorted(Path(f).name for pattern in patterns for f in glob.glob(str(REPO_ROOT / pattern)))
    assert installed == SHIPPED_NAMES
    spec = (REPO_ROOT / "packaging" / "reviewer.spec").read_text(encoding="utf-8")
    assert '(str(ROOT / "resources" / "playbooks"), "resources/playbooks")' in spec


def test_a_title_row_above_the_header_and_a_layout_table_around_it(tmp_path: Path) -> None:
    document = docx.Document()
    layout = document.add_table(rows=1, cols=1)  # a firm template's frame around the playbook
    table = layout.cell(0, 0).add_table(rows=3, cols=3)
    title = table.rows[0].cells[0].merge(table.rows[0].cells[2])
    title.text = "SUPPLY AGREEMENT PLAYBOOK (v3)"
    for cell, text in zip(table.rows[1].cells, ["Topic", "Our position", "Walk away"], strict=True):
        cell.text = text
    for cell, text in zip(
        table.rows[2].cells, ["Payment terms", "60 days.", "More than 90 days."], strict=True
    ):
        cell.text = text
    path = tmp_path / "supply.docx"
    document.save(str(path))

    (position,) = playbook_from_docx(path).positions

    assert (position.id, position.title, position.standard) == ("payment-terms", "Payment terms", "60 days.")
    assert position.unacceptable == "More than 90 days." and position.fallbacks == ()

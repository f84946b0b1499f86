"""Playbook YAML files: the shipped playbooks read, and every mistake a lawyer can make in one is
reported with the file, the line and the field, so it can be found and fixed by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer_app.agent.playbook.model import SEVERITIES
from reviewer_app.agent.playbook.yaml_format import (
    PlaybookError,
    dump_playbook,
    load_playbook,
    parse_playbook,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((REPO_ROOT / "resources" / "playbooks").glob("*.yaml"))

VALID = """\
name: Test NDA
contract_type: Mutual NDA
positions:
  - id: term
    title: Duration
    question: How long do the obligations last?
    standard: |
      Five years from the last disclosure.
      Trade secrets for as long as they remain secret.
    fallbacks:
      - Three years from the last disclosure.
      - Three years from signature.
    severity: High
  - id: law
    title: Governing law
    question: Which law governs?
    standard: England and Wales.
"""


def test_the_three_shipped_playbooks_parse_with_realistic_positions() -> None:
    assert [p.name for p in SHIPPED] == [
        "data-processing.yaml",
        "mutual-nda.yaml",
        "saas-cloud-services.yaml",
    ]
    for path in SHIPPED:
        playbook = load_playbook(path)
        assert 8 <= len(playbook.positions) <= 15, path.name
        assert playbook.name and playbook.contract_type and playbook.description
        assert playbook.source == str(path)
        for position in playbook.positions:
            assert position.title and position.question.endswith("?") and position.standard
            assert position.fallbacks and position.unacceptable, (path.name, position.id)
            assert position.severity in SEVERITIES
        assert {p.severity for p in playbook.positions} >= {"high", "medium"}


def test_a_valid_playbook_keeps_order_defaults_and_multiline_text() -> None:
    playbook = parse_playbook(VALID, "test.yaml")
    term, law = playbook.positions
    assert (
        term.standard
        == "Five years from the last disclosure.\nTrade secrets for as long as they remain secret."
    )
    assert term.fallbacks == ("Three years from the last disclosure.", "Three years from signature.")
    assert term.severity == "high"  # written "High": case does not matter
    assert (law.severity, law.fallbacks, law.model_clause) == ("medium", (), "")
    assert playbook.position("law") is law and playbook.source == "test.yaml"


def test_dump_reads_back_to_the_same_playbook() -> None:
    for path in SHIPPED:
        playbook = load_playbook(path)
        text = dump_playbook(playbook)
        again = parse_playbook(text, "dumped.yaml", location=playbook.source)
        assert again == playbook


def error_for(text: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        parse_playbook(text, "firm.yaml")
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).startswith("firm.yaml")
    return caught.value


@pytest.mark.parametrize(
    ("text", "line", "field", "words"),
    [
        (
            VALID.replace("    severity: High", "    severty: high"),
            13,
            "positions[0].severty",
            'unknown field "severty" in position "term" (did you mean "severity"?)',
        ),
        (
            VALID.replace("    severity: High", "    severity: urgent"),
            13,
            "positions[0].severity",
            'field "severity" of position "term": "urgent" is not a severity: use high, medium or low',
        ),
        (
            VALID.replace("    question: Which law governs?\n", ""),
            14,
            "positions[1].question",
            'required field "question" is missing in position "law"',
        ),
        (
            VALID.replace("  - id: law", "  - id: term"),
            14,
            "positions[1].id",
            'field "id" of position 2: "term" is already the id of position 1',
        ),
        (
            VALID.replace("    title: Governing law", "    title: [Governing, law]"),
            15,
            "positions[1].title",
            'field "title" of position "law": expected text, found a list',
        ),
        (
            VALID.replace("name: Test NDA", "name:"),
            1,
            "name",
            'field "name": is empty',
        ),
        (
            VALID.replace("  - id: law", "  - id: governing law"),
            14,
            "positions[1].id",
            '"governing law" is not a usable id',
        ),
        (
            "name: X\ncontract_type: Y\npositions:\n  title: not a list\n",
            4,
            "positions",
            'field "positions": expected a list of positions',
        ),
        (
            "name: X\ncontract_type: Y\npositions: []\n",
            3,
            "positions",
            "the playbook has no positions",
        ),
        (
            "name: X\nname: Y\ncontract_type: Y\npositions: []\n",
            2,
            "name",
            'field "name": is given twice',
        ),
        (
            VALID.replace("      - Three years from signature.", "      - [a, b]"),
            12,
            "positions[0].fallbacks[1]",
            'field "fallbacks" of position "term", item 2: expected text',
        ),
    ],
)
def test_each_mistake_names_the_line_and_the_field(text: str, line: int, field: str, words: str) -> None:
    error = error_for(text)
    assert (error.line, error.field) == (line, field)
    assert f"firm.yaml, line {line}: " in str(error)
    assert words in str(error)


def test_text_that_is_not_yaml_says_where_it_broke() -> None:
    error = error_for('name: "Test NDA\ncontract_type: x\n')
    assert error.line == 3 and "is not valid YAML" in str(error)
    error = error_for("name: X\n\tcontract_type: Y\n")
    assert error.line == 2 and "is not valid YAML" in str(error)


def test_prose_or_a_list_is_not_a_playbook() -> None:
    error = error_for("Our standard NDA positions are set out below.\n")
    assert error.line == 1 and "is not a playbook" in str(error)
    assert "is not a playbook" in str(error_for("- one\n- two\n"))


def test_an_empty_file_and_a_missing_top_level_field() -> None:
    for text in ("", "   \n\n", "# only a comment\n", "~\n"):
        error = error_for(text)
        assert "is empty" in str(error)
    error = error_for("name: X\npositions: []\n")
    assert error.field == "contract_type" and 'required field "contract_type" is missing' in str(error)


def test_load_reports_the_file_name_and_unreadable_files(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text(VALID.replace("    severity: High", "    severity: 3"), encoding="utf-8")
    with pytest.raises(PlaybookError, match=r'^ours\.yaml, line 13: field "severity" of position "term"'):
        load_playbook(path)
    binary = tmp_path / "playbook.yaml"
    binary.write_bytes(b"PK\x03\x04\xff\xfe\x00binary")
    with pytest.raises(PlaybookError, match=r"^playbook\.yaml: is not a text file"):
        load_playbook(binary)
    with pytest.raises(PlaybookError, match=r"^absent\.yaml: cannot be read"):
        load_playbook(tmp_path / "absent.yaml")


def test_the_documented_example_parses_and_the_documented_tab_error_is_the_real_one() -> None:
    doc = (REPO_ROOT / "docs" / "playbook-format.md").read_text(encoding="utf-8")
    example = doc.split("## Example\n\n```yaml\n", 1)[1].split("```", 1)[0]
    playbook = parse_playbook(example, "example.yaml")
    assert [p.id for p in playbook.positions] == ["term", "governing-law"]
    error = error_for("name: X\ncontract_type: Y\npositions:\n\t- id: a\n")
    assert str(error).replace("firm.yaml, line 4", "firm-nda.yaml, line 9") in doc

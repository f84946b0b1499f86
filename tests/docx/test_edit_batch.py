"""Contract §5.4-§5.6: the operation key table, the strict batch parser, its schemas and messages."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from reviewer_app.docx import hashing
from reviewer_app.docx.edit import contract
from reviewer_app.docx.edit.batch import (
    Batch,
    ContractError,
    Operation,
    UnsupportedOperationVersionError,
    batch_json_schema,
    canonical_json,
    operation_json_schema,
    parse_batch,
    validate_batch,
)
from reviewer_app.docx.edit.schema import MAX_ISSUES, check_value, format_path, sanitize_text

B = "00AB12CD"
RANGE = {
    "type": "textRange",
    "story": "main",
    "blockId": B,
    "startOffset": 4,
    "endOffset": 9,
    "selectedTextHash": "h1x2y3",
}
#: A valid minimal operation of each type (without id/type).
MINIMAL: dict[str, dict[str, Any]] = {
    "replaceInBlock": {"blockId": B, "find": "Supplier", "replace": "Vendor"},
    "replaceRange": {"range": RANGE, "replace": "Vendor"},
    "commentOnRange": {"range": RANGE, "comment": {"text": "Is this defined?"}},
    "formatRange": {"range": RANGE, "formatting": {"bold": True}},
    "insertAfterBlock": {"blockId": B, "text": "A new clause."},
    "insertBeforeBlock": {"blockId": B, "text": ""},
    "replaceBlock": {"blockId": B, "text": "The whole clause, rewritten."},
    "deleteBlock": {"blockId": B},
    "splitBlock": {"blockId": B, "offset": 3},
    "mergeBlockWithNext": {"blockId": B},
    "setBlockParagraphProperties": {"blockId": B, "properties": {"alignment": "center"}},
    "insertTable": {"blockId": B, "rows": [["Party", "Role"], ["Acme", "Supplier"]]},
    "deleteTable": {"blockId": B},
    "commentOnBlock": {"blockId": B, "comment": {"text": "Check the cap."}},
    "insertSignatureTable": {"blockId": B, "parties": [{"name": "Acme Ltd"}]},
    "insertTableRow": {"blockId": B},
    "deleteTableRow": {"blockId": B},
    "insertTableColumn": {"blockId": B},
    "deleteTableColumn": {"blockId": B},
    "mergeTableCells": {"blockId": B, "endBlockId": "00AB12CE"},
    "splitTableCell": {"blockId": B},
}
#: A valid value for every key some type accepts.
SAMPLES: dict[str, Any] = {
    "blockId": B,
    "range": RANGE,
    "find": "x",
    "replace": "y",
    "text": "Some text",
    "comment": {"text": "Why?"},
    "formatting": {"italic": None},
    "quote": "the cap",
    "inheritFormatting": False,
    "pageBreakBefore": True,
    "preserveFormatting": True,
    "styleId": None,
    "alignment": None,
    "moveId": "move-1",
    "outlineLevel": {"kind": "bodyText"},
    "numbering": {"kind": "newList", "format": "numbered", "level": 0},
    "spacing": {"spaceAfter": 120},
    "indentation": {"indentLeft": -360, "hangingIndent": True},
    "lineBreakMode": "inline",
    "formattingScope": "allParagraphs",
    "hardPageBreak": {"clear": "all"},
    "offset": 0,
    "separator": " ",
    "firstParagraphProperties": {"styleId": "Heading2"},
    "secondParagraphProperties": {"numbering": {"kind": "inherit"}},
    "mergedParagraphProperties": {"spacing": None},
    "properties": {"outlineLevel": None},
    "rows": [["a"]],
    "position": "before",
    "parties": [{"name": "Acme", "signatory": "J. Doe", "title": "CEO"}],
    "cellTexts": ["a", "", "c"],
    "endBlockId": "00AB12CE",
    "rowCount": 2,
    "severity": "high",
    "area": "Liability",
    "precondition": {"blockTextHash": "h45h"},
    "suggestionId": "s-1",
}


def op(type_: str, **fields: Any) -> dict[str, Any]:
    return {"id": "op-1", "type": type_, **MINIMAL[type_], **fields}


def batch(*operations: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "operations": list(operations), **extra}


def issues(value: Any) -> list[dict[str, Any]]:
    result = validate_batch(value)
    assert "issues" in result, result
    return result["issues"]


def messages(value: Any) -> list[str]:
    return [i["message"] for i in issues(value)]


def only_message(value: Any) -> str:
    found = messages(value)
    assert len(found) == 1, found
    return found[0]


def parse_one(operation: dict[str, Any]) -> Operation:
    return parse_batch(batch(operation)).operations[0]


# ---- the table -----------------------------------------------------------------------------------


def test_the_21_types_in_contract_order():
    assert contract.OPERATION_TYPES == (
        "replaceInBlock", "replaceRange", "commentOnRange", "formatRange", "insertAfterBlock",
        "insertBeforeBlock", "replaceBlock", "deleteBlock", "splitBlock", "mergeBlockWithNext",
        "setBlockParagraphProperties", "insertTable", "deleteTable", "commentOnBlock",
        "insertSignatureTable", "insertTableRow", "deleteTableRow", "insertTableColumn",
        "deleteTableColumn", "mergeTableCells", "splitTableCell",
    )  # fmt: skip
    assert set(MINIMAL) == set(contract.OPERATION_TYPES)


def test_every_key_has_a_shape_and_a_sample():
    keys = {k for keys in contract.KEYS_BY_TYPE.values() for k in keys}
    assert keys == set(contract.KEY_SCHEMAS) == set(SAMPLES)


def test_common_keys_on_every_type_but_suggestion_id_not_on_comment_on_range():
    for type_, keys in contract.OPTIONAL_KEYS_BY_TYPE.items():
        expected = {"severity", "area", "precondition"} | (
            {"suggestionId"} if type_ != "commentOnRange" else set()
        )
        assert expected <= set(keys), type_
    assert "suggestionId" not in contract.KEYS_BY_TYPE["commentOnRange"]


def test_required_keys_follow_the_contract_table():
    assert contract.REQUIRED_KEYS_BY_TYPE["replaceInBlock"] == ("blockId", "find", "replace")
    assert contract.REQUIRED_KEYS_BY_TYPE["formatRange"] == ("range", "formatting")
    assert contract.REQUIRED_KEYS_BY_TYPE["splitBlock"] == ("blockId", "offset")
    assert contract.REQUIRED_KEYS_BY_TYPE["mergeTableCells"] == ("blockId",)
    assert "listLevel" not in {k for keys in contract.KEYS_BY_TYPE.values() for k in keys}  # [0.11.3] only


def test_modes_by_type_follow_section_5_6():
    all_modes = ("direct", "tracked-changes", "suggested")
    for type_ in ("replaceInBlock", "replaceRange", "formatRange", "insertAfterBlock", "insertBeforeBlock",
                  "replaceBlock", "deleteBlock", "insertTableRow", "deleteTableRow", "insertTableColumn",
                  "deleteTableColumn"):  # fmt: skip
        assert contract.MODES_BY_TYPE[type_] == all_modes
    for type_ in ("commentOnRange", "commentOnBlock", "splitBlock", "mergeBlockWithNext",
                  "setBlockParagraphProperties", "insertTable", "deleteTable", "mergeTableCells",
                  "splitTableCell"):  # fmt: skip
        assert contract.MODES_BY_TYPE[type_] == ("direct", "tracked-changes")
    assert contract.MODES_BY_TYPE["insertSignatureTable"] == ("direct", "suggested")


def test_capabilities():
    caps = contract.capabilities()
    assert caps["version"] == 1
    assert caps["operationTypes"] == list(contract.OPERATION_TYPES)
    assert caps["modes"] == ["direct", "tracked-changes", "suggested"]
    assert caps["modesByOperationType"]["insertSignatureTable"] == ["direct", "suggested"]
    assert caps["batchModes"] == ["best-effort", "atomic"]
    assert caps["dryRun"] is True
    assert caps["preconditions"] == ["blockTextHash"]
    assert caps["batchPreconditions"] == ["documentVersion"]
    assert caps["stories"] == ["main", "header", "footer", "footnote", "endnote"]
    caps["operationTypes"].clear()
    assert contract.capabilities()["operationTypes"]  # a fresh copy each call


def test_default_surface_and_summaries():
    assert len(contract.DEFAULT_SUGGEST_CHANGES_TYPES) == 19
    assert "commentOnBlock" not in contract.DEFAULT_SUGGEST_CHANGES_TYPES
    assert "insertSignatureTable" not in contract.DEFAULT_SUGGEST_CHANGES_TYPES
    for type_, summary in contract.SUMMARY_BY_TYPE.items():
        assert summary.endswith(".") and "\n" not in summary and len(summary) < 100, type_


def test_hash_pattern_agrees_with_hashing():
    for value in ("h45h", "h7zrslk", "h0", "H45H", "h", "45h", "h4-5", "hé", ""):
        _, found = check_value(value, {"type": "string", "pattern": contract.HASH_PATTERN})
        assert (not found) == hashing.is_text_hash(value), value
    # JSON Schema's "$" ends the string: a trailing newline is not a hash
    assert check_value("h45h\n", {"type": "string", "pattern": contract.HASH_PATTERN})[1]


# ---- every type round-trips ------------------------------------------------------------------------


@pytest.mark.parametrize("type_", contract.OPERATION_TYPES)
def test_minimal_operation_of_every_type_parses(type_):
    parsed = parse_one(op(type_))
    assert (parsed.id, parsed.type) == ("op-1", type_)
    assert parsed.to_dict() == op(type_)


@pytest.mark.parametrize(
    ("type_", "key"), [(t, k) for t in contract.OPERATION_TYPES for k in contract.OPTIONAL_KEYS_BY_TYPE[t]]
)
def test_every_optional_key_is_accepted(type_, key):
    operation = op(type_, **{key: SAMPLES[key]})
    if key == "hardPageBreak":
        operation["text"] = ""
    if type_ == "mergeTableCells" and key == "rowCount":
        del operation["endBlockId"]
    parsed = parse_one(operation)
    assert key in parsed and parsed[key] is not None or SAMPLES[key] is None


@pytest.mark.parametrize(
    ("type_", "key"),
    [(t, k) for t in contract.OPERATION_TYPES for k in ("id", "type", *contract.REQUIRED_KEYS_BY_TYPE[t])],
)
def test_each_missing_required_field_is_rejected_with_its_path(type_, key):
    operation = op(type_)
    del operation[key]
    found = issues(batch(operation))
    assert {"message": f"operations[0].{key}: is required.", "path": ["operations", 0, key]} in found


# ---- batch envelope ---------------------------------------------------------------------------------


def test_batch_defaults_and_explicit_fields():
    parsed = parse_batch(batch(op("deleteBlock")))
    assert (parsed.version, parsed.mode, parsed.atomic, parsed.dry_run, parsed.precondition) == (
        1, "tracked-changes", False, False, None,
    )  # fmt: skip
    explicit = parse_batch(
        batch(
            op("deleteBlock"), mode="direct", atomic=True, dryRun=True, precondition={"documentVersion": "v7"}
        )
    )
    assert (explicit.mode, explicit.atomic, explicit.dry_run) == ("direct", True, True)
    assert explicit.precondition == {"documentVersion": "v7"}
    assert parse_batch(batch()).operations == ()


@pytest.mark.parametrize("version", [2, 0, "1", True, None, 1.5])
def test_wrong_version(version):
    with pytest.raises(UnsupportedOperationVersionError) as caught:
        parse_batch({"version": version, "operations": [{"junk": 1}]})
    assert str(caught.value) == "Unsupported document operation contract version."
    assert caught.value.issues == [
        {"message": "Unsupported document operation contract version.", "path": ["version"]}
    ]
    assert validate_batch({"version": version, "operations": []}) == {"issues": caught.value.issues}


def test_version_written_as_float_is_version_one():
    assert parse_batch({"version": 1.0, "operations": []}).version == 1


def test_batch_shape_errors():
    assert messages({"operations": []}) == ["version: is required."]
    assert messages({"version": 1}) == ["operations: is required."]
    assert messages(batch(extra=1)) == ["extra: unexpected property."]
    assert messages({"version": 1, "operations": {}}) == ["operations: expected an array."]
    assert messages(batch(mode="review")) == [
        'mode: expected one of "direct", "tracked-changes", "suggested".'
    ]
    assert messages(batch(atomic=1)) == ["atomic: expected true or false."]
    assert messages(batch(dryRun="yes")) == ["dryRun: expected true or false."]
    assert messages(batch(precondition={"documentVersion": ""})) == [
        "precondition.documentVersion: expected a non-empty string."
    ]
    assert messages(batch(precondition={})) == ["precondition.documentVersion: is required."]
    assert messages(batch(precondition={"documentVersion": "v", "x": 1})) == [
        "precondition.x: unexpected property."
    ]
    assert messages(batch(5)) == ["operations[0]: expected an object."]


def test_unknown_type_lists_the_types():
    expected = (
        "operations[0].type: expected one of " + ", ".join(f'"{t}"' for t in contract.OPERATION_TYPES) + "."
    )
    assert messages(batch({"id": "a", "type": "acceptChange"})) == [expected]
    assert messages(batch({"id": "a", "type": 7})) == [expected]
    # the id of an operation of unknown type is still checked
    assert messages(batch({"type": "nope"})) == [expected, "operations[0].id: is required."]


def test_unexpected_properties_at_every_level():
    assert only_message(batch(op("replaceInBlock", kind="x"))) == "operations[0].kind: unexpected property."
    assert only_message(batch(op("replaceInBlock", comment={"text": "a", "author": "b"}))) == (
        "operations[0].comment.author: unexpected property."
    )
    assert only_message(batch(op("replaceRange", range={**RANGE, "page": 1}))) == (
        "operations[0].range.page: unexpected property."
    )
    assert only_message(batch(op("deleteBlock", **{"odd key": 1}))) == (
        'operations[0]["odd key"]: unexpected property.'
    )
    # a key another type accepts is still unexpected here
    assert only_message(batch(op("deleteTable", comment={"text": "x"}))) == (
        "operations[0].comment: unexpected property."
    )


def test_ids_are_unique_and_non_empty():
    first, second = op("deleteBlock"), op("deleteTable")
    assert issues(batch(first, second)) == [
        {"message": "operations[1].id: expected a unique operation id.", "path": ["operations", 1, "id"]}
    ]
    assert only_message(batch({**first, "id": ""})) == "operations[0].id: expected a non-empty string."
    assert only_message(batch({**first, "id": 3})) == "operations[0].id: expected a non-empty string."
    # a duplicate is reported even when the earlier operation had other problems
    assert messages(batch({**first, "blockId": 1}, second)) == [
        "operations[0].blockId: expected a non-empty string.",
        "operations[1].id: expected a unique operation id.",
    ]


def test_wrong_value_types_read_plainly():
    assert only_message(batch(op("replaceInBlock", find=3))) == "operations[0].find: expected a string."
    assert (
        only_message(batch(op("splitBlock", offset=-1))) == "operations[0].offset: expected an integer >= 0."
    )
    assert (
        only_message(batch(op("splitBlock", offset=True)))
        == "operations[0].offset: expected an integer >= 0."
    )
    assert (
        only_message(batch(op("splitBlock", offset=1.5))) == "operations[0].offset: expected an integer >= 0."
    )
    assert parse_one(op("splitBlock", offset=3.0))["offset"] == 3
    assert isinstance(parse_one(op("splitBlock", offset=3.0))["offset"], int)
    assert only_message(batch(op("insertTable", position="below"))) == (
        'operations[0].position: expected one of "after", "before".'
    )
    assert only_message(batch(op("insertAfterBlock", lineBreakMode="soft"))) == (
        'operations[0].lineBreakMode: expected one of "paragraph", "inline".'
    )
    assert only_message(batch(op("insertAfterBlock", formattingScope="all"))) == (
        'operations[0].formattingScope: expected one of "firstParagraph", "allParagraphs".'
    )
    assert only_message(batch(op("deleteBlock", severity="critical"))) == (
        'operations[0].severity: expected one of "low", "medium", "high".'
    )
    assert only_message(batch(op("replaceBlock", preserveFormatting="yes"))) == (
        "operations[0].preserveFormatting: expected true or false."
    )
    assert (
        only_message(batch(op("commentOnBlock", comment="plain")))
        == "operations[0].comment: expected an object."
    )
    assert only_message(batch(op("replaceBlock", styleId=""))) == (
        "operations[0].styleId: expected a non-empty string or null."
    )
    assert only_message(batch(op("deleteBlock", precondition={"blockTextHash": "abc"}))) == (
        'operations[0].precondition.blockTextHash: expected a text hash ("h" followed by lowercase letters '
        "and digits, as read_document gives it)."
    )


def test_issue_paths_and_messages_are_consistent():
    found = issues(batch(op("replaceInBlock", find=None, replace=[])))
    assert found == [
        {"message": "operations[0].find: expected a string.", "path": ["operations", 0, "find"]},
        {"message": "operations[0].replace: expected a string.", "path": ["operations", 0, "replace"]},
    ]
    for issue in found:
        assert issue["message"].startswith(format_path(issue["path"]) + ": ")
    assert format_path([]) == "$"
    assert format_path(["operations", 3, "rows", 0, 1]) == "operations[3].rows[0][1]"


def test_contract_error_carries_every_issue():
    with pytest.raises(ContractError) as caught:
        parse_batch(batch(op("replaceInBlock", find=1), op("deleteBlock", id="op-2", blockId="")))
    assert [i["path"] for i in caught.value.issues] == [
        ["operations", 0, "find"],
        ["operations", 1, "blockId"],
    ]
    assert str(caught.value).startswith("operations[0].find: expected a string. operations[1].blockId:")


def test_issue_count_is_bounded():
    garbage = batch(*({"id": str(i), "type": "deleteBlock", "blockId": 0} for i in range(5000)))
    assert len(issues(garbage)) == MAX_ISSUES


# ---- cross-key rules ------------------------------------------------------------------------------


def test_merge_table_cells_admits_exactly_one_endpoint():
    assert parse_one(op("mergeTableCells"))["endBlockId"] == "00AB12CE"
    by_rows = {"id": "m", "type": "mergeTableCells", "blockId": B, "rowCount": 3}
    assert parse_one(by_rows)["rowCount"] == 3
    expected = 'operations[0]: expected exactly one of "endBlockId" or "rowCount".'
    assert only_message(batch({**by_rows, "endBlockId": "00AB12CE"})) == expected
    assert only_message(batch({"id": "m", "type": "mergeTableCells", "blockId": B})) == expected
    assert (
        only_message(batch({**by_rows, "rowCount": 1})) == "operations[0].rowCount: expected an integer >= 2."
    )
    assert only_message(batch(op("mergeTableCells", endBlockId=""))) == (
        "operations[0].endBlockId: expected a non-empty string."
    )


@pytest.mark.parametrize("type_", ["insertAfterBlock", "insertBeforeBlock"])
def test_hard_page_break_rules(type_):
    assert parse_one(op(type_, text="", hardPageBreak={}))["hardPageBreak"] == {}
    assert parse_one(op(type_, text="", hardPageBreak={"clear": "left"}))["hardPageBreak"] == {
        "clear": "left"
    }
    assert only_message(batch(op(type_, text="Clause", hardPageBreak={}))) == (
        'operations[0].hardPageBreak: omit hardPageBreak to insert text, or set text to "" to insert a hard '
        "page break."
    )
    assert only_message(batch(op(type_, text="", hardPageBreak={}, pageBreakBefore=True))) == (
        "operations[0].hardPageBreak: cannot combine hardPageBreak with pageBreakBefore."
    )
    assert only_message(batch(op(type_, text="", hardPageBreak={}, lineBreakMode="paragraph"))) == (
        "operations[0].hardPageBreak: cannot combine hardPageBreak with lineBreakMode."
    )
    assert only_message(batch(op(type_, text="", hardPageBreak={"clear": "both"}))) == (
        'operations[0].hardPageBreak.clear: expected one of "none", "left", "right", "all".'
    )


def test_hard_page_break_only_on_inserts():
    for type_ in contract.OPERATION_TYPES:
        if type_ not in ("insertAfterBlock", "insertBeforeBlock"):
            assert only_message(batch(op(type_, hardPageBreak={}))) == (
                "operations[0].hardPageBreak: unexpected property."
            )


# ---- value vocabularies ---------------------------------------------------------------------------


def test_range_handle_rules():
    assert parse_one(op("replaceRange"))["range"] == RANGE

    def with_range(**changes: Any) -> dict[str, Any]:
        return batch(op("replaceRange", range={**RANGE, **changes}))

    assert (
        only_message(with_range(endOffset=4))
        == "operations[0].range.endOffset: expected an integer greater than startOffset."
    )
    assert only_message(with_range(endOffset=2)).startswith("operations[0].range.endOffset:")
    assert (
        only_message(with_range(startOffset=-1))
        == "operations[0].range.startOffset: expected an integer >= 0."
    )
    assert only_message(with_range(selectedTextHash="H12")).startswith(
        "operations[0].range.selectedTextHash: expected a text hash"
    )
    assert (
        only_message(with_range(type="headingSection")) == 'operations[0].range.type: expected "textRange".'
    )
    assert only_message(with_range(story="footer")) == 'operations[0].range.story: expected "main".'
    assert only_message(with_range(blockId="")) == "operations[0].range.blockId: expected a non-empty string."
    missing = {k: v for k, v in RANGE.items() if k != "selectedTextHash"}
    assert only_message(batch(op("replaceRange", range=missing))) == (
        "operations[0].range.selectedTextHash: is required."
    )
    assert (
        only_message(batch(op("replaceRange", range="00AB12CD:4-9")))
        == "operations[0].range: expected an object."
    )


def test_range_handle_fragment_is_reusable_outside_batches():
    value, found = check_value(RANGE, contract.RANGE_SCHEMA, ["range"])
    assert value == RANGE and not found
    value, found = check_value({**RANGE, "endOffset": 1}, contract.RANGE_SCHEMA, ["range"])
    assert value is None and found[0]["path"] == ["range", "endOffset"]


VALID_NUMBERING = [
    {"kind": "none"},
    {"kind": "inherit"},
    {"kind": "levelOnly", "ilvl": 0},
    {"kind": "levelOnly", "ilvl": 8},
    {"kind": "reference", "numId": 1},
    {"kind": "reference", "numId": 901, "ilvl": 2},
    {"kind": "newList", "format": "bullet"},
    {"kind": "newList", "format": "numbered", "level": 3},
]
INVALID_NUMBERING = [
    (None, "operations[0].numbering: expected an object."),
    ("none", "operations[0].numbering: expected an object."),
    ({}, "operations[0].numbering.kind: is required."),
    ({"kind": "bullets"}, 'operations[0].numbering.kind: expected one of "none", "inherit", "levelOnly", '
                          '"reference", "newList".'),
    ({"kind": "levelOnly"}, "operations[0].numbering.ilvl: is required."),
    ({"kind": "levelOnly", "ilvl": 9}, "operations[0].numbering.ilvl: expected an integer from 0 to 8."),
    ({"kind": "reference"}, "operations[0].numbering.numId: is required."),
    ({"kind": "reference", "numId": 0}, "operations[0].numbering.numId: expected an integer >= 1."),
    ({"kind": "reference", "numId": 1, "ilvl": -1}, "operations[0].numbering.ilvl: expected an integer from 0 to 8."),
    ({"kind": "newList"}, "operations[0].numbering.format: is required."),
    ({"kind": "newList", "format": "roman"}, 'operations[0].numbering.format: expected one of "bullet", "numbered".'),
    ({"kind": "none", "numId": 0}, "operations[0].numbering.numId: unexpected property."),
    ({"numId": 1, "level": 0}, "operations[0].numbering.kind: is required."),  # the intermediate build's shape
]  # fmt: skip


@pytest.mark.parametrize("numbering", VALID_NUMBERING)
def test_numbering_states_valid(numbering):
    assert parse_one(op("insertAfterBlock", numbering=numbering))["numbering"] == numbering
    props = parse_one(op("setBlockParagraphProperties", properties={"numbering": numbering}))["properties"]
    assert props["numbering"] == numbering


@pytest.mark.parametrize(("numbering", "message"), INVALID_NUMBERING)
def test_numbering_states_invalid(numbering, message):
    assert only_message(batch(op("insertAfterBlock", numbering=numbering))) == message


def test_outline_level():
    for level in (
        None,
        {"kind": "bodyText"},
        {"kind": "heading", "level": 0},
        {"kind": "heading", "level": 8},
    ):
        assert parse_one(op("insertBeforeBlock", outlineLevel=level))["outlineLevel"] == level
    assert only_message(batch(op("insertBeforeBlock", outlineLevel=2))) == (
        "operations[0].outlineLevel: expected an object or null."
    )
    assert only_message(batch(op("insertBeforeBlock", outlineLevel={"kind": "heading", "level": 9}))) == (
        "operations[0].outlineLevel.level: expected an integer from 0 to 8."
    )
    assert only_message(batch(op("insertBeforeBlock", outlineLevel={"kind": "bodyText", "level": 1}))) == (
        "operations[0].outlineLevel.level: unexpected property."
    )


def test_alignment_spacing_indentation():
    for value in (*contract.ALIGNMENTS, None):
        assert parse_one(op("insertAfterBlock", alignment=value))["alignment"] == value
    assert parse_one(op("insertAfterBlock", spacing=None))["spacing"] is None
    spacing = {"spaceBefore": 0, "spaceAfter": 240, "lineSpacing": -240, "lineSpacingRule": "exact",
               "beforeAutospacing": True, "afterAutospacing": False}  # fmt: skip
    assert parse_one(op("insertAfterBlock", spacing=spacing))["spacing"] == spacing
    assert only_message(batch(op("insertAfterBlock", spacing={}))).startswith(
        'operations[0].spacing: expected at least one of "spaceBefore", "spaceAfter"'
    )
    assert only_message(batch(op("insertAfterBlock", spacing={"spaceBefore": -1}))) == (
        "operations[0].spacing.spaceBefore: expected an integer >= 0."
    )
    assert only_message(batch(op("insertAfterBlock", spacing={"lineSpacingRule": "double"}))) == (
        'operations[0].spacing.lineSpacingRule: expected one of "auto", "exact", "atLeast".'
    )
    assert parse_one(op("insertAfterBlock", indentation=None))["indentation"] is None
    assert only_message(batch(op("insertAfterBlock", indentation={}))).startswith(
        "operations[0].indentation: expected at least one of"
    )
    assert only_message(batch(op("insertAfterBlock", indentation={"indentLeft": 2**53}))).startswith(
        "operations[0].indentation.indentLeft: expected an integer from -9007199254740991 to"
    )


def test_paragraph_properties():
    full = {"styleId": None, "outlineLevel": {"kind": "bodyText"}, "numbering": {"kind": "none"},
            "alignment": "both", "spacing": None, "indentation": {"indentFirstLine": 720}}  # fmt: skip
    assert parse_one(op("setBlockParagraphProperties", properties=full))["properties"] == full
    assert only_message(batch(op("setBlockParagraphProperties", properties={}))) == (
        'operations[0].properties: expected at least one of "styleId", "outlineLevel", "numbering", '
        '"alignment", "spacing", "indentation".'
    )
    assert only_message(batch(op("setBlockParagraphProperties", properties={"listLevel": 1}))) == (
        "operations[0].properties.listLevel: unexpected property."
    )
    assert only_message(batch(op("splitBlock", secondParagraphProperties={}))).startswith(
        "operations[0].secondParagraphProperties: expected at least one of"
    )


def test_formatting_rules():
    fmt = {"bold": True, "italic": False, "underline": None, "strike": True, "fontFamily": "Arial",
           "fontSizePt": 10.5, "color": "1f4e79"}  # fmt: skip
    parsed = parse_one(op("formatRange", formatting=fmt))["formatting"]
    assert parsed == {**fmt, "color": "#1F4E79"}  # normalized: upper-case with "#"
    assert parse_one(op("formatRange", formatting={"color": "#a0b1c2"}))["formatting"]["color"] == "#A0B1C2"
    assert parse_one(op("formatRange", formatting={"color": None, "fontFamily": None, "fontSizePt": None}))
    assert parse_one(op("formatRange", formatting={"fontSizePt": 12}))["formatting"]["fontSizePt"] == 12

    def message(**formatting: Any) -> str:
        return only_message(batch(op("formatRange", formatting=formatting)))

    assert message() == (
        'operations[0].formatting: expected at least one of "bold", "italic", "underline", "strike", '
        '"fontFamily", "fontSizePt", "color".'
    )
    assert message(bold=1) == "operations[0].formatting.bold: expected true or false or null."
    assert (
        message(fontFamily="") == "operations[0].formatting.fontFamily: expected a non-empty string or null."
    )
    size = "operations[0].formatting.fontSizePt: expected a number > 0 in steps of 0.5 or null."
    assert message(fontSizePt=0) == size
    assert message(fontSizePt=-2) == size
    assert message(fontSizePt=10.25) == size
    assert message(fontSizePt=float("nan")) == size
    assert message(fontSizePt=10**400) == size
    for color in ("#abc", "red", "#12345G", "##123456", "1234567"):
        assert message(color=color) == (
            'operations[0].formatting.color: expected a hex color such as "#1F4E79" or null.'
        ), color
    assert message(size=12) == "operations[0].formatting.size: unexpected property."


def test_rows_cells_and_parties():
    assert (
        only_message(batch(op("insertTable", rows=[])))
        == "operations[0].rows: expected a non-empty array of arrays."
    )
    assert only_message(batch(op("insertTable", rows=[[]]))) == (
        "operations[0].rows[0]: expected a non-empty array of strings."
    )
    assert only_message(batch(op("insertTable", rows=[["a", "b"], ["c"]]))) == (
        "operations[0].rows[1]: expected 2 cells, as many as the first row."
    )
    assert (
        only_message(batch(op("insertTable", rows=[["a", 1]])))
        == "operations[0].rows[0][1]: expected a string."
    )
    assert parse_one(op("insertTable", rows=[["a\nb", ""]]))["rows"] == (("a\nb", ""),)
    assert parse_one(op("insertTableRow", cellTexts=[]))["cellTexts"] == ()
    assert only_message(batch(op("insertTableColumn", cellTexts="a"))) == (
        "operations[0].cellTexts: expected an array of strings."
    )
    assert parse_one(op("insertSignatureTable", parties=[]))["parties"] == ()
    assert only_message(batch(op("insertSignatureTable", parties=[{"title": "CEO"}]))) == (
        "operations[0].parties[0].name: is required."
    )
    assert only_message(batch(op("insertSignatureTable", parties=[{"name": "A", "email": "x"}]))) == (
        "operations[0].parties[0].email: unexpected property."
    )


# ---- sanitization -------------------------------------------------------------------------------


def test_sanitize_text():
    assert sanitize_text("a\x00b\x07c\x1bd\x1fe") == "abcde"
    assert sanitize_text("tab\tlf\ncr\r") == "tab\tlf\ncr\r"
    assert sanitize_text("del\x7f kept") == "del\x7f kept"
    assert sanitize_text("lone \ud800 high, lone \udfff low") == "lone \ufffd high, lone \ufffd low"
    assert sanitize_text("\ud83d\ude00") == "\U0001f600"  # a UTF-16 pair held as two code points
    assert sanitize_text("\ude00\ud83d") == "\ufffd\ufffd"  # wrong order: not a pair
    assert sanitize_text("\ud83d\x00\ude00") == "\ufffd\ufffd"  # a control does not glue halves together
    clean = "Plain text, ünïcode and 😀"
    assert sanitize_text(clean) is clean


def test_every_string_in_a_batch_is_sanitized():
    parsed = parse_batch(
        batch(
            op("commentOnBlock", id="op\x01-1", blockId="00AB\x0012CD", comment={"text": "Fix\x08 this \ud800"},
               quote="q\x1f"),
            op("insertTable", id="op-2", rows=[["a\x0b", "b"]]),
            op("formatRange", id="op-3", formatting={"fontFamily": "Ari\x00al"}),
            precondition={"documentVersion": "v\x001"},
        )
    )  # fmt: skip
    first, second, third = parsed.operations
    assert first.id == "op-1" and first["blockId"] == B
    assert first["comment"]["text"] == "Fix this \ufffd" and first["quote"] == "q"
    assert second["rows"] == (("a", "b"),)
    assert third["formatting"]["fontFamily"] == "Arial"
    assert parsed.precondition == {"documentVersion": "v1"}
    # sanitizing happens before checks: a type or enum value with a stray control still matches
    assert parse_one(op("insertTable", type="insert\x00Table", position="af\x00ter"))["position"] == "after"


def test_a_string_that_sanitizes_to_empty_fails_non_empty_checks():
    assert only_message(batch(op("deleteBlock", blockId="\x00\x01"))) == (
        "operations[0].blockId: expected a non-empty string."
    )


# ---- validate_batch never raises ------------------------------------------------------------------


class _Hostile(Mapping):
    """A mapping that fails when read: validate_batch must still answer with issues."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        return 1

    def __contains__(self, key: object) -> bool:
        raise RuntimeError("boom")


def _deep(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value, {"k": value}]
        value = value[:1]
    return value


@pytest.mark.parametrize(
    "garbage",
    [
        None, [], "x", 1, 2.5, True, b"bytes", object(), {}, {"version": 1, "operations": "x"},
        {"version": 1, "operations": [None, [], "x", {"type": None}, {"id": [], "type": {}}]},
        {"version": 1, "operations": [{"id": "a", "type": "insertAfterBlock", "blockId": {"a": [1, {"b": None}]},
                                       "text": _deep(5000), "numbering": {"kind": []}}]},
        {"version": 1, "operations": [{"id": {"x"}, "type": "deleteBlock", "blockId": B}]},
        {"version": [], "operations": []}, {1: 2, None: 3}, _Hostile(),
        {"version": 1, "operations": [_Hostile()]},
    ],
)  # fmt: skip
def test_validate_batch_never_raises(garbage):
    result = validate_batch(garbage)
    assert set(result) == {"issues"}
    assert result["issues"]
    for issue in result["issues"]:
        assert isinstance(issue["message"], str) and issue["message"].endswith(".")
        assert isinstance(issue["path"], list)


def test_validate_batch_returns_the_parsed_value():
    result = validate_batch(batch(op("deleteBlock")))
    assert isinstance(result["value"], Batch) and result["value"].operations[0].type == "deleteBlock"


def test_root_that_is_not_an_object():
    assert issues([]) == [{"message": "$: expected an object.", "path": []}]


# ---- immutability, memoization, mapping interface -----------------------------------------------------


def test_parsed_batches_are_frozen():
    parsed = parse_batch(batch(op("insertTable"), precondition={"documentVersion": "v1"}))
    operation = parsed.operations[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.mode = "direct"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        operation.id = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        operation.fields["blockId"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError):
        parsed.precondition["documentVersion"] = "v2"  # type: ignore[index]
    assert isinstance(operation["rows"], tuple) and isinstance(operation["rows"][0], tuple)
    assert isinstance(parsed.operations, tuple)


def test_input_is_not_aliased():
    raw = batch(op("insertTable"))
    parsed = parse_batch(raw)
    raw["operations"][0]["rows"][0][0] = "changed"
    assert parsed.operations[0]["rows"][0][0] == "Party"


def test_parsing_a_parsed_batch_returns_it_unchanged():
    parsed = parse_batch(batch(op("deleteBlock")))
    assert parse_batch(parsed) is parsed
    assert validate_batch(parsed)["value"] is parsed


def test_a_replaced_batch_is_validated_again():
    parsed = parse_batch(batch(op("deleteBlock")))
    stamped = parse_batch(dataclasses.replace(parsed, mode="direct"))
    assert stamped.mode == "direct" and stamped is not parsed and parse_batch(stamped) is stamped
    with pytest.raises(ContractError, match='mode: expected one of "direct"'):
        parse_batch(dataclasses.replace(parsed, mode="review"))
    with pytest.raises(ContractError):
        parse_batch(Batch(version=1, operations=({"id": "x", "type": "deleteBlock"},)))  # type: ignore[arg-type]


def test_to_dict_round_trips():
    raw = batch(op("insertAfterBlock", numbering={"kind": "reference", "numId": 3}), op("insertTable", id="t"),
                mode="direct", atomic=True, precondition={"documentVersion": "v9"})  # fmt: skip
    parsed = parse_batch(raw)
    again = parse_batch(parsed.to_dict())
    assert again == parsed
    assert json.loads(json.dumps(parsed.to_dict())) == parsed.to_dict()


def test_operation_reads_like_a_mapping():
    operation = parse_one(op("replaceInBlock", comment={"text": "Why?"}))
    assert operation["blockId"] == B and operation.get("quote") is None and "find" in operation
    assert dict(operation) == dict(operation.fields)
    assert operation.fields["comment"].get("text") == "Why?"
    assert len(operation) == 6
    assert operation == parse_one(op("replaceInBlock", comment={"text": "Why?"}))
    assert len({operation, parse_one(op("replaceInBlock", comment={"text": "Why?"}))}) == 1
    assert hash(parse_batch(batch(op("deleteBlock"), precondition={"documentVersion": "v"})))


def test_operations_from_a_parsed_batch_can_be_parsed_again():
    parsed = parse_batch(batch(op("insertTable")))
    assert parse_batch(batch(*parsed.operations)).operations == parsed.operations


# ---- canonical JSON ---------------------------------------------------------------------------------


def test_canonical_json():
    a = {
        "type": "replaceInBlock",
        "id": "x",
        "comment": {"text": "t"},
        "blockId": B,
        "find": "a",
        "replace": "b",
    }
    b = {
        "replace": "b",
        "find": "a",
        "blockId": B,
        "comment": {"text": "t"},
        "id": "x",
        "type": "replaceInBlock",
    }
    assert canonical_json(a) == canonical_json(b) == canonical_json(parse_one(a))
    assert canonical_json(a) == (
        '{"blockId":"00AB12CD","comment":{"text":"t"},"find":"a","id":"x","replace":"b","type":"replaceInBlock"}'
    )
    assert canonical_json({"rows": [["b", "a"]]}) != canonical_json({"rows": [["a", "b"]]})
    assert canonical_json({"n": 12.0}) == canonical_json({"n": 12}) == '{"n":12}'
    assert canonical_json({"n": 10.5, "t": None, "f": False}) == '{"f":false,"n":10.5,"t":null}'
    assert canonical_json({"s": "é😀"}) == '{"s":"é😀"}'
    with pytest.raises(ValueError):
        canonical_json({"n": float("nan")})


# ---- JSON Schemas ---------------------------------------------------------------------------------


def _walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def test_operation_schema_has_exactly_the_21_types():
    schema = operation_json_schema()
    variants = schema["oneOf"]
    assert [v["properties"]["type"]["const"] for v in variants] == list(contract.OPERATION_TYPES)
    for variant in variants:
        type_ = variant["properties"]["type"]["const"]
        assert variant["required"][:2] == ["id", "type"]
        assert variant["required"][2:] == list(contract.REQUIRED_KEYS_BY_TYPE[type_])
        assert set(variant["properties"]) == {"id", "type", *contract.KEYS_BY_TYPE[type_]}
        assert variant["additionalProperties"] is False
        assert variant["description"] == contract.SUMMARY_BY_TYPE[type_]
    merge = variants[contract.OPERATION_TYPES.index("mergeTableCells")]
    assert merge["oneOf"] == [{"required": ["endBlockId"]}, {"required": ["rowCount"]}]


def test_schemas_are_public_json():
    for schema in (operation_json_schema(), batch_json_schema(), contract.key_json_schema("rows")):
        json.dumps(schema)
        for node in _walk(schema):
            if isinstance(node, dict):
                assert not any(isinstance(k, str) and k.startswith("x-") for k in node), node
    assert operation_json_schema() is not operation_json_schema()  # callers may edit their copy


def test_batch_schema_envelope():
    schema = batch_json_schema()
    assert schema["required"] == ["version", "operations"]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == {"version", "operations", "mode", "atomic", "dryRun", "precondition"}
    assert schema["properties"]["mode"]["enum"] == ["direct", "tracked-changes", "suggested"]
    assert len(schema["properties"]["operations"]["items"]["oneOf"]) == 21


def test_schema_and_parser_agree():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(batch_json_schema())
    jsonschema.Draft7Validator.check_schema(batch_json_schema())
    for type_ in contract.OPERATION_TYPES:
        good = batch(op(type_))
        assert validate_batch(good).get("value") and validator.is_valid(good), type_
        for key in contract.OPTIONAL_KEYS_BY_TYPE[type_]:
            operation = op(type_, **{key: SAMPLES[key]})
            if key == "hardPageBreak":
                operation["text"] = ""
            if type_ == "mergeTableCells" and key == "rowCount":
                del operation["endBlockId"]
            assert validator.is_valid(batch(operation)), (type_, key)
    bad = [
        batch(op("deleteBlock", kind="x")),
        batch(op("mergeTableCells", rowCount=2)),
        batch({"id": "m", "type": "mergeTableCells", "blockId": B}),
        batch(op("insertAfterBlock", hardPageBreak={})),
        batch(op("insertAfterBlock", text="", hardPageBreak={}, lineBreakMode="inline")),
        batch(op("formatRange", formatting={})),
        batch(op("formatRange", formatting={"fontSizePt": 10.25})),
        batch(op("insertAfterBlock", numbering={"kind": "reference"})),
        batch(op("commentOnRange", suggestionId="s")),
        {"version": 1, "operations": [], "extra": True},
    ]
    for value in bad:
        assert "issues" in validate_batch(value) and not validator.is_valid(value), value

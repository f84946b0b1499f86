"""Contract §4.8, §5.3 and §11 parse.test: add_comment and suggest_changes argument parsing."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from reviewer_app.agent.suggest_changes import (
    SuggestChangesOptions,
    parse_add_comment_input,
    parse_suggest_changes_input,
    suggest_changes_input_schema,
)
from reviewer_app.docx.edit import contract
from reviewer_app.docx.edit.batch import parse_batch

B = "00AB12CD"
HASH = "hj8747b"
RANGE = {
    "type": "textRange",
    "story": "main",
    "blockId": B,
    "startOffset": 4,
    "endOffset": 9,
    "selectedTextHash": "h1x2y3",
}
#: One valid operation per type, as a model writes it (string comments, no ids).
EXAMPLES: dict[str, dict[str, Any]] = {
    "replaceInBlock": {"blockId": B, "find": "Supplier", "replace": "Vendor"},
    "replaceRange": {"range": RANGE, "replace": "Vendor"},
    "commentOnRange": {"range": RANGE, "comment": "Is this defined?"},
    "formatRange": {"range": RANGE, "formatting": {"bold": True}},
    "insertAfterBlock": {"blockId": B, "text": "A new clause."},
    "insertBeforeBlock": {"blockId": B, "text": "", "hardPageBreak": {"clear": "all"}},
    "replaceBlock": {"blockId": B, "text": "The whole clause, rewritten.", "styleId": None},
    "deleteBlock": {"blockId": B, "moveId": "m1"},
    "splitBlock": {"blockId": B, "offset": 3},
    "mergeBlockWithNext": {"blockId": B, "separator": " "},
    "setBlockParagraphProperties": {"blockId": B, "properties": {"alignment": "center"}},
    "insertTable": {"blockId": B, "rows": [["Party", "Role"], ["Acme", "Supplier"]], "position": "before"},
    "deleteTable": {"blockId": B},
    "commentOnBlock": {"blockId": B, "comment": "Check the cap.", "quote": "cap"},
    "insertSignatureTable": {"blockId": B, "parties": [{"name": "Acme Ltd", "signatory": "A. Person"}]},
    "insertTableRow": {"blockId": B, "position": "after", "cellTexts": ["a", "b"]},
    "deleteTableRow": {"blockId": B},
    "insertTableColumn": {"blockId": B, "position": "before", "cellTexts": ["x"]},
    "deleteTableColumn": {"blockId": B},
    "mergeTableCells": {"blockId": B, "rowCount": 2},
    "splitTableCell": {"blockId": B},
}
ALL = SuggestChangesOptions(operation_types=contract.OPERATION_TYPES)
MINTED = re.compile(r"^op-[0-9a-f]{12}-(\d+)$")
CAP_TAIL = "over the 100,000-character limit; shorten it or split it into multiple operations."


def op(kind: str, **extra: Any) -> dict[str, Any]:
    return copy.deepcopy({"type": kind, **EXAMPLES[kind], **extra})


def parse(*operations: Any, options: Any = None, **top: Any) -> dict[str, Any]:
    return parse_suggest_changes_input({"operations": list(operations), **top}, options)


def parsed_ok(*operations: Any, options: Any = None, **top: Any) -> dict[str, Any]:
    result = parse(*operations, options=options, **top)
    assert result["ok"] is True, result
    return result


def error(*operations: Any, options: Any = None, **top: Any) -> str:
    result = parse(*operations, options=options, **top)
    assert result["ok"] is False, result
    assert set(result) == {"ok", "error"}
    return result["error"]


def schema_accepts(args: dict[str, Any], options: Any = None) -> bool:
    return Draft7Validator(suggest_changes_input_schema(options)).is_valid(args)


# ---- add_comment ------------------------------------------------------------------------------------


def test_add_comment_builds_one_comment_on_block_operation() -> None:
    result = parse_add_comment_input({"blockId": B, "text": "Is the cap mutual?"})
    assert result == {
        "ok": True,
        "operation": {
            "id": "comment-1",
            "type": "commentOnBlock",
            "blockId": B,
            "comment": {"text": "Is the cap mutual?"},
        },
    }


def test_add_comment_keeps_quote_and_precondition() -> None:
    result = parse_add_comment_input(
        {"blockId": B, "text": "Why?", "quote": "the cap", "precondition": {"blockTextHash": HASH}}
    )
    assert result["ok"] is True
    assert result["operation"] == {
        "id": "comment-1",
        "type": "commentOnBlock",
        "blockId": B,
        "comment": {"text": "Why?"},
        "quote": "the cap",
        "precondition": {"blockTextHash": HASH},
    }
    parse_batch({"version": 1, "operations": [result["operation"]]})


@pytest.mark.parametrize("args", [None, [], "text", 7, True, ["blockId", "text"]])
def test_add_comment_rejects_non_objects(args: Any) -> None:
    assert parse_add_comment_input(args) == {
        "ok": False,
        "error": "add_comment expects an object with `blockId` and `text` strings.",
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"text": "x"}, "add_comment requires a non-empty string `blockId`."),
        ({"blockId": "", "text": "x"}, "add_comment requires a non-empty string `blockId`."),
        ({"blockId": 12, "text": "x"}, "add_comment requires a non-empty string `blockId`."),
        ({}, "add_comment requires a non-empty string `blockId`."),
        ({"blockId": B}, "add_comment requires a non-empty string `text`."),
        ({"blockId": B, "text": ""}, "add_comment requires a non-empty string `text`."),
        ({"blockId": B, "text": ["x"]}, "add_comment requires a non-empty string `text`."),
        ({"blockId": B, "text": "x", "quote": 5}, "add_comment's `quote` must be a string when provided."),
        ({"blockId": B, "text": "x", "quote": None}, "add_comment's `quote` must be a string when provided."),
        (
            {"blockId": B, "text": "x", "precondition": "hj8747b"},
            "add_comment's `precondition` must be an object when provided.",
        ),
        (
            {"blockId": B, "text": "x", "precondition": None},
            "add_comment's `precondition` must be an object when provided.",
        ),
    ],
)
def test_add_comment_argument_errors(args: dict[str, Any], message: str) -> None:
    assert parse_add_comment_input(args) == {"ok": False, "error": message}


@pytest.mark.parametrize("precondition", [{}, {"blockTextHash": "XYZ"}, {"blockTextHash": 5}, {"hash": HASH}])
def test_add_comment_rejects_a_malformed_precondition_hash(precondition: dict[str, Any]) -> None:
    assert parse_add_comment_input({"blockId": B, "text": "x", "precondition": precondition}) == {
        "ok": False,
        "error": "add_comment's `precondition.blockTextHash` must be a normalized block text hash, "
        "echoed from read_document / read_section / find_text.",
    }


def test_add_comment_caps_text_and_quote() -> None:
    at_cap = "x" * 100_000
    assert parse_add_comment_input({"blockId": B, "text": at_cap, "quote": at_cap})["ok"] is True
    assert parse_add_comment_input({"blockId": B, "text": at_cap + "x"}) == {
        "ok": False,
        "error": f"add_comment's `text` is 100,001 characters, {CAP_TAIL}",
    }
    assert parse_add_comment_input({"blockId": B, "text": "x", "quote": "q" * 123_456}) == {
        "ok": False,
        "error": f"add_comment's `quote` is 123,456 characters, {CAP_TAIL}",
    }


def test_add_comment_ignores_unknown_arguments_and_sanitizes_text() -> None:
    result = parse_add_comment_input({"blockId": B, "text": "a\x00b", "severity": "high"})
    assert result["ok"] is True
    assert result["operation"]["comment"] == {"text": "ab"}
    assert "severity" not in result["operation"]


# ---- suggest_changes: operations as the model writes them --------------------------------------------


def test_range_operations_keep_the_range() -> None:
    result = parsed_ok(op("commentOnRange"), op("replaceRange"))
    first, second = result["operations"]
    assert first["range"] == RANGE and second["range"] == RANGE
    assert first["comment"] == {"text": "Is this defined?"}
    assert second["replace"] == "Vendor"


def test_replace_in_block_gets_a_minted_id() -> None:
    (operation,) = parsed_ok(op("replaceInBlock"))["operations"]
    assert MINTED.match(operation["id"]).group(1) == "1"
    assert operation == {"id": operation["id"], "type": "replaceInBlock", **EXAMPLES["replaceInBlock"]}


def test_caller_precondition_and_id_are_kept() -> None:
    precondition = {"blockTextHash": HASH}
    (operation,) = parsed_ok(op("replaceInBlock", id="fix-1", precondition=precondition))["operations"]
    assert operation["id"] == "fix-1"
    assert operation["precondition"] == precondition


def test_a_malformed_precondition_hash_is_rejected() -> None:
    message = error(op("replaceInBlock", precondition={"blockTextHash": "NOT-A-HASH"}))
    assert message.startswith("operations[0].precondition.blockTextHash: expected a text hash")
    assert (
        error(op("deleteBlock", precondition={})) == "operations[0].precondition.blockTextHash: is required."
    )


def test_table_row_and_column_inserts_keep_position_and_cell_texts() -> None:
    row, column = parsed_ok(op("insertTableRow"), op("insertTableColumn"))["operations"]
    assert (row["position"], row["cellTexts"]) == ("after", ["a", "b"])
    assert (column["position"], column["cellTexts"]) == ("before", ["x"])


def test_an_invalid_cell_text_is_rejected() -> None:
    assert error(op("insertTableRow", cellTexts=["a", 5])) == "operations[0].cellTexts[1]: expected a string."


def test_more_than_256_cell_texts_are_rejected() -> None:
    assert (
        parsed_ok(op("insertTableColumn", cellTexts=["c"] * 256))["operations"][0]["cellTexts"] == ["c"] * 256
    )
    assert error(op("deleteBlock"), op("insertTableColumn", cellTexts=["c"] * 257)) == (
        "operations[1].cellTexts has 257 entries, over the 256-cell limit."
    )


def test_row_and_column_deletes() -> None:
    kinds = [o["type"] for o in parsed_ok(op("deleteTableRow"), op("deleteTableColumn"))["operations"]]
    assert kinds == ["deleteTableRow", "deleteTableColumn"]


@pytest.mark.parametrize("comment", ["Why?", {"text": "Why?"}])
def test_an_optional_comment_is_wrapped(comment: Any) -> None:
    (operation,) = parsed_ok(op("replaceBlock", comment=comment))["operations"]
    assert operation["comment"] == {"text": "Why?"}


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"operations": None},
        {"operations": {"type": "deleteBlock"}},
        {"operations": "deleteBlock"},
        {"operations": 3},
        None,
        [],
        "nonsense",
    ],
)
def test_missing_operations(args: Any) -> None:
    assert parse_suggest_changes_input(args) == {
        "ok": False,
        "error": "suggest_changes requires an `operations` array.",
    }


def test_empty_operations() -> None:
    assert error() == "suggest_changes' `operations` array must not be empty."


def test_over_cap_operations() -> None:
    assert len(parsed_ok(*[op("deleteBlock")] * 50)["operations"]) == 50
    assert error(*[op("deleteBlock")] * 51) == (
        "suggest_changes' `operations` array has 51 entries, over the 50-operation limit; "
        "batch it across multiple suggest_changes calls."
    )
    many = SuggestChangesOptions(max_operations=200)
    assert error(*[op("deleteBlock")] * 1234, options=many) == (
        "suggest_changes' `operations` array has 1,234 entries, over the 200-operation limit; "
        "batch it across multiple suggest_changes calls."
    )


def test_the_aggregate_two_million_character_budget() -> None:
    full = "x" * 100_000
    at_budget = [op("replaceBlock", text=full) for _ in range(20)]
    assert len(parsed_ok(*at_budget)["operations"]) == 20
    assert error(*at_budget, op("replaceInBlock", find="a", replace="b")) == (
        "operations[20] pushes suggest_changes' combined text over the 2,000,000-character aggregate limit "
        "across all operations; split the edit across multiple suggest_changes calls."
    )
    # comments and cell texts count too
    split = [op("replaceBlock", text="x" * 99_999, comment="y") for _ in range(20)]
    assert parsed_ok(*split)["ok"] is True
    assert error(*split, op("insertTableRow", cellTexts=["z"])).startswith("operations[20] pushes")


def test_an_unknown_type() -> None:
    allowed = ", ".join(contract.DEFAULT_SUGGEST_CHANGES_TYPES)
    for bad in ({"type": "rewriteEverything", "blockId": B}, {"blockId": B}, {"type": 3}, {"kind": 3}):
        assert error(op("deleteBlock"), bad) == f"operations[1].type must be one of {allowed}."
    # commentOnBlock is a contract type, but not on the default surface (the model uses add_comment)
    assert error(op("commentOnBlock")) == f"operations[0].type must be one of {allowed}."


@pytest.mark.parametrize("missing", ["find", "replace", "blockId"])
def test_a_missing_required_field(missing: str) -> None:
    operation = {k: v for k, v in op("replaceInBlock").items() if k != missing}
    assert error(operation) == f"operations[0].{missing}: is required."


def test_a_wrongly_typed_field_is_named_by_path() -> None:
    assert error(op("replaceInBlock", find=7)) == "operations[0].find: expected a string."


@pytest.mark.parametrize(
    ("kind", "label", "extra"),
    [
        ("replaceInBlock", "find", {}),
        ("replaceInBlock", "replace", {}),
        ("insertAfterBlock", "text", {}),
        ("commentOnBlock", "quote", {}),
        ("replaceBlock", "styleId", {}),
        ("deleteBlock", "area", {}),
        ("deleteBlock", "comment", {}),
        ("commentOnRange", "comment.text", {}),
        ("insertTableRow", "cellTexts[1]", {}),
        ("insertTable", "rows[1][0]", {}),
        ("insertSignatureTable", "parties[0].name", {}),
        (
            "insertSignatureTable",
            "parties[1].title",
            {"parties": [{"name": "A"}, {"name": "B", "title": ""}]},
        ),
    ],
)
def test_per_field_caps(kind: str, label: str, extra: dict[str, Any]) -> None:
    def with_text(length: int) -> dict[str, Any]:
        operation = op(kind, **extra)
        text = "x" * length
        if label == "comment.text":
            operation["comment"] = {"text": text}
        elif label.startswith("cellTexts"):
            operation["cellTexts"] = ["a", text]
        elif label.startswith("rows"):
            operation["rows"] = [["a", "b"], [text, "c"]]
        elif label.startswith("parties"):
            operation["parties"][int(label[8])][label.split(".")[1]] = text
        else:
            operation[label] = text
        return operation

    assert (
        error(with_text(100_001), options=ALL) == f"operations[0].{label} is 100,001 characters, {CAP_TAIL}"
    )
    assert parse_suggest_changes_input({"operations": [with_text(100_000)]}, ALL)["ok"] is True


def test_caps_are_checked_before_the_strict_contract() -> None:
    # a capped field is refused for its length even when another field is also wrong
    assert error(op("replaceInBlock", find="x" * 100_001, replace=5)).startswith(
        "operations[0].find is 100,001 characters"
    )


@pytest.mark.parametrize("kind", contract.DEFAULT_SUGGEST_CHANGES_TYPES)
def test_every_advertised_type_is_accepted(kind: str) -> None:
    args = {"operations": [op(kind)]}
    assert schema_accepts(args)
    result = parse_suggest_changes_input(args)
    assert result["ok"] is True, result
    assert result["normalizations"] == []
    assert result["operations"][0]["type"] == kind


@pytest.mark.parametrize("kind", contract.OPERATION_TYPES)
def test_every_contract_type_is_accepted_when_offered(kind: str) -> None:
    args = {"operations": [op(kind)]}
    assert schema_accepts(args, ALL)
    result = parse_suggest_changes_input(args, ALL)
    assert result["ok"] is True, result
    parse_batch({"version": 1, "operations": result["operations"]})


def test_merge_by_row_count_or_end_block_but_not_both() -> None:
    by_rows = parsed_ok(op("mergeTableCells"))["operations"][0]
    assert by_rows["rowCount"] == 2
    by_corner = {"type": "mergeTableCells", "blockId": B, "endBlockId": "00AB12CE"}
    assert parsed_ok(by_corner)["operations"][0]["endBlockId"] == "00AB12CE"
    assert error(op("mergeTableCells", endBlockId="00AB12CE")) == (
        'operations[0]: expected exactly one of "endBlockId" or "rowCount".'
    )
    assert error(op("mergeTableCells", rowCount=1)) == "operations[0].rowCount: expected an integer >= 2."


def test_hard_page_break_rules_in_parser_and_schema() -> None:
    ok = {"operations": [op("insertBeforeBlock")]}
    assert schema_accepts(ok) and parse_suggest_changes_input(ok)["ok"] is True
    with_text = {"operations": [op("insertBeforeBlock", text="Words")]}
    assert not schema_accepts(with_text)
    assert error(*with_text["operations"]) == (
        'operations[0].hardPageBreak: omit hardPageBreak to insert text, or set text to "" to insert a '
        "hard page break."
    )
    with_flag = {"operations": [op("insertBeforeBlock", pageBreakBefore=True)]}
    assert not schema_accepts(with_flag)
    assert error(*with_flag["operations"]) == (
        "operations[0].hardPageBreak: cannot combine hardPageBreak with pageBreakBefore."
    )
    with_mode = {"operations": [op("insertBeforeBlock", lineBreakMode="inline")]}
    assert not schema_accepts(with_mode)
    assert error(*with_mode["operations"]).endswith("cannot combine hardPageBreak with lineBreakMode.")


def test_the_returned_operations_are_what_the_strict_contract_parses() -> None:
    operations = [op(k, id=f"id-{i}") for i, k in enumerate(contract.DEFAULT_SUGGEST_CHANGES_TYPES)]
    result = parsed_ok(*operations)
    batch = parse_batch({"version": 1, "operations": result["operations"]})
    assert [o.to_dict() for o in batch.operations] == result["operations"]


def test_strings_are_sanitized_and_colors_normalized_like_the_contract() -> None:
    (fmt, text) = parsed_ok(
        op("formatRange", formatting={"color": "1f4e79"}), op("replaceBlock", text="a\x07b")
    )["operations"]
    assert fmt["formatting"] == {"color": "#1F4E79"}
    assert text["text"] == "ab"


# ---- never raises -------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=20,
)
KEYS = st.sampled_from(
    ["type", "kind", "id", *sorted({k for keys in contract.KEYS_BY_TYPE.values() for k in keys})]
)
VALUES = st.one_of(
    JSON,
    st.sampled_from([B, "", HASH, RANGE, {"text": "c"}, {"blockTextHash": HASH}, ["a", "b"], [["a"]], 0, 2]),
)
#: Operation-shaped objects: a real type most of the time, keys the contract knows, any values.
OPERATIONS = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(contract.OPERATION_TYPES)}, optional={"id": VALUES}
    ).flatmap(lambda base: st.dictionaries(KEYS, VALUES, max_size=6).map(lambda extra: {**extra, **base})),
    st.builds(lambda kind: op(kind), st.sampled_from(contract.OPERATION_TYPES)),
    JSON,
)
_ARG_OBJECTS = st.fixed_dictionaries(
    {"operations": st.lists(OPERATIONS, max_size=4)},
    optional={"documentVersion": JSON, "extra": JSON},
)
ARGS = st.one_of(
    JSON,
    _ARG_OBJECTS,
    _ARG_OBJECTS.map(json.dumps),  # arguments sent as a JSON string
    st.fixed_dictionaries({"operations": st.lists(OPERATIONS, max_size=3).map(json.dumps)}),
    st.fixed_dictionaries({"operations": st.lists(OPERATIONS.map(json.dumps), max_size=3)}),
)
OPTIONS = st.sampled_from([None, ALL, SuggestChangesOptions(review_meta="required", document_version="v1")])


def check_result(result: dict[str, Any], key: str) -> None:
    if result["ok"]:
        operations = result[key] if key == "operations" else [result[key]]
        parse_batch({"version": 1, "operations": operations})
    else:
        assert set(result) == {"ok", "error"}
        assert isinstance(result["error"], str) and result["error"].strip()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=ARGS, options=OPTIONS)
def test_suggest_changes_parser_never_raises(args: Any, options: Any) -> None:
    result = parse_suggest_changes_input(args, options)
    check_result(result, "operations")
    if result["ok"]:
        assert all(isinstance(n["path"], str) and n["message"] for n in result["normalizations"])


@settings(max_examples=300, deadline=None)
@given(
    args=st.one_of(
        JSON,
        st.fixed_dictionaries(
            {"blockId": VALUES, "text": VALUES}, optional={"quote": VALUES, "precondition": VALUES}
        ),
    )
)
def test_add_comment_parser_never_raises(args: Any) -> None:
    check_result(parse_add_comment_input(args), "operation")

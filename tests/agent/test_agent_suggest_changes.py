"""Contract §5.1-5.3 and §11 suggest-changes-options.test: host options, generated schema, capability
text, and how the parser enforces the options and decodes leniently."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from jsonschema import Draft7Validator

from reviewer_app.agent import suggest_changes as sc
from reviewer_app.agent.suggest_changes import (
    InvalidSuggestChangesOptionsError,
    ResolvedOptions,
    SuggestChangesOptions,
    describe_suggest_changes_capabilities,
    parse_suggest_changes_input,
    resolve_options,
    suggest_changes_input_schema,
)
from reviewer_app.docx.edit import contract

B = "00AB12CD"
DELETE = {"type": "deleteBlock", "blockId": B}
REPLACE = {"type": "replaceInBlock", "blockId": B, "find": "a", "replace": "b"}
DEFAULT_TYPES = tuple(
    t for t in contract.OPERATION_TYPES if t not in ("commentOnBlock", "insertSignatureTable")
)


def items(options: Any = None) -> dict[str, Any]:
    return suggest_changes_input_schema(options)["properties"]["operations"]["items"]


def expected_keys(types: tuple[str, ...]) -> set[str]:
    """Straight from the contract table: the union of the types' keys, minus host-only ones, plus id/type."""
    keys = {key for t in types for key in contract.KEYS_BY_TYPE[t]}
    return keys - {"suggestionId"} | {"id", "type"}


def ok(args: Any, options: Any = None) -> dict[str, Any]:
    result = parse_suggest_changes_input(args, options)
    assert result["ok"] is True, result
    return result


def fails(args: Any, options: Any = None) -> str:
    result = parse_suggest_changes_input(args, options)
    assert result["ok"] is False, result
    return result["error"]


# ---- options ----------------------------------------------------------------------------------------


def test_defaults() -> None:
    resolved = resolve_options()
    assert resolved == ResolvedOptions(DEFAULT_TYPES, "optional", 50, None)
    assert len(resolved.operation_types) == 19
    assert resolved.operation_types == contract.DEFAULT_SUGGEST_CHANGES_TYPES
    assert resolve_options(SuggestChangesOptions()) == resolved
    assert resolve_options({}) == resolved
    assert resolve_options(resolved) == resolved


def test_types_are_deduplicated_and_put_in_contract_order() -> None:
    options = SuggestChangesOptions(operation_types=("deleteBlock", "replaceInBlock", "deleteBlock"))
    assert resolve_options(options).operation_types == ("replaceInBlock", "deleteBlock")
    from_list = SuggestChangesOptions(operation_types=["splitTableCell", "replaceRange"])  # type: ignore[arg-type]
    assert from_list.operation_types == ("splitTableCell", "replaceRange")
    assert hash(from_list)  # frozen and hashable
    assert resolve_options(from_list).operation_types == ("replaceRange", "splitTableCell")
    assert resolve_options({"operation_types": {"deleteTable", "insertTable"}}).operation_types == (
        "insertTable",
        "deleteTable",
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            SuggestChangesOptions(operation_types=()),
            "Invalid suggest_changes option `operation_types`: must name at least one operation type.",
        ),
        (
            SuggestChangesOptions(operation_types=("replaceInBlock", "rewriteEverything")),
            "Invalid suggest_changes option `operation_types`: 'rewriteEverything' is not a document "
            "operation type.",
        ),
        (
            {"operation_types": "replaceInBlock"},
            "Invalid suggest_changes option `operation_types`: expected a sequence of operation types.",
        ),
        (
            SuggestChangesOptions(max_operations=0),
            "Invalid suggest_changes option `max_operations`: must be an integer from 1 to 200.",
        ),
        (
            SuggestChangesOptions(max_operations=201),
            "Invalid suggest_changes option `max_operations`: must be an integer from 1 to 200.",
        ),
        (
            SuggestChangesOptions(max_operations=2.5),  # type: ignore[arg-type]
            "Invalid suggest_changes option `max_operations`: must be an integer from 1 to 200.",
        ),
        (
            SuggestChangesOptions(max_operations=True),
            "Invalid suggest_changes option `max_operations`: must be an integer from 1 to 200.",
        ),
        (
            SuggestChangesOptions(document_version=""),
            "Invalid suggest_changes option `document_version`: must be a non-empty string when provided.",
        ),
        (
            SuggestChangesOptions(document_version=7),  # type: ignore[arg-type]
            "Invalid suggest_changes option `document_version`: must be a non-empty string when provided.",
        ),
        (
            SuggestChangesOptions(review_meta="sometimes"),  # type: ignore[arg-type]
            'Invalid suggest_changes option `review_meta`: must be "optional" or "required".',
        ),
        (
            {"maxOperations": 5},
            "Invalid suggest_changes option `maxOperations`: is not a suggest_changes option.",
        ),
        (
            "replaceInBlock",
            "Invalid suggest_changes option `options`: expected SuggestChangesOptions or None.",
        ),
    ],
)
def test_invalid_options_raise_everywhere(options: Any, message: str) -> None:
    for use in (
        resolve_options,
        suggest_changes_input_schema,
        describe_suggest_changes_capabilities,
        lambda o: parse_suggest_changes_input({"operations": [DELETE]}, o),
    ):
        with pytest.raises(InvalidSuggestChangesOptionsError) as raised:
            use(options)
        assert str(raised.value) == message


def test_the_error_names_the_option() -> None:
    with pytest.raises(InvalidSuggestChangesOptionsError) as raised:
        resolve_options(SuggestChangesOptions(max_operations=0))
    assert raised.value.option == "max_operations"
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize("limit", [1, 2, 50, 200])
def test_valid_limits(limit: int) -> None:
    assert resolve_options(SuggestChangesOptions(max_operations=limit)).max_operations == limit


# ---- the generated schema follows the contract table ------------------------------------------------


def check_schema_follows_table(types: tuple[str, ...], options: SuggestChangesOptions) -> None:
    schema = suggest_changes_input_schema(options)
    Draft7Validator.check_schema(schema)
    item = schema["properties"]["operations"]["items"]
    assert set(item["properties"]) == expected_keys(types)
    assert list(item["properties"])[:2] == ["type", "id"]
    assert item["properties"]["type"]["enum"] == list(types)
    assert item["additionalProperties"] is False
    assert item["required"] == ["type"]
    # the type description: one line per allowed type with its summary, none for the others
    lines = item["properties"]["type"]["description"].split("\n")
    assert lines[0] == "The operation to perform, with the keys it requires:"
    assert len(lines) == len(types) + 1
    for line, kind in zip(lines[1:], types, strict=True):
        assert line.startswith(f"- {kind} (")
        assert line.endswith(f"): {contract.SUMMARY_BY_TYPE[kind]}")
        for key in contract.REQUIRED_KEYS_BY_TYPE[kind]:
            assert key in line
    # each key's schema is the contract's fragment (comment: a plain string), with a note of its users
    for key, prop in item["properties"].items():
        if key in ("type", "id"):
            continue
        if key == "comment":
            assert prop["type"] == "string"
        else:
            fragment = sc.conservative(contract.key_json_schema(key))
            assert {k: v for k, v in prop.items() if k != "description"} == {
                k: v for k, v in fragment.items() if k != "description"
            }
        users = [t for t in types if key in contract.KEYS_BY_TYPE[t]]
        if len(users) < len(types):
            assert prop["description"].endswith(".") and ("For " in prop["description"])
            for user in users if len(users) <= len(types) - len(users) else set(types) - set(users):
                assert user in prop["description"]
    # the hardPageBreak rule exactly when an allowed type takes hardPageBreak
    inserts = [t for t in types if "hardPageBreak" in contract.KEYS_BY_TYPE[t]]
    assert ("oneOf" in item) == bool(inserts)
    if inserts:
        assert item["oneOf"][1]["properties"]["type"]["enum"] == inserts
    # the capability text names exactly these types
    text = describe_suggest_changes_capabilities(options)
    assert text.split("\n")[0] == f"Supported operations: {', '.join(types)}."
    assert ("cannot change run formatting" in text) == ("formatRange" not in types)
    assert ("insertSignatureTable adds a signature table" in text) == ("insertSignatureTable" in types)
    assert ("256 cellTexts" in text) == any("cellTexts" in contract.KEYS_BY_TYPE[t] for t in types)


@pytest.mark.parametrize("kind", contract.OPERATION_TYPES)
def test_schema_for_every_single_type(kind: str) -> None:
    check_schema_follows_table((kind,), SuggestChangesOptions(operation_types=(kind,)))


def test_schema_for_all_types_and_the_default() -> None:
    check_schema_follows_table(
        contract.OPERATION_TYPES, SuggestChangesOptions(operation_types=contract.OPERATION_TYPES)
    )
    check_schema_follows_table(DEFAULT_TYPES, SuggestChangesOptions())
    assert suggest_changes_input_schema() == suggest_changes_input_schema(SuggestChangesOptions())
    assert (
        "suggestionId"
        not in items(SuggestChangesOptions(operation_types=contract.OPERATION_TYPES))["properties"]
    )


@pytest.mark.parametrize("seed", range(20))
def test_schema_for_seeded_random_subsets(seed: int) -> None:
    rng = random.Random(seed)
    chosen = rng.sample(contract.OPERATION_TYPES, rng.randint(1, len(contract.OPERATION_TYPES)))
    chosen += rng.choices(chosen, k=rng.randint(0, 3))  # duplicates, in shuffled order
    types = tuple(t for t in contract.OPERATION_TYPES if t in chosen)
    check_schema_follows_table(types, SuggestChangesOptions(operation_types=tuple(chosen)))


def test_required_review_meta() -> None:
    options = SuggestChangesOptions(review_meta="required")
    assert items(options)["required"] == ["type", "severity", "area"]
    assert items()["required"] == ["type"]
    assert "Review metadata is required" in describe_suggest_changes_capabilities(options)
    assert "Review metadata is optional" in describe_suggest_changes_capabilities()


def test_version_pin_adds_an_enum_and_requires_it() -> None:
    schema = suggest_changes_input_schema(SuggestChangesOptions(document_version="v7"))
    assert schema["properties"]["documentVersion"]["type"] == "string"
    assert schema["properties"]["documentVersion"]["enum"] == ["v7"]
    assert set(schema["required"]) == {"operations", "documentVersion"}
    unpinned = suggest_changes_input_schema()
    assert "documentVersion" not in unpinned["properties"]
    assert unpinned["required"] == ["operations"]
    assert "Document version:" in describe_suggest_changes_capabilities(
        SuggestChangesOptions(document_version="v7")
    )
    assert "Document version:" not in describe_suggest_changes_capabilities()


def test_max_items_follows_max_operations() -> None:
    for limit in (1, 7, 200):
        operations = suggest_changes_input_schema(SuggestChangesOptions(max_operations=limit))["properties"][
            "operations"
        ]
        assert (operations["type"], operations["minItems"], operations["maxItems"]) == ("array", 1, limit)
    assert "at most 7 operations per call" in describe_suggest_changes_capabilities(
        SuggestChangesOptions(max_operations=7)
    )


def test_the_schema_is_fresh_on_every_call() -> None:
    first = suggest_changes_input_schema()
    first["properties"]["operations"]["items"]["properties"].clear()
    assert items()["properties"]


def test_default_capability_text() -> None:
    assert describe_suggest_changes_capabilities() == "\n".join(
        [
            f"Supported operations: {', '.join(DEFAULT_TYPES)}.",
            "Structural edits: pageBreakBefore: true starts an inserted paragraph on a new page; styleId on "
            "insertAfterBlock, insertBeforeBlock and replaceBlock applies a paragraph style the document "
            "defines (null clears it); insertAfterBlock and insertBeforeBlock accept direct alignment, spacing "
            "and indentation (null restores what the style gives). Text you supply is written literally: never "
            "put markdown or directive markers in it.",
            "Limits: at most 50 operations per call; at most 100,000 characters per text field and 2,000,000 "
            "per call; at most 256 cellTexts per operation.",
            'Review metadata is optional: an operation may carry severity ("low", "medium" or "high") and area '
            '(a short review area label such as "Liability").',
        ]
    )


def test_narrow_capability_text() -> None:
    options = SuggestChangesOptions(
        operation_types=("deleteTableRow", "insertSignatureTable"),
        review_meta="required",
        max_operations=200,
        document_version="v1",
    )
    assert describe_suggest_changes_capabilities(options).split("\n") == [
        "Supported operations: insertSignatureTable, deleteTableRow.",
        "Text you supply is written literally: never put markdown or directive markers in it.",
        "insertSignatureTable adds a signature table for the named parties; it cannot be recorded as a "
        "tracked change, so it is skipped wherever edits are tracked.",
        "This surface cannot change run formatting (bold, italic, underline, font, size or color); tell the "
        "user instead of attempting it.",
        "Limits: at most 200 operations per call; at most 100,000 characters per text field and 2,000,000 per "
        "call.",
        'Review metadata is required: every operation must carry severity ("low", "medium" or "high") and a '
        'non-empty area (a short review area label such as "Liability").',
        "Document version: set documentVersion to the value the schema gives; if the document has changed "
        "since, nothing is applied and you must re-read it and redo the edits.",
    ]
    only_rows = SuggestChangesOptions(operation_types=("deleteTableRow",))
    assert "Structural edits" not in describe_suggest_changes_capabilities(only_rows)
    assert "written literally" not in describe_suggest_changes_capabilities(only_rows)


# ---- the parser enforces the options ----------------------------------------------------------------


def test_the_parser_enforces_the_type_subset() -> None:
    options = SuggestChangesOptions(operation_types=("deleteBlock", "replaceInBlock"))
    assert ok({"operations": [DELETE, REPLACE]}, options)
    assert fails({"operations": [DELETE, {**REPLACE, "type": "replaceBlock", "text": "x"}]}, options) == (
        "operations[1].type must be one of replaceInBlock, deleteBlock."
    )


def test_required_review_meta_is_enforced() -> None:
    options = SuggestChangesOptions(review_meta="required")
    assert fails({"operations": [{**DELETE, "area": "Term"}]}, options) == (
        'operations[0].severity is required on this surface ("low", "medium", or "high").'
    )
    assert fails({"operations": [{**DELETE, "area": "Term", "severity": None}]}, options).startswith(
        "operations[0].severity is required"
    )
    for area in (None, "", "   "):
        meta = {"severity": "high"} if area is None else {"severity": "high", "area": area}
        assert fails(
            {"operations": [{**DELETE, "severity": "low", "area": "x"}, {**DELETE, **meta}]}, options
        ) == ("operations[1].area is required on this surface: a short review area label.")
    assert fails({"operations": [{**DELETE, "severity": "urgent", "area": "Term"}]}, options) == (
        'operations[0].severity: expected one of "low", "medium", "high".'
    )
    (operation,) = ok({"operations": [{**DELETE, "severity": "medium", "area": "Term"}]}, options)[
        "operations"
    ]
    assert (operation["severity"], operation["area"]) == ("medium", "Term")


def test_review_meta_passes_through_when_optional() -> None:
    (operation,) = ok({"operations": [{**REPLACE, "severity": "low", "area": "Payment"}]})["operations"]
    assert (operation["severity"], operation["area"]) == ("low", "Payment")
    assert "severity" not in ok({"operations": [REPLACE]})["operations"][0]


def test_max_operations_message() -> None:
    options = SuggestChangesOptions(max_operations=2)
    assert len(ok({"operations": [DELETE, DELETE]}, options)["operations"]) == 2
    assert fails({"operations": [DELETE] * 3}, options) == (
        "suggest_changes' `operations` array has 3 entries, over the 2-operation limit; "
        "batch it across multiple suggest_changes calls."
    )


def test_a_pinned_version_is_required_and_becomes_the_batch_precondition() -> None:
    options = SuggestChangesOptions(document_version="v7")
    required = (
        "suggest_changes requires `documentVersion`: copy the current document version from the tool schema."
    )
    for version in ({}, {"documentVersion": ""}, {"documentVersion": 7}, {"documentVersion": None}):
        assert fails({"operations": [DELETE], **version}, options) == required
    result = ok({"operations": [DELETE], "documentVersion": "v7"}, options)
    assert result["precondition"] == {"documentVersion": "v7"}
    assert result["normalizations"] == []
    # a different version is the model's claim; the executor compares it with the live one
    assert ok({"operations": [DELETE], "documentVersion": "v6"}, options)["precondition"] == {
        "documentVersion": "v6"
    }


def test_a_version_on_an_unpinned_surface_is_ignored_with_a_normalization() -> None:
    result = ok({"operations": [DELETE], "documentVersion": "v7"})
    assert "precondition" not in result
    assert result["normalizations"] == [
        {
            "path": "documentVersion",
            "message": "`documentVersion` is not pinned on this surface and was ignored",
        }
    ]


# ---- lenient decoding -------------------------------------------------------------------------------


def test_a_clean_call_has_no_normalizations() -> None:
    result = ok({"operations": [REPLACE, DELETE]})
    assert result["normalizations"] == []
    assert list(result) == ["ok", "operations", "normalizations"]


def test_arguments_as_a_json_string() -> None:
    result = ok(json.dumps({"operations": [DELETE]}))
    assert result["normalizations"] == [{"path": "$", "message": "arguments were supplied as a JSON string"}]
    assert result["operations"][0]["blockId"] == B
    assert fails('{"operations": [') == "suggest_changes requires an `operations` array."
    assert fails('["not", "an", "object"]') == "suggest_changes requires an `operations` array."


def test_operations_as_a_json_string() -> None:
    result = ok({"operations": "  " + json.dumps([DELETE, REPLACE])})
    assert result["normalizations"] == [
        {"path": "operations", "message": "`operations` was supplied as a JSON string"}
    ]
    assert [o["type"] for o in result["operations"]] == ["deleteBlock", "replaceInBlock"]


def test_one_operation_as_a_json_string() -> None:
    result = ok({"operations": [DELETE, json.dumps(REPLACE)]})
    assert result["normalizations"] == [
        {"path": "operations[1]", "message": "operation was supplied as a JSON string"}
    ]
    assert fails({"operations": [DELETE, '{"type": ']}) == "operations[1] must be an object."
    assert fails({"operations": [DELETE, 7]}) == "operations[1] must be an object."
    # NaN is not JSON, although Python's json module would read it
    not_json = '{"type": "deleteBlock", "blockId": NaN}'
    assert fails({"operations": [not_json]}) == "operations[0] must be an object."


def test_kind_is_read_as_type() -> None:
    operation = {k: v for k, v in REPLACE.items() if k != "type"} | {"kind": "replaceInBlock"}
    result = ok({"operations": [operation]})
    assert result["normalizations"] == [
        {"path": "operations[0].kind", "message": "`kind` was read as `type`"}
    ]
    assert result["operations"][0]["type"] == "replaceInBlock"
    assert "kind" not in result["operations"][0]
    # with a type present, kind is just a key deleteBlock does not take
    result = ok({"operations": [{**DELETE, "kind": "replaceInBlock"}]})
    assert result["normalizations"] == [
        {"path": "operations[0].kind", "message": "`kind` does not apply to deleteBlock and was ignored"}
    ]


def test_unknown_top_level_keys_are_ignored() -> None:
    result = ok({"explanation": "tidy", "operations": [DELETE], "dry run": True})
    assert result["normalizations"] == [
        {"path": "explanation", "message": "unknown argument `explanation` was ignored"},
        {"path": '["dry run"]', "message": "unknown argument `dry run` was ignored"},
    ]


def test_inapplicable_keys_are_dropped() -> None:
    result = ok({"operations": [DELETE, {**REPLACE, "text": "x", "rows": [], "suggestionId": "s1"}]})
    assert result["normalizations"] == [
        {"path": "operations[1].text", "message": "`text` does not apply to replaceInBlock and was ignored"},
        {"path": "operations[1].rows", "message": "`rows` does not apply to replaceInBlock and was ignored"},
        {
            "path": "operations[1].suggestionId",
            "message": "`suggestionId` does not apply to replaceInBlock and was ignored",
        },
    ]
    assert set(result["operations"][1]) == {"id", "type", "blockId", "find", "replace"}


def test_normalizations_come_in_order() -> None:
    args = json.dumps(
        {
            "note": 1,
            "documentVersion": "v1",
            "operations": json.dumps([json.dumps({"kind": "deleteBlock", "blockId": B, "find": "x"})]),
        }
    )
    assert [n["path"] for n in ok(args)["normalizations"]] == [
        "$",
        "note",
        "documentVersion",
        "operations",
        "operations[0]",
        "operations[0].kind",
        "operations[0].find",
    ]


# ---- ids --------------------------------------------------------------------------------------------


def test_minted_ids_differ_across_calls_and_share_a_nonce_within_one() -> None:
    first = [o["id"] for o in ok({"operations": [DELETE, DELETE]})["operations"]]
    second = [o["id"] for o in ok({"operations": [DELETE, DELETE]})["operations"]]
    assert not set(first) & set(second)
    nonce = first[0].split("-")[1]
    assert first == [f"op-{nonce}-1", f"op-{nonce}-2"]


def test_caller_ids_are_kept_beside_minted_ones() -> None:
    ids = [o["id"] for o in ok({"operations": [{**DELETE, "id": "keep-me"}, DELETE]})["operations"]]
    assert ids[0] == "keep-me"
    assert ids[1].startswith("op-") and ids[1].endswith("-2")


def test_duplicate_ids_are_rejected() -> None:
    assert fails({"operations": [{**DELETE, "id": "x"}, {**REPLACE, "id": "x"}]}) == (
        "operations[1].id: expected a unique operation id."
    )


@pytest.mark.parametrize("bad", ["", 5, None, ["x"]])
def test_a_supplied_id_must_be_a_non_empty_string(bad: Any) -> None:
    assert fails({"operations": [DELETE, {**DELETE, "id": bad}]}) == (
        "operations[1].id must be a non-empty string when provided."
    )


def test_a_minted_id_never_collides_with_a_supplied_one(monkeypatch: pytest.MonkeyPatch) -> None:
    nonces = iter(["aaaaaaaaaaaa", "bbbbbbbbbbbb"])
    monkeypatch.setattr(sc, "new_nonce", lambda: next(nonces))
    ids = [o["id"] for o in ok({"operations": [{**DELETE, "id": "op-aaaaaaaaaaaa-2"}, DELETE]})["operations"]]
    assert ids == ["op-aaaaaaaaaaaa-2", "op-bbbbbbbbbbbb-2"]


# ---- the examples in this file fit the schema they were parsed under --------------------------------


@pytest.mark.parametrize(
    ("args", "options"),
    [
        ({"operations": [DELETE, REPLACE]}, None),
        (
            {"operations": [{**DELETE, "severity": "high", "area": "Term"}]},
            SuggestChangesOptions(review_meta="required"),
        ),
        ({"operations": [DELETE], "documentVersion": "v7"}, SuggestChangesOptions(document_version="v7")),
        (
            {"operations": [DELETE, REPLACE]},
            SuggestChangesOptions(operation_types=("deleteBlock", "replaceInBlock")),
        ),
    ],
)
def test_accepted_examples_validate_against_the_schema(args: dict[str, Any], options: Any) -> None:
    assert Draft7Validator(suggest_changes_input_schema(options)).is_valid(args)
    assert ok(args, options)


@pytest.mark.parametrize(
    ("args", "options"),
    [
        ({"operations": [DELETE]}, SuggestChangesOptions(review_meta="required")),
        ({"operations": [DELETE]}, SuggestChangesOptions(document_version="v7")),
        ({"operations": [DELETE] * 3}, SuggestChangesOptions(max_operations=2)),
        ({"operations": [REPLACE]}, SuggestChangesOptions(operation_types=("deleteBlock",))),
        ({"operations": []}, None),
    ],
)
def test_refused_examples_fail_the_schema_too(args: dict[str, Any], options: Any) -> None:
    assert not Draft7Validator(suggest_changes_input_schema(options)).is_valid(args)
    assert fails(args, options)

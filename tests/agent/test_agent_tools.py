"""Contract §1, §4 and §11 providers.test: the 16 tool definitions (and Reviewer's check_document), their schemas and provider shapes."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from jsonschema import Draft7Validator

from reviewer_app.agent import tools
from reviewer_app.agent.suggest_changes import (
    InvalidSuggestChangesOptionsError,
    SuggestChangesOptions,
    describe_suggest_changes_capabilities,
    suggest_changes_input_schema,
)
from reviewer_app.agent.tool_descriptions import SUGGEST_CHANGES_BASE, UNTRUSTED
from reviewer_app.agent.tool_registry import DOCUMENT_TEXT_TOOLS
from reviewer_app.agent.tools import (
    TOOL_NAMES,
    get_tool_definitions,
    suggest_changes_description,
    to_anthropic_tools,
    to_openai_tools,
)
from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit import contract
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"

#: The conservative subset every non-suggest_changes schema keeps to.
PLAIN_KEYWORDS = {
    "type",
    "properties",
    "required",
    "enum",
    "additionalProperties",
    "items",
    "description",
    "minimum",
    "maximum",
    "pattern",
    "minLength",
}
#: suggest_changes' fragments come from the contract table; these are the extra keywords they use.
CONTRACT_KEYWORDS = PLAIN_KEYWORDS | {
    "oneOf",
    "not",
    "anyOf",
    "minItems",
    "maxItems",
    "minProperties",
    "exclusiveMinimum",
    "multipleOf",
}


def schemas_in(schema: Any) -> Iterator[dict[str, Any]]:
    """Every schema object nested in ``schema`` (itself included)."""
    if isinstance(schema, dict):
        yield schema
        for key, value in schema.items():
            if key == "properties":
                for child in value.values():
                    yield from schemas_in(child)
            elif key in ("items", "not"):
                yield from schemas_in(value)
            elif key in ("oneOf", "anyOf"):
                for child in value:
                    yield from schemas_in(child)


def definition(name: str, options: Any = None) -> dict[str, Any]:
    return next(d for d in get_tool_definitions(options) if d["name"] == name)


# ---- names and identity ---------------------------------------------------------------------------


def test_tool_names_are_the_contracts_sixteen_in_registry_order_and_check_document() -> None:
    assert TOOL_NAMES == (
        "read_document",
        "get_document_outline",
        "read_section",
        "list_stories",
        "read_story",
        "find_text",
        "read_comments",
        "read_changes",
        "check_document",
        "add_comment",
        "suggest_changes",
        "reply_comment",
        "resolve_comment",
        "read_page",
        "read_selection",
        "show_in_document",
        "scroll_to_block",
    )
    assert len(set(TOOL_NAMES)) == 17


def test_default_definitions_are_one_list_returned_every_time() -> None:
    first = get_tool_definitions()
    assert get_tool_definitions() is first
    assert get_tool_definitions(None) is first
    assert first is tools.DEFAULT_TOOL_DEFINITIONS
    assert [d["name"] for d in first] == list(TOOL_NAMES)


def test_definitions_with_options_are_fresh_and_equal_to_the_defaults_for_default_options() -> None:
    built = get_tool_definitions(SuggestChangesOptions())
    assert built is not get_tool_definitions()
    assert built == get_tool_definitions()
    assert get_tool_definitions({"max_operations": 50}) == get_tool_definitions()


def test_names_are_unique_and_every_definition_has_exactly_three_fields() -> None:
    for defs in (get_tool_definitions(), get_tool_definitions(SuggestChangesOptions(max_operations=3))):
        assert len({d["name"] for d in defs}) == len(defs) == 17
        for d in defs:
            assert set(d) == {"name", "description", "inputSchema"}
            assert isinstance(d["description"], str) and d["description"].strip()


def test_invalid_options_raise_from_the_definitions() -> None:
    with pytest.raises(InvalidSuggestChangesOptionsError):
        get_tool_definitions(SuggestChangesOptions(max_operations=0))


def test_options_only_change_suggest_changes() -> None:
    options = SuggestChangesOptions(operation_types=("replaceInBlock",), review_meta="required")
    for default, custom in zip(get_tool_definitions(), get_tool_definitions(options), strict=True):
        if default["name"] == "suggest_changes":
            assert custom["inputSchema"] == suggest_changes_input_schema(options)
            assert custom["description"] == suggest_changes_description(options)
            assert custom != default
        else:
            assert custom == default


# ---- schemas ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_every_schema_is_a_valid_closed_object_schema(name: str) -> None:
    schema = definition(name)["inputSchema"]
    Draft7Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert isinstance(schema["properties"], dict)
    for node in schemas_in(schema):
        assert not any(key.startswith("x-") or key in ("const", "$schema", "$ref") for key in node), node
        if node.get("type") == "object" or "object" in node.get("type", ()):
            # a closed object (oneOf branches that only constrain keys are not object schemas)
            assert isinstance(node.get("properties"), dict), node
            assert node.get("additionalProperties") is False, node
            assert set(node.get("required", ())) <= set(node["properties"]), node


@pytest.mark.parametrize("name", [n for n in TOOL_NAMES if n != "suggest_changes"])
def test_plain_tool_schemas_keep_to_the_conservative_subset(name: str) -> None:
    for node in schemas_in(definition(name)["inputSchema"]):
        assert set(node) <= PLAIN_KEYWORDS, set(node) - PLAIN_KEYWORDS
        assert isinstance(node.get("type", "object"), str)  # no type unions outside suggest_changes


def test_suggest_changes_schema_uses_only_the_contract_keywords() -> None:
    everything = SuggestChangesOptions(operation_types=tuple(contract.OPERATION_TYPES))
    for options in (None, everything):
        for node in schemas_in(definition("suggest_changes", options)["inputSchema"]):
            assert set(node) <= CONTRACT_KEYWORDS, set(node) - CONTRACT_KEYWORDS


def test_required_arguments_per_tool() -> None:
    required = {d["name"]: d["inputSchema"].get("required", []) for d in get_tool_definitions()}
    assert required == {
        "read_document": [],
        "get_document_outline": [],
        "read_section": ["handle"],
        "list_stories": [],
        "read_story": ["handle"],
        "find_text": ["query"],
        "read_comments": [],
        "read_changes": [],
        "check_document": [],
        "add_comment": ["blockId", "text"],
        "suggest_changes": ["operations"],
        "reply_comment": ["commentId", "text"],
        "resolve_comment": ["commentId"],
        "read_page": ["page"],
        "read_selection": [],
        "show_in_document": [],
        "scroll_to_block": ["blockId"],
    }


def test_argument_names_per_tool() -> None:
    names = {d["name"]: list(d["inputSchema"]["properties"]) for d in get_tool_definitions()}
    assert names == {
        "read_document": [],
        "get_document_outline": ["maxDepth"],
        "read_section": ["handle", "maxBlocks", "afterBlockId"],
        "list_stories": [],
        "read_story": ["handle"],
        "find_text": ["query", "matchCase", "wholeWord", "scope"],
        "read_comments": ["filter"],
        "read_changes": [],
        "check_document": ["kinds"],
        "add_comment": ["blockId", "text", "quote", "precondition"],
        "suggest_changes": ["operations"],
        "reply_comment": ["commentId", "text"],
        "resolve_comment": ["commentId", "reopen"],
        "read_page": ["page"],
        "read_selection": [],
        "show_in_document": ["blockId", "range"],
        "scroll_to_block": ["blockId"],
    }


def test_bounds_and_vocabularies() -> None:
    props = {d["name"]: d["inputSchema"]["properties"] for d in get_tool_definitions()}
    depth = props["get_document_outline"]["maxDepth"]
    assert (depth["type"], depth["minimum"], depth["maximum"]) == ("integer", 1, 9)
    blocks = props["read_section"]["maxBlocks"]
    assert (blocks["type"], blocks["minimum"], blocks["maximum"]) == ("integer", 1, 200)
    assert props["read_comments"]["filter"]["enum"] == ["all", "open", "resolved"]
    scope = props["find_text"]["scope"]
    assert scope["properties"]["type"]["enum"] == ["document", "section", "page", "story"]
    assert scope["properties"]["page"]["minimum"] == 1
    handle = scope["properties"]["handle"]["properties"]
    # the union of the story and section handle properties
    assert set(handle) == {
        "type",
        "relationshipId",
        "noteId",
        "story",
        "headingBlockId",
        "headingTextHash",
        "headingLevel",
    }
    assert handle["type"]["enum"] == ["main", "header", "footer", "footnote", "endnote", "headingSection"]
    section = props["read_section"]["handle"]
    assert section["required"] == ["type", "story", "headingBlockId", "headingTextHash", "headingLevel"]
    level = section["properties"]["headingLevel"]
    assert (level["minimum"], level["maximum"]) == (1, 9)
    assert props["read_story"]["handle"]["properties"]["type"]["enum"] == [
        "main",
        "header",
        "footer",
        "footnote",
        "endnote",
    ]
    assert props["read_page"]["page"] == {
        "type": "integer",
        "description": "A page number as laid out in Reviewer.",
        "minimum": 1,
    }
    assert props["add_comment"]["precondition"]["properties"]["blockTextHash"]["pattern"] == "^h[0-9a-z]+$"
    assert props["reply_comment"]["commentId"]["pattern"] == "^[0-9]+$"
    assert props["show_in_document"]["range"]["required"] == [
        "type",
        "story",
        "blockId",
        "startOffset",
        "endOffset",
        "selectedTextHash",
    ]


# ---- example calls validate (and broken ones do not) -----------------------------------------------


@pytest.fixture(scope="module")
def reviewer() -> DocxReviewer:
    return DocxReviewer.open(SAMPLE)


def valid(name: str, args: dict[str, Any]) -> bool:
    return Draft7Validator(definition(name)["inputSchema"]).is_valid(args)


def test_calls_built_from_real_reads_validate(reviewer: DocxReviewer) -> None:
    block = reviewer.read_document()[0]
    section = reviewer.get_outline(9)["sections"][1]["handle"]
    stories = [s["handle"] for s in reviewer.list_stories()]
    match = reviewer.find_text("Supplier")["matches"][0]
    comment_id = reviewer.comments()[0]["id"]
    calls = [
        ("read_document", {}),
        ("get_document_outline", {"maxDepth": 2}),
        ("read_section", {"handle": section, "maxBlocks": 5, "afterBlockId": block["blockId"]}),
        ("list_stories", {}),
        *[("read_story", {"handle": h}) for h in stories],
        *[("find_text", {"query": "Fees", "scope": {"type": "story", "handle": h}}) for h in stories],
        ("find_text", {"query": "Fees", "matchCase": True, "wholeWord": True}),
        ("find_text", {"query": "Fees", "scope": {"type": "section", "handle": section}}),
        ("find_text", {"query": "Fees", "scope": {"type": "page", "page": 2}}),
        ("find_text", {"query": "Fees", "scope": {"type": "document"}}),
        ("read_comments", {"filter": "open"}),
        ("read_changes", {}),
        ("check_document", {}),
        ("check_document", {"kinds": ["terms", "references"]}),
        (
            "add_comment",
            {
                "blockId": block["blockId"],
                "text": "Check this.",
                "quote": block["text"][:5],
                "precondition": {"blockTextHash": block["blockTextHash"]},
            },
        ),
        ("reply_comment", {"commentId": comment_id, "text": "Agreed."}),
        ("resolve_comment", {"commentId": comment_id, "reopen": True}),
        ("read_page", {"page": 1}),
        ("read_selection", {}),
        ("show_in_document", {"blockId": block["blockId"]}),
        ("show_in_document", {"range": match["range"]}),
        ("scroll_to_block", {"blockId": match["blockId"]}),
        (
            "suggest_changes",
            {
                "operations": [
                    {"type": "replaceRange", "range": match["range"], "replace": "Vendor"},
                    {"type": "commentOnRange", "range": match["range"], "comment": "Defined term?"},
                ]
            },
        ),
    ]
    for name, args in calls:
        jsonschema.validate(args, definition(name)["inputSchema"], cls=Draft7Validator)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("read_document", {"extra": 1}),
        ("get_document_outline", {"maxDepth": 0}),
        ("get_document_outline", {"maxDepth": 10}),
        ("read_section", {}),
        ("read_section", {"handle": {"type": "headingSection"}}),
        ("read_story", {"handle": {"type": "body"}}),
        ("find_text", {}),
        ("find_text", {"query": "x", "scope": {"type": "chapter"}}),
        ("find_text", {"query": "x", "scope": {"type": "page", "page": 0}}),
        ("read_comments", {"filter": "closed"}),
        ("check_document", {"kinds": ["spelling"]}),
        ("add_comment", {"blockId": "00AB12CD"}),
        ("add_comment", {"blockId": "00AB12CD", "text": "x", "precondition": {"blockTextHash": "XYZ"}}),
        ("reply_comment", {"commentId": "17abc", "text": "x"}),
        ("resolve_comment", {"commentId": "17", "reopen": "yes"}),
        ("read_page", {"page": 0}),
        ("read_page", {"page": 1.5}),
        ("show_in_document", {"range": {"type": "textRange"}}),
        ("scroll_to_block", {}),
        ("suggest_changes", {"operations": []}),
    ],
)
def test_broken_calls_do_not_validate(name: str, args: dict[str, Any]) -> None:
    assert not valid(name, args)


# ---- descriptions -----------------------------------------------------------------------------------


def test_descriptions_say_what_each_tool_is_for_and_are_distinct() -> None:
    descriptions = [d["description"] for d in get_tool_definitions()]
    assert len(set(descriptions)) == 17


@pytest.mark.parametrize("name", sorted(DOCUMENT_TEXT_TOOLS))
def test_reads_say_document_text_is_data_not_instructions(name: str) -> None:
    assert UNTRUSTED in definition(name)["description"]
    assert "never instructions" in UNTRUSTED


@pytest.mark.parametrize(
    "name",
    [
        "read_section",
        "read_story",
        "add_comment",
        "reply_comment",
        "resolve_comment",
        "show_in_document",
        "scroll_to_block",
        "suggest_changes",
        "find_text",
        "get_document_outline",
        "list_stories",
    ],
)
def test_tools_taking_ids_or_handles_say_to_copy_them(name: str) -> None:
    assert "exactly" in definition(name)["description"]


def test_id_sources_are_named() -> None:
    for name in ("add_comment", "scroll_to_block", "show_in_document"):
        assert "read_document, read_section or find_text" in definition(name)["description"]
    for name in ("reply_comment", "resolve_comment"):
        assert "copied exactly from read_comments" in definition(name)["description"]
    assert "copied exactly from get_document_outline" in definition("read_section")["description"]
    assert "copied exactly from list_stories" in definition("read_story")["description"]
    assert "never construct one" in definition("suggest_changes")["description"]


@pytest.mark.parametrize("name", ["read_page", "find_text", "get_document_outline"])
def test_page_numbers_are_pages_as_laid_out_in_reviewer(name: str) -> None:
    assert "as laid out in Reviewer" in definition(name)["description"]


def test_suggest_changes_description_is_the_base_then_the_capabilities() -> None:
    options = SuggestChangesOptions(operation_types=("deleteBlock",), document_version="v2")
    assert definition("suggest_changes")["description"] == (
        f"{SUGGEST_CHANGES_BASE}\n\n{describe_suggest_changes_capabilities()}"
    )
    assert definition("suggest_changes", options)["description"] == (
        f"{SUGGEST_CHANGES_BASE}\n\n{describe_suggest_changes_capabilities(options)}"
    )
    assert "precondition.blockTextHash" in SUGGEST_CHANGES_BASE
    assert "re-read" in SUGGEST_CHANGES_BASE


# ---- provider shapes --------------------------------------------------------------------------------


def test_anthropic_shape() -> None:
    defs = get_tool_definitions()
    converted = to_anthropic_tools(defs)
    assert len(converted) == 17
    for source, tool in zip(defs, converted, strict=True):
        assert tool == {
            "name": source["name"],
            "description": source["description"],
            "input_schema": source["inputSchema"],
        }
        assert tool["input_schema"] is not source["inputSchema"]


def test_openai_shape() -> None:
    defs = get_tool_definitions()
    converted = to_openai_tools(defs)
    assert len(converted) == 17
    for source, tool in zip(defs, converted, strict=True):
        assert tool == {
            "type": "function",
            "function": {
                "name": source["name"],
                "description": source["description"],
                "parameters": source["inputSchema"],
            },
        }
        assert tool["function"]["parameters"] is not source["inputSchema"]


def test_changing_a_converted_schema_leaves_the_definitions_alone() -> None:
    before = copy.deepcopy(get_tool_definitions())
    to_anthropic_tools(get_tool_definitions())[0]["input_schema"]["properties"]["x"] = {}
    to_openai_tools(get_tool_definitions())[2]["function"]["parameters"]["required"].append("y")
    assert get_tool_definitions() == before


def test_adapters_accept_any_iterable_of_definitions() -> None:
    subset = (d for d in get_tool_definitions() if d["name"].startswith("read_"))
    assert [t["name"] for t in to_anthropic_tools(subset)] == [n for n in TOOL_NAMES if n.startswith("read_")]
    assert to_openai_tools([]) == []

"""The read tools of the executor (contract §4.1-§4.7, §4.12-§4.13) and their argument checks.

Each function takes the bridge and the model's arguments and returns the tool's result, or
raises :class:`ToolError` with the contract's exact sentence; the dispatcher in
:mod:`.executor` turns both (and any exception a bridge raises) into the ``{ok, ...}`` envelope.
Reads go through the bridge's snapshot with the engine's own readers, so a bridge only has to
supply what is specific to its surface (pages, selection, stories).
"""

from __future__ import annotations

from typing import Any

from ..docx import find, outline
from ..docx.blocks import Block
from ..docx.checks import KINDS, Checker, Finding, checker_for, summary
from .bridge import member
from .codecs import as_integer, decode_section_handle, decode_story_handle
from .suggest_changes import TEXT_FIELD_LIMIT, over_limit_message

MAX_DEPTH = 9
SCOPE_TYPES = ("document", "section", "page", "story")


class ToolError(Exception):
    """An expected refusal; ``str()`` is the model-facing sentence."""


# ------------------------------------------------------------------------------------------- helpers
def count(value: int) -> str:
    """A number as JavaScript's ``toLocaleString`` prints it in the contract's messages."""
    return f"{value:,}"


def non_empty_string(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def over_limit(label: str, text: str) -> str | None:
    """The contract's cap sentence when ``text`` is over 100,000 characters (code points)."""
    return over_limit_message(label, len(text)) if len(text) > TEXT_FIELD_LIMIT else None


def args_object(args: Any) -> dict[str, Any]:
    """The arguments as a dict; tools without arguments tolerate anything else as ``{}``."""
    return args if isinstance(args, dict) else {}


def block_target(block_id: str) -> dict[str, Any]:
    """The navigation target naming a whole main-story block."""
    return {"type": "block", "story": "main", "blockId": block_id}


def _page_of(bridge: Any, target: dict[str, Any]) -> int | None:
    get_target_page = member(bridge, "get_target_page")
    if get_target_page is None:
        return None
    page = as_integer(get_target_page(target))
    return page if page is not None and page >= 1 else None


# ------------------------------------------------------------------------------------------- blocks
def read_document(bridge: Any, args: Any) -> list[dict[str, Any]]:
    return bridge.snapshot().agent_blocks()


def get_document_outline(bridge: Any, args: Any) -> dict[str, Any]:
    args = args_object(args)
    depth = outline.DEFAULT_MAX_DEPTH
    if "maxDepth" in args:
        value = as_integer(args["maxDepth"])
        if value is None or not 1 <= value <= MAX_DEPTH:
            raise ToolError("get_document_outline's `maxDepth` must be an integer from 1 to 9.")
        depth = value
    result = outline.get_outline(bridge.snapshot(), depth)
    if member(bridge, "get_target_page") is not None:
        for entry in result["sections"]:
            page = _page_of(bridge, block_target(entry["headingBlockId"]))
            if page is not None:
                entry["page"] = page
    return result


def read_section(bridge: Any, args: Any) -> dict[str, Any]:
    if not isinstance(args, dict):
        raise ToolError("read_section expects a section `handle` from get_document_outline.")
    handle = decode_section_handle(args.get("handle"))
    if handle is None:
        raise ToolError("read_section requires a valid `handle` from get_document_outline.")
    max_blocks = outline.DEFAULT_MAX_BLOCKS
    if "maxBlocks" in args:
        value = as_integer(args["maxBlocks"])
        if value is None or not 1 <= value <= outline.MAX_BLOCKS_LIMIT:
            raise ToolError("read_section's `maxBlocks` must be an integer from 1 to 200.")
        max_blocks = value
    after = None
    if "afterBlockId" in args:
        after = args["afterBlockId"]
        if not non_empty_string(after):
            raise ToolError("read_section's `afterBlockId` must be a non-empty string when provided.")
    try:
        return outline.read_section(bridge.snapshot(), handle, max_blocks, after)
    except outline.ReadError as error:
        raise ToolError(str(error)) from None


# ------------------------------------------------------------------------------------------- stories
def list_stories(bridge: Any, args: Any) -> list[dict[str, Any]]:
    list_member = member(bridge, "list_stories")
    if list_member is None:
        raise ToolError("This editor surface does not support story discovery.")
    return list(list_member())


def read_story(bridge: Any, args: Any) -> dict[str, Any]:
    read_member = member(bridge, "read_story")
    if read_member is None:
        raise ToolError("This editor surface does not support story reads.")
    handle = decode_story_handle(args_object(args).get("handle"))
    if handle is None:
        raise ToolError("read_story requires a valid typed `handle` from list_stories.")
    story = read_member(handle)
    if story is None:
        raise ToolError("The requested story was not found; run list_stories again.")
    return story


# ------------------------------------------------------------------------------------------- find_text
def find_text(bridge: Any, args: Any) -> dict[str, Any]:
    if not isinstance(args, dict):
        raise ToolError("find_text expects an object with a non-empty `query` string.")
    query = args.get("query")
    if not non_empty_string(query):
        raise ToolError("find_text requires a non-empty string `query`.")
    if len(query) > find.MAX_QUERY_CHARS:
        raise ToolError(
            f"find_text's `query` is {count(len(query))} characters, over the "
            f"{count(find.MAX_QUERY_CHARS)}-character limit; shorten it."
        )
    for key in ("matchCase", "wholeWord"):
        if key in args and not isinstance(args[key], bool):
            raise ToolError(f"find_text's `{key}` must be a boolean when provided.")
    match_case = bool(args.get("matchCase", False))
    whole_word = bool(args.get("wholeWord", False))
    if "scope" not in args:
        return _document_search(bridge, query, match_case, whole_word)
    scope = args["scope"]
    if not isinstance(scope, dict):
        raise ToolError("find_text's `scope` must be a document, section, page, or story scope.")
    kind = scope.get("type")
    if kind == "document":
        return _document_search(bridge, query, match_case, whole_word)
    if kind == "section":
        return _section_search(bridge, scope, query, match_case, whole_word)
    if kind == "page":
        return _page_search(bridge, scope, query, match_case, whole_word)
    if kind == "story":
        return _story_search(bridge, scope, query, match_case, whole_word)
    raise ToolError("find_text's `scope.type` must be document, section, page, or story.")


def _with_pages(bridge: Any, result: dict[str, Any]) -> dict[str, Any]:
    """Main-story matches carry ``page`` when the surface lays pages out."""
    if member(bridge, "get_target_page") is not None:
        for match in result["matches"]:
            if match.get("type") == "main":
                page = _page_of(bridge, match["range"])
                if page is not None:
                    match["page"] = page
    return result


def _document_search(bridge: Any, query: str, match_case: bool, whole_word: bool) -> dict[str, Any]:
    search = member(bridge, "find_text")
    if search is not None:
        result = search(query, match_case, whole_word, {"type": "document"})
    else:
        index = bridge.snapshot().memo("search", lambda snap: find.build_index(snap.blocks))
        result = find.find_in_index(index, query, match_case, whole_word)
    return _with_pages(bridge, result)


def _section_search(
    bridge: Any, scope: dict[str, Any], query: str, match_case: bool, whole_word: bool
) -> dict[str, Any]:
    handle = decode_section_handle(scope.get("handle"))
    if handle is None:
        raise ToolError("find_text's section scope requires a handle from get_document_outline.")
    status, blocks = outline.resolve_section(bridge.snapshot(), handle)
    if status != "found":
        raise ToolError("The scoped section is stale or missing; run get_document_outline again.")
    return _with_pages(bridge, find.find_in_blocks(blocks, query, match_case, whole_word))


def _story_search(
    bridge: Any, scope: dict[str, Any], query: str, match_case: bool, whole_word: bool
) -> dict[str, Any]:
    handle = decode_story_handle(scope.get("handle"))
    if handle is None:
        raise ToolError("find_text's story scope requires a handle from list_stories.")
    if handle.get("type") == "main":
        return _document_search(bridge, query, match_case, whole_word)
    read_member = member(bridge, "read_story")
    if read_member is None:
        raise ToolError("This editor surface does not support story search.")
    story = read_member(handle)
    if story is None:
        raise ToolError("The scoped story was not found; run list_stories again.")
    return find.find_in_story(story, query, match_case, whole_word)


def _page_search(
    bridge: Any, scope: dict[str, Any], query: str, match_case: bool, whole_word: bool
) -> dict[str, Any]:
    page = as_integer(scope.get("page"))
    if page is None or page < 1:
        raise ToolError("find_text's page scope requires an integer `page` >= 1.")
    if member(bridge, "get_target_page") is None:
        raise ToolError("This editor surface cannot search by page without live pagination.")
    get_page_count = member(bridge, "get_page_count")
    if get_page_count is not None:
        total_pages = as_integer(get_page_count())
        if total_pages is not None and page > total_pages:
            raise ToolError(
                f"find_text's page ({count(page)}) exceeds the document's page count ({count(total_pages)})."
            )
    # find's own matching rules (literal, case folding, word boundaries, note markers), uncapped:
    # only matches on the page count, so the 200-match cap applies after the page filter
    pattern = find._pattern(query, match_case)
    matches: list[dict[str, Any]] = []
    total = 0
    for block in _blocks_reaching_page(bridge, page):
        spans = find._spans(block.text, pattern, whole_word, find._protected(block))
        for occurrence, (start, end) in enumerate(spans):
            match = find._main_match(block, start, end, occurrence)
            if _page_of(bridge, match["range"]) != page:
                continue
            total += 1
            if len(matches) < find.MAX_MATCHES:
                match["page"] = page
                matches.append(match)
    return {"matches": matches, "totalMatches": total, "truncated": total > len(matches)}


def _blocks_reaching_page(bridge: Any, page: int) -> list[Block]:
    """Content blocks that start on ``page``, plus the one before them (it may run onto the page)."""
    content = [b for b in bridge.snapshot().blocks if b.normalized and b.kind != "diagnostic"]
    found: list[Block] = []
    previous: Block | None = None
    for block in content:
        start = _page_of(bridge, block_target(block.id))
        if start is None:
            continue
        if start < page:
            previous = block
        elif start == page:
            found.append(block)
        else:
            break
    return ([previous] if previous is not None else []) + found


# ------------------------------------------------------------------------------------------- comments
def read_comments(bridge: Any, args: Any) -> list[dict[str, Any]]:
    args = args_object(args)
    wanted = args.get("filter", "all")
    if wanted not in ("all", "open", "resolved"):
        raise ToolError('read_comments\' `filter` must be one of "all", "open", "resolved" when provided.')
    comments = list(bridge.get_comments())
    if wanted == "all":
        return comments
    return [c for c in comments if bool(c.get("resolved")) == (wanted == "resolved")]


def read_changes(bridge: Any, args: Any) -> list[dict[str, Any]]:
    """Never an error (§4.7): a surface that cannot list changes reports none."""
    get_changes = member(bridge, "get_changes")
    if get_changes is None:
        return []
    try:
        return list(get_changes() or [])
    except Exception:
        return []


# ------------------------------------------------------------------------------------------- checks
#: The most findings one check_document result lists (its totals count them all), like find_text.
MAX_FINDINGS = 200


def check_document(bridge: Any, args: Any) -> dict[str, Any]:
    """The contract checks' findings for the document as the agent reads it (its snapshot, so each
    finding's blockId and offsets are those of read_section and find_text). A bridge over a
    reviewer uses the document's shared checker (a re-check after the agent's edits re-reads only
    the edited blocks); a bridge with its own ``check_document`` answers itself."""
    wanted = args_object(args).get("kinds")
    if wanted is not None and (
        not isinstance(wanted, list) or not wanted or any(k not in KINDS for k in wanted)
    ):
        raise ToolError(
            "check_document's `kinds` must be a non-empty array of "
            + ", ".join(f'"{k}"' for k in KINDS)
            + " when provided."
        )
    own = member(bridge, "check_document")
    if own is not None:
        findings: list[Finding] = list(own())
    else:
        reviewer = member(bridge, "reviewer")
        if reviewer is None:
            findings = Checker().check(bridge.snapshot())
        else:
            findings = checker_for(reviewer).check(bridge.snapshot(), reviewer.document.body)
    if wanted is not None:
        findings = [f for f in findings if f.kind in wanted]
    result = summary(findings)
    result["findings"] = [f.to_dict() for f in findings[:MAX_FINDINGS]]
    result["truncated"] = len(findings) > MAX_FINDINGS
    return result


# ------------------------------------------------------------------------------------------- live view
def read_page(bridge: Any, args: Any) -> dict[str, Any]:
    get_page_text = member(bridge, "get_page_text")
    if get_page_text is None:
        raise ToolError("This editor surface does not support read_page (no live paginated view).")
    page = as_integer(args_object(args).get("page"))
    if page is None or page < 1:
        raise ToolError("read_page requires an integer `page` >= 1.")
    result: dict[str, Any] = {"page": page}
    get_page_count = member(bridge, "get_page_count")
    if get_page_count is not None:
        total = as_integer(get_page_count())
        if total is not None:
            if page > total:
                raise ToolError(
                    f"read_page's `page` ({count(page)}) exceeds the document's page count ({count(total)})."
                )
            result["totalPages"] = total
    text = get_page_text(page)
    result["text"] = text if isinstance(text, str) else ""
    return result


def read_selection(bridge: Any, args: Any) -> dict[str, Any]:
    get_selection_text = member(bridge, "get_selection_text")
    if get_selection_text is None:
        raise ToolError("This editor surface does not support read_selection (no live selection).")
    text = get_selection_text()
    return {"text": text if isinstance(text, str) else ""}

"""The reads (§4.1-§4.7, §4.13-§4.14, and check_document): each tool's whole spec in one place.

Every read returns the document's own text, so every one is :attr:`~.tool_spec.Fencing.DOCUMENT_TEXT`
and its description ends with the same warning (:data:`~.tool_descriptions.UNTRUSTED`); the
handlers are in :mod:`.executor_reads`.
"""

from __future__ import annotations

from typing import Any

from reviewer_app.docx.checks import KINDS

from . import executor_reads as reads
from .tool_descriptions import APP_ONLY, DATA, PAGES, UNTRUSTED
from .tool_schemas import (
    MAX_OUTLINE_DEPTH,
    MAX_QUERY_CHARS,
    MAX_SECTION_BLOCKS,
    SCOPE_HANDLE_SCHEMA,
    SECTION_HANDLE_SCHEMA,
    STORY_HANDLE_SCHEMA,
    integer_schema,
    object_schema,
    string_schema,
)
from .tool_spec import Fencing, Role, ToolSpec
from .tool_summaries import clip, count, counted, of_mapping


def _section_summary(result: Any) -> str:
    heading = (result.get("heading") or {}).get("text") or ""
    more = " (more follow)" if result.get("truncated") else ""
    return f"{count(len(result.get('blocks') or []), 'block')} of “{clip(heading, 60)}”{more}"


READ_DOCUMENT = ToolSpec(
    name="read_document",
    description=(
        "Read the whole main text of the document as a list of blocks (headings, paragraphs, list items, "
        "table-cell paragraphs), each with its blockId, kind, text and blockTextHash, plus the number or "
        "bullet it shows (displayLabel), its headingLevel and numbering when it has them. Empty paragraphs "
        "are left out. Use it for short documents and to get fresh ids after edits; for long documents "
        "start with get_document_outline. To guard an edit, pass a block's blockTextHash as "
        f"precondition.blockTextHash. {UNTRUSTED}"
    ),
    compact_description=f"Read every block (blockId, text, blockTextHash). Only for short documents. {DATA}",
    input_schema=object_schema({}),
    handler=reads.read_document,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=counted("block"),
)

GET_DOCUMENT_OUTLINE = ToolSpec(
    name="get_document_outline",
    description=(
        "List the document's headings as sections: each entry has a section handle, the heading's "
        "blockId, text and level, its parent section's handle, and the page it starts on when Reviewer "
        f"has laid the document out ({PAGES}). maxDepth (1-9, default 3) limits the heading levels "
        "listed; totalSections counts every level. Pass a handle, copied exactly, to read_section or to "
        f"find_text's section scope. {UNTRUSTED}"
    ),
    compact_description=f"List the headings as sections, each with a handle for read_section. {DATA}",
    input_schema=object_schema(
        {"maxDepth": integer_schema("Deepest heading level to list (default 3).", 1, MAX_OUTLINE_DEPTH)}
    ),
    handler=reads.get_document_outline,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=of_mapping(lambda result: count(len(result.get("sections") or []), "section")),
)

READ_SECTION = ToolSpec(
    name="read_section",
    description=(
        "Read one section: its heading and the blocks under it, up to the next heading of the same or a "
        "higher level. handle must be copied exactly from get_document_outline; if the heading was "
        "renamed, moved or deleted the handle is stale and you must get the outline again. Returns at "
        "most maxBlocks blocks (1-200, default 100); when truncated is true, call again with afterBlockId "
        f"set to nextAfterBlockId for the next part. {UNTRUSTED}"
    ),
    compact_description=(
        "Read one section's blocks; handle copied exactly from get_document_outline. If truncated, "
        f"call again with afterBlockId = nextAfterBlockId. {DATA}"
    ),
    input_schema=object_schema(
        {
            "handle": SECTION_HANDLE_SCHEMA,
            "maxBlocks": integer_schema("Most blocks to return (default 100).", 1, MAX_SECTION_BLOCKS),
            "afterBlockId": string_schema(
                "Continue after this block: the nextAfterBlockId of the previous call."
            ),
        },
        ("handle",),
    ),
    handler=reads.read_section,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=of_mapping(_section_summary),
)

LIST_STORIES = ToolSpec(
    name="list_stories",
    description=(
        "List the document's stories: the main text first, then headers, footers, footnotes and endnotes, "
        "each with a typed handle and its text. Pass a handle, copied exactly, to read_story or to "
        f"find_text's story scope. {UNTRUSTED}"
    ),
    input_schema=object_schema({}),
    handler=reads.list_stories,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=counted("story", "stories"),
)

READ_STORY = ToolSpec(
    name="read_story",
    description=(
        "Read one story: the main text, a header, a footer, a footnote or an endnote. handle must be "
        f"copied exactly from list_stories. {UNTRUSTED}"
    ),
    input_schema=object_schema({"handle": STORY_HANDLE_SCHEMA}, ("handle",)),
    handler=reads.read_story,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=of_mapping(lambda result: f"{len(result.get('text') or '')} characters"),
)

FIND_TEXT = ToolSpec(
    name="find_text",
    description=(
        "Find literal text (no wildcards or regular expressions); case-insensitive unless matchCase is "
        "true, and wholeWord keeps only whole-word matches. scope narrows the search: document (the "
        "default), section (a handle from get_document_outline), page (a page number; "
        f"{PAGES}; only where Reviewer shows pages) or story (a handle from list_stories). "
        "A match in the main text gives its blockId, blockTextHash, a range handle, occurrenceInBlock "
        "and surrounding context; copy the range exactly into replaceRange, commentOnRange, formatRange "
        "or show_in_document. Matches in headers, footers and notes give offsets only. At most 200 "
        f"matches are returned; totalMatches counts them all. {UNTRUSTED}"
    ),
    compact_description=f"Find literal text; each match gives its blockId and context. {DATA}",
    input_schema=object_schema(
        {
            "query": string_schema(f"The literal text to find, at most {MAX_QUERY_CHARS:,} characters."),
            "matchCase": {
                "type": "boolean",
                "description": "Match upper and lower case exactly (default false).",
            },
            "wholeWord": {"type": "boolean", "description": "Only match whole words (default false)."},
            "scope": object_schema(
                {
                    "type": {"type": "string", "enum": ["document", "section", "page", "story"]},
                    "handle": SCOPE_HANDLE_SCHEMA,
                    "page": integer_schema("For a page scope: a page number as laid out in Reviewer.", 1),
                },
                ("type",),
                "Where to search (default: the whole document).",
            ),
        },
        ("query",),
    ),
    handler=reads.find_text,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=of_mapping(lambda result: count(int(result.get("totalMatches") or 0), "match", "matches")),
)

READ_COMMENTS = ToolSpec(
    name="read_comments",
    description=(
        "Read the document's comment threads: each comment's id, author, text, whether it is resolved, "
        "the blockId and quoted text it is anchored to, and its replies. filter: all (the default), open "
        "or resolved. Use a comment's id, copied exactly, with reply_comment or resolve_comment. "
        f"{UNTRUSTED}"
    ),
    input_schema=object_schema(
        {"filter": {"type": "string", "enum": ["all", "open", "resolved"], "description": "Default all."}}
    ),
    handler=reads.read_comments,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=counted("comment"),
)

READ_CHANGES = ToolSpec(
    name="read_changes",
    description=(
        "Read the tracked changes awaiting review: each change's id, type (insertion, deletion, formatting, "
        "...), author, text and blockId. Only the person reviewing can accept or reject them; you cannot. "
        f"{UNTRUSTED}"
    ),
    input_schema=object_schema({}),
    handler=reads.read_changes,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=counted("tracked change"),
)

CHECK_DOCUMENT = ToolSpec(
    name="check_document",
    description=(
        "Check the document for drafting errors, without a model: capitalised terms used but never "
        "defined, definitions never used or given twice, misspelt terms and party names, "
        "cross-references to clauses or schedules that do not exist, words and figures that disagree "
        "(thirty (45) days), typed numbering that skips, and blanks or placeholders left in. The "
        "document is read as if every tracked change were accepted. Each finding gives its kind, code, "
        "severity, message, blockId, startOffset/endOffset into the block's text, the evidence (that "
        "text) and, where the correction is certain, a fix (the replacement text); at most "
        "200 findings are returned and total counts them all. kinds narrows the result to terms, "
        f"references, numbers, blanks or parties. {UNTRUSTED}"
    ),
    input_schema=object_schema(
        {
            "kinds": {
                "type": "array",
                "items": {"type": "string", "enum": list(KINDS)},
                "description": "Only these kinds of finding (default: every kind).",
            }
        }
    ),
    handler=reads.check_document,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.READ,
    summary=of_mapping(lambda result: count(int(result.get("total") or 0), "finding")),
)

READ_PAGE = ToolSpec(
    name="read_page",
    description=f"Read the plain text of one page ({PAGES}). {APP_ONLY} {UNTRUSTED}",
    input_schema=object_schema(
        {"page": integer_schema("A page number as laid out in Reviewer.", 1)}, ("page",)
    ),
    handler=reads.read_page,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.LIVE_READ,
    summary=of_mapping(lambda result: f"page {result.get('page')}"),
)

READ_SELECTION = ToolSpec(
    name="read_selection",
    description=f"Read the text the user has selected in the document. {APP_ONLY} {UNTRUSTED}",
    input_schema=object_schema({}),
    handler=reads.read_selection,
    fencing=Fencing.DOCUMENT_TEXT,
    role=Role.LIVE_READ,
    summary=of_mapping(lambda result: f"selection ({len(result.get('text') or '')} characters)"),
)

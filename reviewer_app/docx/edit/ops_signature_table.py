"""insertSignatureTable (contract §5.5): a borderless execution block, one cell per party.

Decision: the layout UK/US commercial contracts use: "Signed for and on behalf of <name>", a
signature line, then "Name:", "Title:" and "Date:" lines left for the signatory to fill when the
operation does not name them; two parties side by side per row, rows never split across pages.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from . import table_targets as targets
from .batch import Operation
from .context import EditContext, Outcome
from .registry import handles
from .skips import Skip
from .table_markup import Look, build_table, new_paragraph
from .table_placement import is_bidi, place_table, text_width, top_level
from .table_xml import block_paragraphs

_SIGNATURE_LINE = "_" * 30
#: Parties side by side per row of a signature table (the usual two-column execution block).
_PARTIES_PER_ROW = 2


@handles("insertSignatureTable")
def insert_signature_table(ctx: EditContext, op: Operation) -> Outcome:
    """A borderless execution block: one cell per party, two parties side by side per row.

    Decision: the layout UK/US commercial contracts use: "Signed for and on behalf of <name>",
    a signature line, then "Name:", "Title:" and "Date:" lines left for the signatory to fill
    when the operation does not name them.
    """
    block = targets.table_block(ctx, op.fields["blockId"])
    parties = list(op.fields["parties"])
    if not parties:
        raise Skip("emptyOperation")
    position = op.fields.get("position", "after")
    look = Look(bidi=is_bidi(block.element))
    width = text_width(ctx.doc.body, top_level(block), after=position == "after")
    columns = min(_PARTIES_PER_ROW, len(parties))
    cells: list[list[Any]] = []
    for start in range(0, len(parties), _PARTIES_PER_ROW):
        chunk = parties[start : start + _PARTIES_PER_ROW]
        cells.append([_party_filler(ctx, p, look) for p in chunk] + [""] * (columns - len(chunk)))
    revisions = targets.Revisions(ctx)
    tbl = build_table(ctx, cells, [width // _PARTIES_PER_ROW] * columns, look, "none")
    place_table(ctx, block, tbl, position)
    # the engine puts the optional comment on the table's first paragraph
    return Outcome(
        [targets.insertion_receipt(block, position, "signatureTable")],
        revision_ids=revisions.ids(),
        comment_anchor=(next(block_paragraphs(tbl)), None, None),
    )


def _party_filler(ctx: EditContext, party: Any, look: Look) -> Any:
    lines: list[list[tuple[str, bool]]] = [
        [("Signed for and on behalf of ", False), (party["name"], True)],
        [],
        [(_SIGNATURE_LINE, False)],
        [("Name: " + (party.get("signatory") or ""), False)],
        [("Title: " + (party.get("title") or ""), False)],
        [("Date:", False)],
    ]

    def fill(tc: etree._Element) -> None:
        for parts in lines:
            tc.append(new_paragraph(ctx, "", look, parts=parts))

    return fill

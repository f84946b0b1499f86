"""Block alignment of two versions of one story: which block became which (contract §10).

Following Open-Xml-PowerTools and Docxodus, and the contract's three passes:

1. **Anchors.** Blocks with equal stable (paraId-backed) ids, and blocks whose text occurs exactly
   once on each side, are candidate pairs. They are filtered to the longest run that walks both
   documents forward (longest increasing subsequence by revised position), so the alignment never
   crosses itself. A candidate the filter drops was *moved*: it is kept out of gap filling so
   move detection can see it as one deletion and one addition with the same text.
2. **Exact text inside each gap** between anchors: an order-preserving match of equal texts in
   the same kind of place (repeated lines, blank paragraphs), skipped when the gap's table would
   exceed what is left of the shared cell budget.
3. **Similarity, then position.** What is still unpaired in a sub-gap is paired by word
   similarity (an order-preserving best total), and the rest is zipped by position; a table
   block is paired by these weak passes only with one in the same grid column (never with a
   body block), so a deleted row and a paragraph added to another row's cell stay apart.
   Past the budget the gap is zipped directly: a coarser redline, never unbounded work.
4. **Rows.** A table pair whose paragraph pairs cross rows is aligned again row by row, then cell
   by cell (:mod:`.table_rows`).

The result is an event stream in revised order with base-only blocks slotted where they sat,
shared by :func:`~.versions.compare_docx_versions` and the redline generator so both read one
alignment.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections import Counter

from .model import Budget, Entry, Event, same_place, similarity
from .table_rows import realign_tables

#: Word similarity from which two blocks in a gap count as one block edited.
SIMILAR = 0.5
#: Largest similarity table (cells) filled for one sub-gap; above it the gap is zipped.
SIMILARITY_TABLE_CELLS = 40_000


def longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (sorted by base index) with increasing revised index.

    Patience sorting, O(n log n): a 15,000-block contract has 15,000 anchors.
    """
    tails: list[int] = []
    tail_values: list[int] = []
    previous = [-1] * len(pairs)
    for i, (_b, r) in enumerate(pairs):
        k = bisect_left(tail_values, r)
        if k:
            previous[i] = tails[k - 1]
        if k == len(tails):
            tails.append(i)
            tail_values.append(r)
        else:
            tails[k] = i
            tail_values[k] = r
    out: list[tuple[int, int]] = []
    i = tails[-1] if tails else -1
    while i != -1:
        out.append(pairs[i])
        i = previous[i]
    out.reverse()
    return out


def _candidates(base: list[Entry], revised: list[Entry]) -> list[tuple[int, int]]:
    """Stable-id pairs, then texts unique on both sides among the blocks ids left unpaired, both
    in the body or both in a table (a paragraph moved into a new table is not the table's)."""
    by_id = {e.block.id: e.index for e in revised if e.stable}
    pairs = [(e.index, by_id[e.block.id]) for e in base if e.stable and e.block.id in by_id]
    used_b = {b for b, _ in pairs}
    used_r = {r for _, r in pairs}
    count_b = Counter(e.key for e in base if e.key and e.index not in used_b)
    count_r = Counter(e.key for e in revised if e.key and e.index not in used_r)
    where_r = {e.key: e for e in revised if e.key and e.index not in used_r and count_r[e.key] == 1}
    for e in base:
        other = where_r.get(e.key) if e.key and e.index not in used_b and count_b[e.key] == 1 else None
        if other is not None and other.in_table == e.in_table:
            pairs.append((e.index, other.index))
    pairs.sort()
    return pairs


def _place_key(e: Entry) -> tuple[str, int]:
    """Equal text in the same kind of place: body, or the same grid column of a table.

    Inside a gap, equal texts are often blank paragraphs; a body blank must not pair with a cell
    that happens to be blank, or the blocks around them fall out of step.
    """
    if not e.in_table:
        return e.key, -1
    return e.key, int((e.block.table or {}).get("gridColumnIndex", 0))


def _exact(bs: list[Entry], rs: list[Entry], budget: Budget) -> list[tuple[int, int]]:
    """Order-preserving pairs of equal texts (local indexes), if the budget allows the table."""
    if not bs or not rs or not budget.take("align", len(bs) * len(rs)):
        return []
    matcher = difflib.SequenceMatcher(
        None, [_place_key(e) for e in bs], [_place_key(e) for e in rs], autojunk=False
    )
    return [(i + k, j + k) for i, j, n in matcher.get_matching_blocks() for k in range(n)]


def _place(e: Entry) -> tuple[int, int]:
    """Where a block sits, for pairing by position: the body, or a table column and paragraph."""
    if not e.in_table:
        return -1, -1
    table = e.block.table or {}
    return int(table.get("gridColumnIndex", 0)), int(table.get("paragraphIndex", 0))


def _zip(bs: list[Entry], rs: list[Entry]) -> list[tuple[int, int]]:
    """Pairs by position: in order, each block with the next one in the same kind of place.

    In body text that is a plain zip; in a table, a cell's paragraph pairs with the paragraph
    at the same place of the corresponding cell, skipping blocks that have no counterpart.
    """
    if len(bs) * len(rs) > SIMILARITY_TABLE_CELLS:
        return [(k, k) for k in range(min(len(bs), len(rs))) if same_place(bs[k], rs[k], strict=True)]
    matcher = difflib.SequenceMatcher(None, [_place(e) for e in bs], [_place(e) for e in rs], autojunk=False)
    return [(i + k, j + k) for i, j, n in matcher.get_matching_blocks() for k in range(n)]


def _similar(bs: list[Entry], rs: list[Entry]) -> list[tuple[int, int]]:
    """Order-preserving pairs maximizing total similarity (pairs below :data:`SIMILAR` excluded)."""
    m, n = len(bs), len(rs)
    score = [[0.0] * (n + 1) for _ in range(m + 1)]
    for i in range(m - 1, -1, -1):
        row, below = score[i], score[i + 1]
        for j in range(n - 1, -1, -1):
            best = max(below[j], row[j + 1])
            if same_place(bs[i], rs[j], strict=False):
                s = similarity(bs[i], rs[j])
                if s >= SIMILAR and below[j + 1] + s > best:
                    best = below[j + 1] + s
            row[j] = best
    pairs = []
    i = j = 0
    while i < m and j < n:
        here = score[i][j]
        if here == 0.0:
            break
        if here == score[i + 1][j]:
            i += 1
        elif here == score[i][j + 1]:
            j += 1
        else:
            pairs.append((i, j))
            i += 1
            j += 1
    return pairs


def _fill(bs: list[Entry], rs: list[Entry], budget: Budget) -> list[tuple[int, int]]:
    """Pairs of a sub-gap with no equal texts: by similarity, leftovers by position."""
    if not bs or not rs:
        return []
    cells = len(bs) * len(rs)
    if cells > SIMILARITY_TABLE_CELLS or not budget.take("align", cells):
        return _zip(bs, rs)
    similar = _similar(bs, rs)
    out: list[tuple[int, int]] = []
    last_i = last_j = 0
    for i, j in [*similar, (len(bs), len(rs))]:
        out.extend((last_i + a, last_j + b) for a, b in _zip(bs[last_i:i], rs[last_j:j]))
        if i < len(bs):
            out.append((i, j))
        last_i, last_j = i + 1, j + 1
    return out


def _gap_pairs(
    bs: list[Entry], rs: list[Entry], moved_b: set[int], moved_r: set[int], budget: Budget
) -> list[tuple[int, int]]:
    """Local pairs of one gap between anchors; moved blocks stay unpaired."""
    pb = [k for k, e in enumerate(bs) if e.index not in moved_b]
    pr = [k for k, e in enumerate(rs) if e.index not in moved_r]
    ebs, ers = [bs[k] for k in pb], [rs[k] for k in pr]
    pairs: list[tuple[int, int]] = []
    last_i = last_j = 0
    for i, j in [*_exact(ebs, ers, budget), (len(ebs), len(ers))]:
        for a, b in _fill(ebs[last_i:i], ers[last_j:j], budget):
            pairs.append((pb[last_i + a], pr[last_j + b]))
        if i < len(ebs):
            pairs.append((pb[i], pr[j]))
        last_i, last_j = i + 1, j + 1
    return pairs


def _emit(events: list[Event], bs: list[Entry], rs: list[Entry], pairs: list[tuple[int, int]]) -> None:
    last_i = last_j = 0
    for i, j in pairs:
        events.extend(Event("base", base=e) for e in bs[last_i:i])
        events.extend(Event("revised", revised=e) for e in rs[last_j:j])
        events.append(Event("pair", bs[i], rs[j]))
        last_i, last_j = i + 1, j + 1
    events.extend(Event("base", base=e) for e in bs[last_i:])
    events.extend(Event("revised", revised=e) for e in rs[last_j:])


def align(base: list[Entry], revised: list[Entry], budget: Budget) -> list[Event]:
    """The alignment of two stories' entries as events in revised order (see the module text),
    tables whose pairs cross rows aligned again row by row (:mod:`.table_rows`)."""
    return realign_tables(_paragraphs(base, revised, budget), budget, _paragraphs)


def _paragraphs(base: list[Entry], revised: list[Entry], budget: Budget) -> list[Event]:
    """The paragraph alignment: anchors, then each gap between them (see the module text)."""
    candidates = _candidates(base, revised)
    anchors = longest_increasing(candidates)
    kept = set(anchors)
    moved_b = {b for b, r in candidates if (b, r) not in kept}
    moved_r = {r for b, r in candidates if (b, r) not in kept}
    events: list[Event] = []
    prev_b = prev_r = -1
    for b, r in [*anchors, (len(base), len(revised))]:
        bs, rs = base[prev_b + 1 : b], revised[prev_r + 1 : r]
        _emit(events, bs, rs, _gap_pairs(bs, rs, moved_b, moved_r, budget))
        if b < len(base):
            events.append(Event("pair", base[b], revised[r]))
        prev_b, prev_r = b, r
    return events

"""The tables under ``tests/data/`` that name where LibreOffice and our reader genuinely differ.

LibreOffice recomputes DATE and TIME fields to the day it opens a file, so the text it reports
for them depends on the clock. The tables therefore never hold such a day: a cell writes it as
``{today:FORMAT}`` (``strftime`` codes, e.g. ``{today:%-m/%-d/%y}``), and LibreOffice's text is
brought to that form with :func:`with_today_as_token` before it is compared. The comparison then
holds on any day, and checks that LibreOffice showed the day it ran, in the field's format.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path

DATA = Path(__file__).parent / "data"
_TOKEN = re.compile(r"\{today:([^}]+)\}")
#: The day this test process started; a reading cached then may be compared after midnight.
_SESSION_DAY = date.today()


def read_rows(name: str) -> list[list[str]]:
    """The tab-separated rows of ``tests/data/<name>``, comment lines (``#``) left out."""
    with (DATA / name).open(encoding="utf-8") as fh:
        return list(csv.reader((line for line in fh if not line.startswith("#")), delimiter="\t"))


def today_formats(rows: Iterable[list[str]]) -> set[str]:
    """Every ``FORMAT`` of a ``{today:FORMAT}`` token in the rows."""
    return {fmt for row in rows for cell in row for fmt in _TOKEN.findall(cell)}


def with_today_as_token(text: str, formats: Iterable[str], days: Iterable[date] | None = None) -> str:
    """``text`` with each of ``days`` (default: the session's first day and today), written in
    each of ``formats``, replaced by its ``{today:FORMAT}`` token.

    Longer renderings are replaced first, so "Tuesday, December 1, 2026" is never half taken
    by a shorter format.
    """
    candidates = sorted(
        {(day.strftime(fmt), fmt) for fmt in formats for day in (days or (_SESSION_DAY, date.today()))},
        key=lambda pair: -len(pair[0]),
    )
    for rendered, fmt in candidates:
        text = text.replace(rendered, "{today:%s}" % fmt)
    return text

"""English plurals for counts shown to the user ("1 change", "14 changes").

Qt's ``%n`` plural forms need a compiled translation even for English, and the app ships
English first without one; so each count picks between two translatable strings here, and a
later translation can still translate both.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def count_text(count: int, one: str, many: str, context: str = "Reviewer") -> str:
    """``one`` or ``many`` (each holding ``{n}``) for ``count``, through Qt's translator."""
    template = one if count == 1 else many
    return QCoreApplication.translate(context, template).format(n=count)

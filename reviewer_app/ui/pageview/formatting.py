"""The page view's names for the engine's formatting reader (:mod:`reviewer_app.docx.format_resolver`).

Kept only while modules of the page view being reworked still import them from here; new code
imports :mod:`reviewer_app.docx.format_resolver` and :mod:`reviewer_app.docx.format_props`.
"""

from ...docx.format_props import Border, ParaProps
from ...docx.format_resolver import FormatResolver

__all__ = ["Border", "FormatResolver", "ParaProps"]

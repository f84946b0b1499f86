"""The page view's name for the engine's section reader (:mod:`reviewer_app.docx.sections`).

Kept only while modules of the page view being reworked still import it from here; new code
imports :mod:`reviewer_app.docx.sections`.
"""

from ...docx.sections import SectionProps, parse_section, section_elements

__all__ = ["SectionProps", "parse_section", "section_elements"]

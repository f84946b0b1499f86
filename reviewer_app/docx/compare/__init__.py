"""Compare two versions of a document, and write the differences as a redline (contract §10).

``compare_docx_versions`` reports what changed, block by block, in the contract's JSON shape;
``format_version_diff_for_llm`` renders that report as compact lines for a model prompt;
``generate_redline_docx`` writes the differences into the base package as tracked changes,
through the same edit engine the agent's operations use.
"""

from .diff_format import format_version_diff_for_llm
from .errors import CompareInputError, CompareOptionError
from .redline import generate_redline_docx
from .versions import compare_docx_versions

__all__ = [
    "CompareInputError",
    "CompareOptionError",
    "compare_docx_versions",
    "format_version_diff_for_llm",
    "generate_redline_docx",
]

"""A small NDA and a three-position playbook shared by the playbook review tests.

The NDA's clauses carry fixed paragraph ids, so a scripted model can cite them the way a real
one copies ids from its reads.
"""

from __future__ import annotations

from reviewer_app.agent.playbook.model import Playbook, Position
from tests.docx_factory import make_docx, p

TERM, USE, LAW = "1A000001", "1A000002", "1A000003"
TERM_TEXT = "The obligations of confidentiality continue for two (2) years after disclosure."
USE_TEXT = "The Recipient may use Confidential Information for any purpose whatsoever."
LAW_TEXT = "This Agreement is governed by the laws of England and Wales."
NDA = make_docx(
    p("Mutual Non-Disclosure Agreement", para_id="1A000000")
    + p(TERM_TEXT, para_id=TERM)
    + p(USE_TEXT, para_id=USE)
    + p(LAW_TEXT, para_id=LAW)
)

PLAYBOOK = Playbook(
    name="Mutual NDA",
    contract_type="NDA",
    positions=(
        Position(
            id="term",
            title="Term of confidentiality",
            question="How long do the confidentiality obligations last?",
            standard="At least three years from disclosure.",
            fallbacks=("Two years from disclosure for non-technical information.",),
            severity="high",
        ),
        Position(
            id="purpose",
            title="Limited use",
            question="May the recipient use the information only for the purpose?",
            standard="Use only for evaluating the proposed transaction.",
            model_clause="The Recipient shall use Confidential Information solely for the Purpose.",
        ),
        Position(
            id="law",
            title="Governing law",
            question="Which law governs?",
            standard="English law.",
            severity="low",
        ),
    ),
)


def cite(block_id: str, quote: str) -> dict[str, str]:
    return {"blockId": block_id, "quote": quote}


def finding(position_id: str, status: str, *citations: dict[str, str], **extra: object) -> dict[str, object]:
    """record_finding's input as a model sends it."""
    return {
        "positionId": position_id,
        "status": status,
        "citations": list(citations),
        "explanation": f"{position_id}: {status}.",
        **extra,
    }


#: the playbook's wording for the limited-use position, as a model proposes it with suggest_changes
PURPOSE_FALLBACK = {
    "id": "purpose-fallback",
    "type": "replaceInBlock",
    "blockId": USE,
    "find": "for any purpose whatsoever",
    "replace": "solely for the Purpose",
}

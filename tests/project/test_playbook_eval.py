"""bench/playbook_eval.py end to end on two ContractNLI contracts, with the scripted gold model.

The harness builds the .docx files and the 17-position playbook, runs ``reviewer review`` in a
process per contract against the scripted server, and scores the findings. The scripted model
answers from the gold labels except for three answers it gets wrong on purpose, so the expected
scores are known: 1.0 wherever it was right, and the hand-computed figures where it was not.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT, SHARED

DATASET = SHARED / "datasets" / "contract-nli" / "dev.json"


def _harness() -> Any:
    spec = importlib.util.spec_from_file_location("playbook_eval", REPO_ROOT / "bench" / "playbook_eval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not DATASET.exists(), reason="the ContractNLI dev set is not in ../shared/datasets")
def test_the_harness_scores_a_scripted_review_of_two_contracts(tmp_path: Path) -> None:
    harness = _harness()
    # contract 3: nda-2 is a Contradiction, nda-18 not mentioned; contract 7: nda-2 is an Entailment
    mistakes = [("3", "nda-2"), ("7", "nda-2"), ("3", "nda-18")]
    report = harness.evaluate(tmp_path, limit=2, scripted=True, mistakes=mistakes)
    assert [(c["id"], c["exit"], c["unanswered"]) for c in report["contracts"]] == [("3", 0, 0), ("7", 0, 0)]
    rows = {row["position"]: row for row in report["positions"]}
    assert len(rows) == 17 and (tmp_path / "contract-nli.yaml").exists()
    # nda-2: the Contradiction answered "meets", the Entailment "deviates", both citing no evidence
    assert (rows["nda-2"]["recall_contradiction"], rows["nda-2"]["precision_deviates"]) == (0.0, 0.0)
    assert rows["nda-2"]["evidence_share"] == 0.0
    # nda-18: not mentioned in either, but "deviates" once
    assert (rows["nda-18"]["deviates"], rows["nda-18"]["precision_deviates"]) == (1, 0.0)
    assert rows["nda-18"]["recall_contradiction"] is None and rows["nda-18"]["evidence_share"] is None
    # nda-17: contract 7's Contradiction, answered right
    assert (rows["nda-17"]["contradictions"], rows["nda-17"]["recall_contradiction"]) == (1, 1.0)
    assert rows["nda-17"]["precision_deviates"] == 1.0 and rows["nda-17"]["evidence_share"] == 1.0
    others = [row for key, row in rows.items() if key not in ("nda-2", "nda-18")]
    assert all(row["evidence_share"] in (1.0, None) for row in others)
    # 2 Contradictions, 1 found; 3 "deviates", 1 right; 29 addressed (15 + 14), 27 citing evidence
    assert report["overall"] == {
        "contradictions": 2,
        "recall_contradiction": 0.5,
        "deviates": 3,
        "precision_deviates": 0.333,
        "evidence_share": 0.931,
        "unanswered": 0,
    }
    assert report["tokens"]["input"] > 0
    overhead = report["record_finding_overhead"][0]  # the longest of the two contracts
    assert overhead["document"] == "nda-7.docx" and overhead["kept"]["median_ms"] > 0

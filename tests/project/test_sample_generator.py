"""The bundled sample is exactly what its generator and wording file produce.

``resources/samples/sample-msa.docx`` is committed, and its wording lives in
``contract_text.yaml``; an edit to either that is not regenerated would leave the app opening a
contract that no longer matches its source. The generator is deterministic, so the check is
byte for byte.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

SAMPLES = REPO_ROOT / "resources" / "samples"


def test_regenerating_the_sample_gives_the_bundled_file_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "sample-msa.docx"
    proc = subprocess.run(
        [sys.executable, str(SAMPLES / "generate_contract.py"), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == (SAMPLES / "sample-msa.docx").read_bytes()

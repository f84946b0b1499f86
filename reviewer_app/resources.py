"""Locate the files Reviewer ships beside its code (the sample contract, later icons and prompts).

The same code runs from three layouts, and each puts ``resources/`` somewhere else:

* a PyInstaller bundle unpacks it under ``sys._MEIPASS``;
* a source checkout (and an editable install) has it next to the ``reviewer_app`` package;
* a wheel installs it as data files under ``<prefix>/share/reviewer/resources`` (see
  ``[tool.setuptools.data-files]`` in ``pyproject.toml``), because a wheel cannot put files
  beside a package that lives in ``site-packages`` other than as package data.

No Qt here: the CLI uses these paths too and must not load PySide6.
"""

from __future__ import annotations

import site
import sys
from pathlib import Path

#: Folder name of the resources inside every layout.
RESOURCES_DIR = "resources"
#: Where the wheel's data files land, relative to an installation prefix.
INSTALLED_SUBDIR = Path("share") / "reviewer" / RESOURCES_DIR
#: The bundled sample contract, relative to the resources folder.
SAMPLE_CONTRACT = ("samples", "sample-msa.docx")


def resource_roots() -> list[Path]:
    """Candidate ``resources/`` folders, most specific first (bundle, checkout, installed)."""
    roots: list[Path] = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        roots.append(Path(bundle) / RESOURCES_DIR)
    roots.append(Path(__file__).resolve().parents[1] / RESOURCES_DIR)
    prefixes = [sys.prefix, sys.base_prefix]
    user_base = site.getuserbase() if hasattr(site, "getuserbase") else None
    if user_base:
        prefixes.append(user_base)  # pip install --user
    for prefix in prefixes:
        candidate = Path(prefix) / INSTALLED_SUBDIR
        if candidate not in roots:
            roots.append(candidate)
    return roots


def resource_path(*parts: str) -> Path:
    """The first existing ``resources/<parts...>`` across :func:`resource_roots`.

    Raises :class:`FileNotFoundError` naming every place looked at, so a broken install says
    where the file was expected instead of failing later with a bare path.
    """
    if not parts:
        raise ValueError("resource_path() needs at least one path component")
    tried: list[Path] = []
    for root in resource_roots():
        candidate = root.joinpath(*parts)
        if candidate.exists():
            return candidate
        tried.append(candidate)
    looked = ", ".join(str(p) for p in tried)
    raise FileNotFoundError(f"resource {'/'.join(parts)} not found (looked in: {looked})")


def sample_contract_path() -> Path:
    """The sample contract the app opens when started without a file."""
    return resource_path(*SAMPLE_CONTRACT)

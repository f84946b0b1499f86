"""The playbooks a user can pick: the ones shipped with Reviewer and the ones in their own folder.

The user's playbooks live in the app's data folder (``<data root>/playbooks``, private like the
rest of it): a firm's positions are confidential work product. A user file with the same file
name as a shipped one replaces it, so a firm can adapt "mutual-nda.yaml" and keep the name. A
broken user file is still listed, with its error, so the person sees why it cannot be picked
instead of it silently disappearing. Importing validates first and writes nothing when the
file is not a usable playbook; it never overwrites a playbook already in the folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...docx.atomic_write import write_atomically
from ...private_paths import data_root, private_dir
from ...resources import resource_path
from .docx_import import playbook_from_docx
from .model import Playbook
from .yaml_format import PlaybookError, dump_playbook, load_playbook, parse_playbook, read_playbook_text

#: Folder of the shipped playbooks inside ``resources/``, and of the user's inside the data root.
PLAYBOOKS_DIR = "playbooks"
YAML_SUFFIXES: tuple[str, ...] = (".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class PlaybookEntry:
    """One playbook file offered to the user: read (``playbook``) or not (``error`` says why)."""

    path: Path
    origin: str  # "shipped" or "user"
    playbook: Playbook | None = None
    error: str = ""

    @property
    def name(self) -> str:
        """What a list shows: the playbook's name, or the file name when it could not be read."""
        return self.playbook.name if self.playbook is not None else self.path.name


def user_playbook_dir() -> Path:
    """The user's playbook folder (not created until a playbook is imported)."""
    return data_root() / PLAYBOOKS_DIR


def shipped_playbook_dir() -> Path | None:
    """The folder of the playbooks Reviewer ships (None in an install that lacks it)."""
    try:
        return resource_path(PLAYBOOKS_DIR)
    except FileNotFoundError:
        return None


def _yaml_files(folder: Path | None) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in YAML_SUFFIXES and p.is_file())


def _entry(path: Path, origin: str) -> PlaybookEntry:
    try:
        return PlaybookEntry(path, origin, load_playbook(path))
    except PlaybookError as exc:
        return PlaybookEntry(path, origin, error=str(exc))


def list_playbooks() -> list[PlaybookEntry]:
    """Shipped and user playbooks by file name; a user file replaces a shipped one of the same name."""
    by_name = {p.name: _entry(p, "shipped") for p in _yaml_files(shipped_playbook_dir())}
    by_name.update({p.name: _entry(p, "user") for p in _yaml_files(user_playbook_dir())})
    return [by_name[name] for name in sorted(by_name)]


def import_playbook(path: str | Path) -> Path:
    """Validate the playbook at ``path`` and add it to the user's folder; returns the new file.

    A YAML file is copied as it is (comments and layout kept); a .docx table is converted and
    written as YAML under the document's name, so the lawyer can go on editing it as text. A file
    already in the folder under that name is kept: the import gets a free name (``name-2.yaml``).
    Raises :class:`PlaybookError` when the file is not a usable playbook; nothing is written then.
    """
    source = Path(path)
    suffix = source.suffix.lower()
    folder = user_playbook_dir()
    if suffix in YAML_SUFFIXES:
        text = read_playbook_text(source)
        parse_playbook(text, source.name)  # the text written is the text checked
    elif suffix == ".docx":
        header = f"# Imported from {source.name}. The format is described in docs/playbook-format.md.\n"
        text = header + dump_playbook(playbook_from_docx(source))
    else:
        raise PlaybookError(
            source.name, "is not a playbook: import a .yaml file or a .docx with a playbook table"
        )
    target = _free_name(folder, source.stem)
    private_dir(folder)
    write_atomically(target, text.encode("utf-8"))
    return target


def _free_name(folder: Path, stem: str) -> Path:
    """``<stem>.yaml`` in ``folder``, or ``<stem>-2.yaml``, ``-3``... when that name is taken."""
    candidate, n = folder / f"{stem}.yaml", 1
    while candidate.exists() or candidate.with_suffix(".yml").exists():
        n += 1
        candidate = folder / f"{stem}-{n}.yaml"
    return candidate

"""Safety limits applied before anything in a package is inflated or parsed.

They are generous for real contracts (the largest public test book is 2 MB zipped, about
20 MB of XML) and small enough that a hostile file cannot exhaust memory or time.
"""

from __future__ import annotations

#: Largest accepted .docx file on disk.
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Most members a package may hold.
MAX_MEMBERS = 10_000
#: Largest uncompressed size of one member.
MAX_MEMBER_BYTES = 120 * 1024 * 1024
#: Largest uncompressed size of all members together.
MAX_TOTAL_BYTES = 400 * 1024 * 1024
#: Largest compression ratio (uncompressed / compressed) of a member above ``RATIO_FLOOR_BYTES``.
MAX_COMPRESSION_RATIO = 200
#: Members smaller than this are not ratio-checked (tiny XML compresses extremely well).
RATIO_FLOOR_BYTES = 1024 * 1024

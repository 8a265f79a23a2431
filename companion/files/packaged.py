"""The parsed copies the package ships beside its YAML catalogs (``en.parsed.json``), so
that the kiosk's first frame, even at a first boot or right after an upgrade, parses no
shipped YAML (PyYAML builds every value in Python: a few ms a catalog, on the Pi more).

The YAML is the one source of truth: a copy is made from it here and read
(``yamlsrc._packaged_copy``) only while its header names the SHA-256 of the YAML's bytes.
After editing a catalog, run ``python -m companion.files.packaged`` to make its copy again;
``tests/files/test_packaged_copies.py`` fails until it is exactly what its YAML parses to.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.files.yamlsrc import load, packaged_copy_path, sha256_hex
from companion.i18n import LANGUAGES, catalog_path

MADE_BY = "python -m companion.files.packaged"


def packaged_sources() -> list[Path]:
    """The shipped YAML files read through ``yamlsrc.load_shipped``: the catalogs."""
    return [catalog_path(language) for language in LANGUAGES]


def made_copy(source: Path) -> bytes:
    """The packaged copy of ``source`` as it must be: a header line (the SHA-256 of the
    YAML's bytes and of the data, what made it), then the data of the YAML's full, checked
    parse as JSON (one line, in the YAML's order)."""
    raw = source.read_bytes()
    payload = json.dumps(load(source).data, ensure_ascii=False).encode("utf-8") + b"\n"
    header = {"source_sha256": sha256_hex(raw), "data_sha256": sha256_hex(payload),
              "made_by": MADE_BY}
    return json.dumps(header).encode("ascii") + b"\n" + payload


def main() -> int:
    for source in packaged_sources():
        copy = packaged_copy_path(source)
        copy.write_bytes(made_copy(source))
        print(f"{copy}: made from {source.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

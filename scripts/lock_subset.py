"""Print the pinned, hashed entries of some packages from a uv lock file.

``make test-unit`` installs only the pure packages' dependencies (and pytest) at the exact
versions and hashes of requirements-dev.lock, into a virtualenv without Django, to prove
that ``tests/unit/`` and the engines need nothing of the shell::

    python scripts/lock_subset.py requirements-dev.lock pytest hypothesis py4swiss ...
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def entries(lock: str) -> dict[str, str]:
    """Each requirement block (``name==version ; marker \\`` and its hash lines) by name."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lock.splitlines():
        if re.match(r"^[A-Za-z0-9]", line):
            current = blocks.setdefault(canonical(re.split(r"[=<>;\s\[]", line, maxsplit=1)[0]), [])
            current.append(line)
        elif line.startswith("    --hash") and current is not None:
            current.append(line)
        else:
            current = None
    return {name: "\n".join(lines) for name, lines in blocks.items()}


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    blocks = entries(Path(argv[1]).read_text())
    missing = [name for name in argv[2:] if canonical(name) not in blocks]
    if missing:
        print(f"not in {argv[1]}: {', '.join(missing)}", file=sys.stderr)
        return 2
    for name in argv[2:]:
        print(blocks[canonical(name)].rstrip(" \\\n"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""What a tool that generates one committed file shares: write it, or with --check say that it is out of date."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def write_or_check(description: str, out: Path, text: Callable[[], str], tool: str) -> int:
    """Write `text()` to `out`, or with --check compare instead (exit status 1 when it differs)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    args = parser.parse_args()
    if args.check:
        if not out.exists() or out.read_text(encoding="utf-8") != text():
            print(f"{out.relative_to(ROOT)} is out of date: run python {Path(tool).relative_to(ROOT)}")
            return 1
        return 0
    out.write_text(text(), encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")
    return 0

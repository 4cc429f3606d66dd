"""What the golden-data tools share: the file format, and writing the files or checking them."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def dump(document: dict) -> str:
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def main(description: str, golden: Path, perft: Path, golden_documents: Callable[[], dict[str, dict]],
         perft_document: Callable[[], dict]) -> int:
    """Write the golden games (one file each in `golden`) and the perft counts, or with --check say which files
    differ from what the tool computes now (exit status 1)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = parser.parse_args()
    wanted = {golden / name: dump(doc) for name, doc in golden_documents().items()}
    wanted[perft] = dump(perft_document())
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, text in wanted.items() if not p.exists() or p.read_text() != text]
        extra = [str(p.relative_to(ROOT)) for p in golden.glob("*.json") if p not in wanted]
        for path in stale + extra:
            print(f"differs: {path}")
        return 1 if stale or extra else 0
    golden.mkdir(parents=True, exist_ok=True)
    for old in golden.glob("*.json"):
        if old not in wanted:
            old.unlink()
    for path, text in wanted.items():
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0

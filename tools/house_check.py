#!/usr/bin/env python3
"""The house rules of the source tree, checked (DEVELOPERS.md, shared/style.md §7).

    python3 tools/house_check.py          # from the repository root; exit 1 on a finding

Finds, and lists:
* functions of more than 150 lines in `src/` (outside the data tables `src/data/cards.rs` and
  `src/data/map.rs`), counted from the `fn` line to its closing brace;
* files of more than 1,200 lines in `src/`, outside the data tables and the card-event files
  (`src/engine/events/`);
* comments, names and strings in `src/` and `tests/` that cite work items ("issue 12",
  "session 11") instead of rules or specs;
* test files named after how or when they were written (`attack`, `trial`, a number) instead of
  what they check;
* a `src/main.rs` of 100 lines or more.
"""
import glob
import os
import re
import sys

MAX_FN = 150
MAX_FILE = 1200
DATA_TABLES = ("src/data/cards.rs", "src/data/map.rs")
EVENT_FILES = "src/engine/events/"


def long_functions(path, lines):
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)(pub(\([a-z:]+\))? )?(const )?(async )?(unsafe )?fn (\w+)", line)
        if not m or line.rstrip().endswith(";"):
            continue
        for j in range(i + 1, len(lines)):
            if lines[j] == m.group(1) + "}":
                if j - i > MAX_FN:
                    out.append(f"{path}:{i + 1}: fn {m.group(7)} is {j - i} lines")
                break
    return out


def main():
    findings = []
    for path in sorted(glob.glob("src/**/*.rs", recursive=True)):
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
        if path in DATA_TABLES:
            continue
        findings += long_functions(path, lines)
        if not path.startswith(EVENT_FILES) and len(lines) - 1 > MAX_FILE:
            findings.append(f"{path}: {len(lines) - 1} lines")
    work_item = re.compile(r"\b(issue|session) [0-9]+", re.IGNORECASE)
    for path in sorted(glob.glob("src/**/*.rs", recursive=True) + glob.glob("tests/**/*.rs", recursive=True)):
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            if work_item.search(line):
                findings.append(f"{path}:{n}: cites a work item: {line.strip()[:100]}")
    for name in sorted(os.listdir("tests")):
        if re.search(r"attack|trial|^s[0-9]+_|[a-z][0-9]+_", name):
            findings.append(f"tests/{name}: named after how it was written")
    main_lines = open("src/main.rs", encoding="utf-8").read().count("\n")
    if main_lines >= 100:
        findings.append(f"src/main.rs: {main_lines} lines (under 100 wanted)")
    for f in findings:
        print(f)
    print(f"{len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Turns check.sh's results and figures (tab-separated) into one JSON file and the summary table.

usage: results_json.py RESULTS.tsv FIGURES.tsv OUT.json [KEY=VALUE...]
RESULTS.tsv: check, status, message. FIGURES.tsv: check, key, value (numbers and JSON
objects become what they are).
KEY=VALUE pairs describe the run (machine, driver, build). Prints the table on stdout.
"""
import json
import sys


def typed(text: str):
    if text.startswith(("{", "[")):
        try:
            return json.loads(text)
        except ValueError:
            return text
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_rows(path: str, columns: int):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == columns:
                yield fields


def main() -> int:
    results_path, figures_path, out_path = sys.argv[1:4]
    run = dict(arg.split("=", 1) for arg in sys.argv[4:] if "=" in arg)
    checks = [{"check": c, "status": s, "message": m} for c, s, m in read_rows(results_path, 3)]
    figures = {}
    for check, key, value in read_rows(figures_path, 3):
        figures.setdefault(check, {})[key] = typed(value)
    counts = {s: sum(1 for c in checks if c["status"] == s) for s in ("PASS", "FAIL", "SKIP")}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"run": run, "counts": counts, "checks": checks, "figures": figures}, f, indent=1)
    width = max([len(c["check"]) for c in checks] + [5])
    print(f"{'status':<6} {'check':<{width}} figures")
    for c in checks:
        message = c["message"] if len(c["message"]) <= 200 else c["message"][:197] + "..."
        print(f"{c['status']:<6} {c['check']:<{width}} {message}")
    print(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())

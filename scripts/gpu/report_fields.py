#!/usr/bin/env python3
"""Prints one field of a `tidepool report --format json` file, for scripts/gpu/check.sh.

usage: report_fields.py REPORT.json FIELD
FIELD is a key of the process with the highest peak_requested_bytes (dots reach into objects,
e.g. runtime.pool_hits), or `process_count`. Prints nothing and exits 1 when it is absent.
"""
import json
import sys


def main() -> int:
    path, field = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        processes = json.load(f).get("processes", [])
    if field == "process_count":
        print(len(processes))
        return 0
    if not processes:
        return 1
    value = max(processes, key=lambda p: p.get("peak_requested_bytes", 0))
    for key in field.split("."):
        if not isinstance(value, dict) or key not in value:
            return 1
        value = value[key]
    print(json.dumps(value) if isinstance(value, (dict, list)) else value)
    return 0


if __name__ == "__main__":
    sys.exit(main())

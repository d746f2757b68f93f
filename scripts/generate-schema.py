#!/usr/bin/env python3
"""Turns the FCM v1 discovery document into the schema file fcmlint's `schema` function reads.

Usage: scripts/generate-schema.py [DISCOVERY.json] [OUTPUT.json]
Defaults: schemas/discovery/fcm.v1.discovery.json -> rules/schema/fcm-v1.json

The output lists, for every message type reachable from SendMessageRequest, its fields under both
proto3 JSON spellings (lowerCamelCase from the discovery document and the proto snake_case name,
which the server accepts alike) and their wire types. Deterministic: sorted keys, stable order.
"""
import json
import re
import sys

ROOT = "SendMessageRequest"


def snake(name):
    return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def field_type(prop):
    """The wire type of one discovery property."""
    if "$ref" in prop:
        return {"type": "message", "ref": prop["$ref"]}
    t = prop.get("type")
    fmt = prop.get("format")
    if t == "array":
        item = field_type(prop["items"])
        item["repeated"] = True
        return item
    if t == "string":
        if "enum" in prop:
            return {"type": "enum", "values": prop["enum"]}
        if fmt == "google-duration":
            return {"type": "duration"}
        if fmt == "google-datetime":
            return {"type": "timestamp"}
        if fmt in ("int64", "uint64"):
            return {"type": "int64"}
        return {"type": "string"}
    if t == "integer":
        return {"type": "int32" if fmt in ("int32", None) else fmt}
    if t == "number":
        return {"type": "float"}
    if t == "boolean":
        return {"type": "bool"}
    if t == "object":
        extra = prop.get("additionalProperties")
        if extra and extra.get("type") == "string":
            return {"type": "map", "valueType": "string"}
        return {"type": "struct"}  # google.protobuf.Struct: free-form JSON
    if t == "any":
        return {"type": "any"}
    raise SystemExit("unhandled discovery property: %r" % prop)


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "schemas/discovery/fcm.v1.discovery.json"
    output = sys.argv[2] if len(sys.argv) > 2 else "rules/schema/fcm-v1.json"
    with open(source, encoding="utf-8") as f:
        discovery = json.load(f)
    schemas = discovery["schemas"]

    types = {}
    pending = [ROOT]
    while pending:
        name = pending.pop()
        if name in types:
            continue
        fields = []
        for json_name, prop in sorted(schemas[name].get("properties", {}).items()):
            entry = field_type(prop)
            entry["json"] = json_name
            entry["proto"] = snake(json_name)
            description = prop.get("description", "")
            if prop.get("deprecated") or description.startswith("Deprecated"):
                entry["deprecated"] = True
            if description.startswith("Output Only"):
                entry["outputOnly"] = True
            fields.append(entry)
            if entry["type"] == "message":
                pending.append(entry["ref"])
        types[name] = {"fields": fields}

    schema = {
        "name": "fcm-v1",
        "source": "FCM v1 discovery document (%s), revision %s" % (source.split("/")[-1], discovery["revision"]),
        "generatedBy": "scripts/generate-schema.py",
        "root": ROOT,
        "types": types,
    }
    with open(output, "w", encoding="utf-8") as f:
        json.dump(schema, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()

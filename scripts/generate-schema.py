#!/usr/bin/env python3
"""Turns the FCM v1 discovery document into the schema file fcmlint's `schema` function reads.

Usage: scripts/generate-schema.py [DISCOVERY.json] [OUTPUT.json] [EDITOR-SCHEMA.json] [DESCRIPTIONS.json]
Defaults: schemas/discovery/fcm.v1.discovery.json -> rules/schema/fcm-v1.json,
schemas/fcm-v1-send-request.schema.json and rules/schema/fcm-v1.descriptions.json

The second output is a JSON Schema (draft-07, which editors' JSON support reads) of the send
request, with the discovery document's descriptions, for completion and hover in an editor
without fcmlint (VS Code's `json.schemas`); fcmlint's rules say more than a schema can.

The third output holds the discovery document's descriptions of those types, their fields and
enum values, for the language server's completion and hover (`fcmlint lsp`). It is a file apart
from the schema so that a lint, which reads the schema at every start, does not parse them.

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


def editor_property(entry, description):
    """One field of the editor schema."""
    kind = entry["type"]
    if kind == "message":
        prop = {"$ref": "#/definitions/" + entry["ref"]}
    elif kind == "enum":
        # The server reads enum names in any case (the Admin SDKs send "high", "public").
        prop = {"type": "string", "enum": entry["values"] + [v.lower() for v in entry["values"] if v.lower() != v]}
    elif kind == "duration":
        prop = {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]{1,9})?s$"}
    elif kind == "timestamp":
        prop = {"type": "string", "format": "date-time"}
    elif kind == "int64":
        prop = {"type": ["string", "integer"]}
    elif kind in ("int32", "uint32"):
        prop = {"type": "integer"}
    elif kind == "float":
        prop = {"type": "number"}
    elif kind == "bool":
        prop = {"type": "boolean"}
    elif kind == "map":
        prop = {"type": "object", "additionalProperties": {"type": "string"}}
    elif kind == "struct":
        prop = {"type": "object"}
    elif kind == "any":
        prop = {}
    else:
        prop = {"type": "string"}
    if entry.get("repeated"):
        prop = {"type": "array", "items": prop}
    if description:
        # $ref siblings are ignored by draft-07 validators, but editors show the description.
        prop = dict(prop, description=description, markdownDescription=description)
    if entry.get("deprecated"):
        prop["deprecated"] = True
    return prop


def editor_schema(discovery, types, source):
    schemas = discovery["schemas"]
    definitions = {}
    for name, info in sorted(types.items()):
        properties = {}
        for entry in info["fields"]:
            if entry.get("outputOnly"):
                continue
            description = schemas[name]["properties"][entry["json"]].get("description", "")
            prop = editor_property(entry, description)
            properties[entry["json"]] = prop
            if entry["proto"] != entry["json"]:
                properties[entry["proto"]] = prop
        definitions[name] = {
            "type": "object",
            "description": schemas[name].get("description", ""),
            "properties": properties,
            "additionalProperties": False,
        }
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "FCM HTTP v1 send request (projects.messages.send body)",
        "description": "Generated by scripts/generate-schema.py from the FCM v1 discovery document (%s, revision %s). "
        "Field names in both spellings the server accepts (lowerCamelCase and snake_case). fcmlint checks much more than this schema can."
        % (source.split("/")[-1], discovery["revision"]),
        "$ref": "#/definitions/" + ROOT,
        "definitions": definitions,
    }


def descriptions(discovery, types, source):
    """The descriptions of every type in `types`, its fields (by JSON name) and enum values."""
    schemas = discovery["schemas"]
    out = {}
    for name in sorted(types):
        entry = {"description": schemas[name].get("description", ""), "fields": {}, "values": {}}
        for json_name, prop in sorted(schemas[name].get("properties", {}).items()):
            if prop.get("description"):
                entry["fields"][json_name] = prop["description"]
            item = prop.get("items", prop)
            if "enum" in item and "enumDescriptions" in item:
                entry["values"][json_name] = dict(zip(item["enum"], item["enumDescriptions"]))
        out[name] = entry
    return {
        "generatedBy": "scripts/generate-schema.py",
        "schema": "fcm-v1",
        "source": "FCM v1 discovery document (%s), revision %s" % (source.split("/")[-1], discovery["revision"]),
        "types": out,
    }


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
    editor_output = sys.argv[3] if len(sys.argv) > 3 else "schemas/fcm-v1-send-request.schema.json"
    with open(editor_output, "w", encoding="utf-8") as f:
        json.dump(editor_schema(discovery, types, source), f, indent=1, sort_keys=True)
        f.write("\n")
    descriptions_output = sys.argv[4] if len(sys.argv) > 4 else "rules/schema/fcm-v1.descriptions.json"
    with open(descriptions_output, "w", encoding="utf-8") as f:
        json.dump(descriptions(discovery, types, source), f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()

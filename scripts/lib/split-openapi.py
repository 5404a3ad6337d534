"""Splits an OpenAPI 3 document into many files, for scripts/generator-check.sh.

  python3 split-openapi.py <document> <directory>

Writes <directory>/api.json, whose `components` entries and `paths` items are each only a `$ref`
to a file of their own: every component goes to <section>/<Name>.json and every path item to
paths/<n>.json. Each `#/components/...` reference (in `$ref` and in a discriminator's `mapping`) is
rewritten to the file that now holds its target, relative to the file it is written in. Example
values, enums, defaults of schemas and `x-` extensions are data and stay as they are. Prints the
number of files written. Exits 3, writing nothing, for a document that is not OpenAPI 3.

YAML is read as YAML 1.2's core schema reads it, as courier-generate does: `yes`, `no`, `on` and
`off` stay strings, and so do dates.
"""

import json
import os
import re
import sys

import yaml


class CoreLoader(yaml.SafeLoader):
    """PyYAML's safe loader without YAML 1.1's extra booleans and timestamps."""


CoreLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)

DATA_KEYS = ("example", "enum", "value")


def file_name(name):
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def unescape(token):
    return token.replace("~1", "/").replace("~0", "~")


def moved(reference, directory):
    """Where a `#/components/<section>/<name>[/...]` reference now points, seen from `directory`."""
    if not isinstance(reference, str) or not reference.startswith("#/components/"):
        return reference
    tokens = reference[2:].split("/")
    if len(tokens) < 3:
        return reference
    target = os.path.relpath(f"{tokens[1]}/{file_name(unescape(tokens[2]))}.json", directory or ".")
    return target + ("#/" + "/".join(tokens[3:]) if len(tokens) > 3 else "")


def rewrite(value, directory):
    if isinstance(value, list):
        return [rewrite(element, directory) for element in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, member in value.items():
        if key == "$ref":
            out[key] = moved(member, directory)
        elif key in DATA_KEYS or key.startswith("x-") or (key == "default" and "type" in value):
            out[key] = member
        elif key == "examples" and isinstance(member, list):
            out[key] = member
        elif key == "mapping" and isinstance(member, dict):
            out[key] = {name: moved(target, directory) for name, target in member.items()}
        else:
            out[key] = rewrite(member, directory)
    return out


def main(source, directory):
    with open(source) as handle:
        document = yaml.load(handle, Loader=CoreLoader)
    if not isinstance(document, dict) or "openapi" not in document:
        return 3
    written = 0

    def write(path, value):
        nonlocal written
        full = os.path.join(directory, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as handle:
            json.dump(value, handle, default=str)
        written += 1

    components = document.get("components") or {}
    for section, entries in components.items():
        if section == "securitySchemes" or not isinstance(entries, dict):
            continue
        for name, value in list(entries.items()):
            path = f"{section}/{file_name(name)}.json"
            write(path, rewrite(value, section))
            entries[name] = {"$ref": path}
    paths = document.get("paths") or {}
    for index, (path, item) in enumerate(list(paths.items())):
        write(f"paths/{index}.json", rewrite(item, "paths"))
        paths[path] = {"$ref": f"paths/{index}.json"}
    main_document = rewrite({key: value for key, value in document.items() if key not in ("paths", "components")}, "")
    main_document["paths"] = paths
    main_document["components"] = components
    write("api.json", main_document)
    print(written)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

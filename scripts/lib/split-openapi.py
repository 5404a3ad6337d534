"""Splits an OpenAPI 3 or Swagger 2.0 document into many files, for scripts/generator-check.sh.

  python3 split-openapi.py <document> <directory>

Writes <directory>/api.json, whose components and `paths` items are each only a `$ref` to a file
of their own: every component goes to <section>/<Name>.json (OpenAPI 3's `components` sections;
Swagger's `definitions`, `parameters` and `responses`) and every path item to paths/<n>.json. Each
reference to a component (in `$ref` and in a discriminator's `mapping`) is rewritten to the file
that now holds its target, relative to the file it is written in. Example values, enums, defaults
of schemas and `x-` extensions are data and stay as they are. Prints the number of files written.
Exits 3, writing nothing, for a document that is neither.

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


SWAGGER_SECTIONS = ("definitions", "parameters", "responses")


def moved(reference, directory):
    """Where a reference to a component (`#/components/<section>/<name>[/...]`, or Swagger's
    `#/<section>/<name>[/...]`) now points, seen from `directory`."""
    if not isinstance(reference, str) or not reference.startswith("#/"):
        return reference
    tokens = reference[2:].split("/")
    if tokens[0] == "components" and len(tokens) >= 3:
        section, name, rest = tokens[1], tokens[2], tokens[3:]
    elif tokens[0] in SWAGGER_SECTIONS and len(tokens) >= 2:
        section, name, rest = tokens[0], tokens[1], tokens[2:]
    else:
        return reference
    target = os.path.relpath(f"{section}/{file_name(unescape(name))}.json", directory or ".")
    return target + ("#/" + "/".join(rest) if rest else "")


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
    if not isinstance(document, dict) or ("openapi" not in document and document.get("swagger") != "2.0"):
        return 3
    swagger = "swagger" in document
    written = 0

    def write(path, value):
        nonlocal written
        full = os.path.join(directory, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as handle:
            json.dump(value, handle, default=str)
        written += 1

    components = (
        {section: document.get(section) for section in SWAGGER_SECTIONS if section in document}
        if swagger
        else document.get("components") or {}
    )
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
    kept = ("paths",) + (SWAGGER_SECTIONS if swagger else ("components",))
    main_document = rewrite({key: value for key, value in document.items() if key not in kept}, "")
    main_document["paths"] = paths
    if swagger:
        main_document.update(components)
    else:
        main_document["components"] = components
    write("api.json", main_document)
    print(written)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

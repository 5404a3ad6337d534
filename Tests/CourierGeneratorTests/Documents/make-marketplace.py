#!/usr/bin/env python3
"""Writes marketplace.yaml: the generator's large test document (OpenAPI 3.1, 108 operations over
12 tags, every schema kind the generator supports). Run it again after changing it:
    python3 Tests/CourierGeneratorTests/Documents/make-marketplace.py
"""
import json, os

def ref(name):
    return {"$ref": "#/components/schemas/" + name}

schemas = {
    "Timestamped": {"type": "object", "required": ["createdAt"], "properties": {
        "createdAt": {"type": "string", "format": "date-time"},
        "updatedAt": {"type": ["string", "null"], "format": "date-time"}}},
    "Role": {"type": "string", "enum": ["admin", "member", "read-only", "2nd-line"]},
    "Priority": {"type": "integer", "enum": [1, 2, 3]},
    "SortOrder": {"type": "string", "enum": ["asc", "desc"]},
    "Money": {"type": "object", "required": ["amount", "currency"], "properties": {
        "amount": {"type": "number", "examples": [12.5]},
        "currency": {"type": "string", "enum": ["EUR", "USD", "JPY"]}}},
    "Address": {"type": "object", "required": ["city"], "properties": {
        "street": {"type": "string"}, "city": {"type": "string", "examples": ["Kyoto"]},
        "zip-code": {"type": "string"}}},
    "User": {"description": "A user: timestamps plus an account.", "allOf": [ref("Timestamped"), {
        "type": "object", "required": ["id", "email", "role"], "properties": {
            "id": {"type": "string"}, "email": {"type": "string"}, "first-name": {"type": "string"},
            "class": {"type": "string"}, "default": {"type": "boolean"}, "self": {"type": "string"},
            "2fa": {"type": "boolean"}, "@type": {"type": "string"}, "role": ref("Role"),
            "address": {"oneOf": [ref("Address"), {"type": "null"}]}}}]},
    "Cat": {"type": "object", "required": ["petType", "name"], "properties": {
        "petType": {"type": "string"}, "name": {"type": "string"}, "indoor": {"type": "boolean"}}},
    "Dog": {"type": "object", "required": ["petType", "name"], "properties": {
        "petType": {"type": "string"}, "name": {"type": "string"}, "barks": {"type": "integer"}}},
    "Pet": {"oneOf": [ref("Cat"), ref("Dog")], "discriminator": {"propertyName": "petType",
        "mapping": {"cat": "#/components/schemas/Cat", "dog": "#/components/schemas/Dog"}}},
    "OrderLine": {"type": "object", "required": ["sku", "quantity"], "properties": {
        "sku": {"type": "string"}, "quantity": {"type": "integer", "format": "int32"}, "price": ref("Money")}},
    "Order": {"type": "object", "required": ["id", "lines", "status"], "properties": {
        "id": {"type": "string"}, "lines": {"type": "array", "items": ref("OrderLine")},
        "total": ref("Money"), "status": {"type": "string", "enum": ["placed", "paid", "shipped", "cancelled"]},
        "placedAt": {"type": "string", "format": "date-time"}, "notes": {"type": ["string", "null"]},
        "metadata": {"type": "object", "additionalProperties": {"type": "string"}}}},
    "Product": {"type": "object", "required": ["id", "name", "price"], "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "price": ref("Money"),
        "dimensions": {"type": "object", "properties": {"width": {"type": "number"}, "height": {"type": "number"}}},
        "tags": {"type": "array", "items": {"type": "string"}}, "image": {"type": "string", "format": "binary"},
        "attributes": {"type": "object", "additionalProperties": True}}},
    "Review": {"type": "object", "required": ["id", "rating"], "properties": {
        "id": {"type": "string"}, "rating": ref("Priority"), "body": {"type": "string"}, "author": ref("User")}},
    "Circle": {"type": "object", "required": ["radius"], "properties": {"radius": {"type": "number"}}},
    "Square": {"type": "object", "required": ["side", "label"], "properties": {
        "side": {"type": "number"}, "label": {"type": "string"}}},
    "Polygon": {"type": "object", "required": ["points"], "properties": {
        "points": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}}},
    "Shape": {"anyOf": [ref("Polygon"), ref("Square"), ref("Circle")]},
    "Node": {"type": "object", "required": ["name", "children"], "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": ref("Node")},
        "parent": ref("Node"), "next": {"oneOf": [ref("Node"), {"type": "null"}]}}},
    "File": {"type": "object", "required": ["name", "size"], "properties": {
        "name": {"type": "string"}, "size": {"type": "integer", "format": "int64"},
        "content": {"type": "string", "format": "binary"}, "checksum": {"type": "string", "contentEncoding": "base64"}}},
    "Setting": {"type": "object", "required": ["key", "overrides"], "properties": {
        "key": {"type": "string"}, "value": {}, "overrides": {"type": "object", "additionalProperties": {"type": "integer"}}},
        "additionalProperties": {"type": "string"}},
    "Report": {"type": "object", "required": ["id", "generatedAt"], "properties": {
        "id": {"type": "string"}, "generatedAt": {"type": "string", "format": "date-time"},
        "rows": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        "summary": {"type": "object", "additionalProperties": ref("Money")}, "version": {"const": "v1"}}},
    "Category": {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string"}, "subcategories": {"type": "array", "items": ref("Category")}}},
    "Article": {"allOf": [ref("Timestamped"), {"type": "object", "required": ["id", "title"], "properties": {
        "id": {"type": "string"}, "title": {"type": "string"}, "category": ref("Category"),
        "priority": ref("Priority")}}]},
    "Warehouse": {"type": "object", "required": ["kind", "code"], "properties": {
        "kind": {"type": "string"}, "code": {"type": "string"}}},
    "Store": {"type": "object", "required": ["kind", "address"], "properties": {
        "kind": {"type": "string"}, "address": ref("Address")}},
    "InventoryItem": {"type": "object", "required": ["sku", "quantity", "location"], "properties": {
        "sku": {"type": "string"}, "quantity": {"type": "integer"},
        "location": {"oneOf": [ref("Warehouse"), ref("Store")], "discriminator": {"propertyName": "kind"}}}},
    "Attachment": {"type": "object", "required": ["id", "bytes"], "properties": {
        "id": {"type": "string"}, "bytes": {"type": "integer"}}},
    "Problem": {"type": "object", "required": ["message"], "properties": {"message": {"type": "string"}}},
}

resources = [("Users", "users", "User"), ("Pets", "pets", "Pet"), ("Orders", "orders", "Order"),
    ("Products", "products", "Product"), ("Reviews", "reviews", "Review"), ("Shapes", "shapes", "Shape"),
    ("Nodes", "nodes", "Node"), ("Files", "files", "File"), ("Settings", "settings", "Setting"),
    ("Reports", "reports", "Report"), ("Articles", "articles", "Article"),
    ("Inventory", "inventory", "InventoryItem")]

def json_response(schema, status="200", description="the value"):
    return {status: {"description": description, "content": {"application/json": {"schema": schema}}},
        "404": {"description": "not found", "content": {"application/json": {"schema": ref("Problem")}}}}

paths = {}
id_param = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
for tag, path, schema in resources:
    singular = schema
    collection, item = "/" + path, "/" + path + "/{id}"
    paths[collection] = {
        "get": {"tags": [tag], "operationId": "list" + tag, "summary": "Lists the " + path + ", a page at a time",
            "security": [],
            "parameters": [
                {"name": "page", "in": "query", "schema": {"type": "integer"}},
                {"name": "size", "in": "query", "schema": {"type": "integer"}},
                {"name": "sort", "in": "query", "schema": ref("SortOrder")},
                {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
                {"name": "roles", "in": "query", "schema": {"type": "array", "items": ref("Role")}},
                {"name": "since", "in": "query", "schema": {"type": "string", "format": "date-time"}},
                {"name": "include-deleted", "in": "query", "schema": {"type": "boolean"}}],
            "responses": json_response({"type": "object", "required": ["items", "total"], "properties": {
                "items": {"type": "array", "items": ref(schema)}, "total": {"type": "integer"},
                "next": {"type": ["string", "null"]}}})},
        "post": {"tags": [tag], "operationId": "create" + singular, "summary": "Creates one",
            "requestBody": {"required": True, "content": {"application/json": {"schema": ref(schema)}}},
            "responses": json_response(ref(schema), "201", "created")}}
    paths[item] = {
        "parameters": [id_param],
        "get": {"tags": [tag], "operationId": "get" + singular, "summary": "Reads one",
            "parameters": [{"name": "X-Request-ID", "in": "header", "schema": {"type": "string"}},
                {"name": "X-Priority", "in": "header", "required": True, "schema": ref("Priority")}],
            "responses": json_response(ref(schema))},
        "put": {"tags": [tag], "operationId": "replace" + singular, "summary": "Replaces one",
            "requestBody": {"required": True, "content": {"application/json": {"schema": ref(schema)}}},
            "responses": json_response(ref(schema))},
        "patch": {"tags": [tag], "operationId": "patch" + singular, "summary": "Changes some fields",
            "parameters": [{"name": "dry-run", "in": "query", "schema": {"type": "boolean"}}],
            "requestBody": {"content": {"application/merge-patch+json": {"schema": {"type": "object",
                "properties": {"label": {"type": "string"}, "archived": {"type": "boolean"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}},
            "responses": json_response(ref(schema))},
        "delete": {"tags": [tag], "operationId": "delete" + singular, "summary": "Deletes one",
            "security": [{"basic": []}], "responses": {"204": {"description": "deleted"}}}}
    paths[item + "/attachments"] = {"post": {"tags": [tag], "operationId": "upload" + singular + "Attachment",
        "summary": "Attaches a file", "parameters": [id_param],
        "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object", "required": ["file"],
            "properties": {"file": {"type": "string", "format": "binary"}, "caption": {"type": "string"},
                "labels": {"type": "array", "items": {"type": "string"}}, "priority": ref("Priority"),
                "takenAt": {"type": "string", "format": "date-time"}, "size": ref("Money")}}}}},
        "responses": json_response(ref("Attachment"), "201", "attached")}}
    paths[item + "/export"] = {"get": {"tags": [tag], "operationId": "export" + singular,
        "summary": "Exports one as bytes", "parameters": [id_param], "security": [{"apiKey": []}],
        "responses": {"200": {"description": "the bytes", "content": {"application/octet-stream": {
            "schema": {"type": "string", "format": "binary"}}}}}}}
    paths[collection + "/search"] = {"post": {"tags": [tag], "operationId": "search" + tag,
        "summary": "Searches with a form",
        "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object",
            "required": ["q"], "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}}}},
        "responses": json_response({"type": "array", "items": ref(schema)})}}

document = {
    "openapi": "3.1.0",
    "info": {"title": "Marketplace", "version": "3.0.0",
        "description": "The generator's large test document (written by make-marketplace.py)."},
    "servers": [{"url": "https://api.marketplace.example/v3"}],
    "security": [{"oauth": ["read", "write"]}],
    "paths": paths,
    "components": {"schemas": schemas, "securitySchemes": {
        "oauth": {"type": "oauth2", "flows": {"clientCredentials": {
            "tokenUrl": "https://auth.marketplace.example/token", "scopes": {"read": "read", "write": "write"}}}},
        "basic": {"type": "http", "scheme": "basic"},
        "apiKey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"}}},
}

# JSON is valid YAML; one key per line keeps diffs readable.
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "marketplace.yaml"), "w") as out:
    out.write("# Written by make-marketplace.py: the generator's large test document.\n")
    out.write(json.dumps(document, indent=1, sort_keys=True) + "\n")

"""The OpenAPI side of the wire checks (`wire.ts`, docs/targets.md#pydantic-graph): every HTTP request
that arrived at the local server for a task of a `use openapi` description, validated against that
description by openapi-core (its method and path matched to an operation, the path and query
parameters, the content type and the body, each against its schema). Reads a JSON file of
`{"requests": [{"description", "server", "method", "url", "type", "body"}]}` and prints one JSON list:
for each request, null when the description takes it, or what openapi-core said of it. Prints
`{"missing": "<why>"}` instead when openapi-core cannot be imported.
"""

from __future__ import annotations

import json
import sys
from typing import Any
from urllib.parse import parse_qs, urlsplit

try:
    from openapi_core import OpenAPI
    from openapi_core.testing import MockRequest
except ImportError as e:
    print(json.dumps({"missing": f"openapi-core cannot be imported ({e})"}))
    sys.exit(0)

requests = json.loads(open(sys.argv[1], encoding="utf-8").read())["requests"]
read: dict[tuple[str, str | None], OpenAPI] = {}


def described(path: str, server: str | None) -> OpenAPI:
    """The description at `path`, its servers replaced by the flow's `url` when it gives one."""
    key = (path, server)
    if key not in read:
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        if server is not None:
            spec["servers"] = [{"url": server}]
        read[key] = OpenAPI.from_dict(spec)
    return read[key]


def problem(r: dict[str, Any]) -> str | None:
    """What openapi-core says of one request, or None when the description takes it."""
    api = described(r["description"], r["server"])
    server = urlsplit(str((api.spec.get("servers") or [{"url": "http://localhost"}])[0]["url"]))
    split = urlsplit(r["url"])
    request = MockRequest(
        f"{server.scheme}://{server.netloc}",
        r["method"].lower(),
        split.path,
        args={k: v[0] if len(v) == 1 else v for k, v in parse_qs(split.query, keep_blank_values=True).items()},
        data=r["body"].encode("utf-8"),
        content_type=r["type"] or "",
    )
    errors = [str(e) for e in api.iter_request_errors(request)]
    return "; ".join(errors) if errors else None


print(json.dumps([problem(r) for r in requests]))

"""How the pydantic-graph runners' stub `Transport` answers an HTTP request and a Lambda function from a
scenario's answer (`{"ok": value}` or `{"error": name, "cause": text}`), so that the verify run
(`pydantic_graph_runner.py`) and the wire check (`pydantic_graph_wire_runner.py`) answer alike. `wire`
is the declared error's wire name (an HTTP status, an `errorType`), None for a failure.
"""

from __future__ import annotations

from typing import Any


def cause(a: dict[str, Any]) -> str:
    return str(a.get("cause") or "")


def http_answer(io: Any, a: dict[str, Any], wire: str | None) -> Any:
    """A 200 with the value's JSON (empty for null), or the error's status (500 for a failure) with its cause."""
    if "ok" in a:
        return io.HttpResponse(200, "" if a["ok"] is None else io.json_text(a["ok"]))
    return io.HttpResponse(500 if wire is None else int(wire), cause(a))


def lambda_answer(io: Any, a: dict[str, Any], wire: str | None) -> Any:
    """The value as the payload, or the error's `errorType` (`Error` for a failure) with its cause."""
    if "ok" in a:
        return io.LambdaPayload(a["ok"])
    return io.LambdaError(wire or "Error", cause(a))

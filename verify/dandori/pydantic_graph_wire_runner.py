"""The wire runner of the pydantic-graph target (`pydantic_graph_wire.ts`): every call of the jobs file
through its generated task (`make_tasks(own, transport)` of the flow's package), once through the
generated `io.py`'s default `transport()` — urllib with each URL's scheme and host replaced by the local
server's, boto3 to wherever `AWS_ENDPOINT_URL` and `AWS_ENDPOINT_URL_LAMBDA` say — and once through a
stub that answers the same answer as the verify run's stub does (`pydantic_graph_answers.py`). Around the first it tells the local
server which call it sends (`/dandori-wire/<id>/before`) and that it has sent it (`…/after`), so the
server answers it and checks what arrived. It prints each call's two outcomes, and the outcome of
`sns:publish` to a topic that does not exist (`aws_error`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import re
import sys
import urllib.request
from typing import Any

from pydantic_graph_answers import http_answer, lambda_answer

jobs = json.loads(open(sys.argv[1], encoding="utf-8").read())
sys.path.insert(0, jobs["dir"])
local: str = jobs["local"]


def control(what: str) -> None:
    """Tells the local server where the runner is; it answers once it is ready."""
    with urllib.request.urlopen(urllib.request.Request(f"{local}/dandori-wire/{what}", data=b"", method="POST")):
        pass


class LocalTransport:
    """The generated default transport, with each HTTP request sent to the local server instead."""

    def __init__(self, io: Any) -> None:
        self.base = io.transport()

    async def http(self, request: Any) -> Any:
        return await self.base.http(dataclasses.replace(request, url=re.sub(r"^https?://[^/]+", local, request.url)))

    async def lambda_(self, function: str, payload: Any) -> Any:
        return await self.base.lambda_(function, payload)

    async def aws(self, service: str, operation: str, args: dict[str, Any]) -> Any:
        return await self.base.aws(service, operation, args)

    async def book(self, call: Any) -> Any:
        raise RuntimeError("no book on the wire")


class AnsweringTransport:
    """Test double of `io.Transport`: answers one call's answer as `pydantic_graph_runner.py`'s stub does."""

    def __init__(self, io: Any, job: dict[str, Any]) -> None:
        self.io = io
        self.answer: dict[str, Any] = job["answer"]
        self.wire: str | None = job["wire"]

    async def http(self, request: Any) -> Any:
        return http_answer(self.io, self.answer, self.wire)

    async def lambda_(self, function: str, payload: Any) -> Any:
        return lambda_answer(self.io, self.answer, self.wire)

    async def aws(self, service: str, operation: str, args: dict[str, Any]) -> Any:
        raise RuntimeError("an AWS call's answer is moto's own")

    async def book(self, call: Any) -> Any:
        raise RuntimeError("no book on the wire")


async def outcome(work: Any) -> str:
    """What a task ended with, comparable as JSON: its result, or its error's name and message."""
    try:
        return json.dumps({"ok": await work}, ensure_ascii=False, default=str)
    except Exception as e:
        return json.dumps({"error": getattr(e, "kind", type(e).__name__), "message": str(e)}, ensure_ascii=False)


async def main() -> None:
    results = []
    io: Any = None
    for job in jobs["calls"]:
        io = importlib.import_module(f"{job['package']}.io")
        tasks = importlib.import_module(f"{job['package']}.tasks")

        def task(transport: Any) -> Any:
            return getattr(tasks.make_tasks(object(), transport), job["task"])(job["args"], job["call"])

        control(f"{job['id']}/before")
        try:
            sent = await outcome(task(LocalTransport(io)))
        finally:
            control(f"{job['id']}/after")
        stub = None if job["kind"] == "aws" else await outcome(task(AnsweringTransport(io, job)))
        results.append({"id": job["id"], "sent": sent, "stub": stub})
    e = jobs["aws_error"]
    aws_error = None
    if io is not None:
        aws_error = await outcome(io.aws(io.transport(), e["service"], e["operation"], e["args"], ()))
    print(json.dumps({"results": results, "aws_error": aws_error}, ensure_ascii=False))


asyncio.run(main())

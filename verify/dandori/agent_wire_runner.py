"""The Python side of the agents' wire check (`agent_wire.ts`): every agent call of the jobs file
through its generated task (`make_tasks(own, transport)` of the flow's pydantic-graph package), once
through the generated `io.py`'s default `transport()` — `openai`, `anthropic` and urllib, each URL's
scheme and host replaced by the local model server's — and, unless the call is a probe the server
answers 500, once through a stub that answers as the verify runs' stub does (`{"answer": …}`, a
failure raised). Before the first it tells the server which call it sends (`<control><id>/before`),
so the server answers it and keeps what arrives for it. It prints each call's two outcomes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import json
import sys
import urllib.parse
import urllib.request
from typing import Any

jobs = json.loads(open(sys.argv[1], encoding="utf-8").read())
sys.path.insert(0, jobs["dir"])
local: str = jobs["local"]


def control(what: str) -> None:
    """Tells the local server where the runner is; it answers once it is ready."""
    url = f"{local}{jobs['control']}{what}"
    with urllib.request.urlopen(urllib.request.Request(url, data=b"", method="POST")):
        pass


class LocalTransport:
    """The generated default transport, with each agent's request sent to the local server instead."""

    def __init__(self, io: Any) -> None:
        self.base = io.transport()

    async def agent(self, request: Any) -> Any:
        path = urllib.parse.urlsplit(request.url).path
        return await self.base.agent(dataclasses.replace(request, url=local + path))


class AnsweringTransport:
    """Test double of `io.Transport`: answers one agent call as the verify runs' stub does, a failure
    raised as the default transport raises a refusal (`io.AgentStopped`)."""

    def __init__(self, io: Any, answer: dict[str, Any]) -> None:
        self.io = io
        self.answer = answer

    async def agent(self, request: Any) -> Any:
        if "ok" in self.answer:
            return {"answer": self.answer["ok"]}
        raise self.io.AgentStopped("refused")


async def outcome(work: Any) -> str:
    """What a task ended with, comparable as JSON: its result, or its error's name."""
    try:
        return json.dumps({"ok": await work}, ensure_ascii=False)
    except Exception as e:
        return json.dumps({"error": getattr(e, "kind", type(e).__name__)}, ensure_ascii=False)


async def main() -> None:
    results = []
    for job in jobs["calls"]:
        tasks = importlib.import_module(f"{job['package']}.tasks")
        io = importlib.import_module(f"{job['package']}.io")

        def task(transport: Any) -> Any:
            return getattr(tasks.make_tasks(object(), transport), job["task"])(job["args"], {})

        control(f"{job['id']}/before")
        sent = await outcome(task(LocalTransport(io)))
        stub = None if job["probe"] else await outcome(task(AnsweringTransport(io, job["answer"])))
        results.append({"id": job["id"], "sent": sent, "stub": stub})
    print(json.dumps({"results": results}, ensure_ascii=False))


asyncio.run(main())

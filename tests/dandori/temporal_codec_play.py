"""Plays scenarios of a `history encrypted` flow's temporal-python package on a dev server, as a
user's program would run it (tests/dandori/temporal_codec_test.ts builds the package, starts the
server and reads the histories back; temporal_codec_play.ts does the same for TypeScript):

    python3 temporal_codec_play.py <jobs.json>

The program holds the key (`jobs["key"]`, hex) and makes `codec.AesGcmCodec` of it; the generated
worker runs with the client `client.connect` gives and with stub own tasks and a stub `Transport`
that record what reaches them in clear and answer from the scenario (a timeout blocks until the
server times the activity out); runs start with the generated `start`, callbacks are answered with
`answer`, events sent with `send` when `status` says they are awaited. Prints, as JSON, for every
run its ending, what the stubs received, and the raw payloads of the query `dandori.status` as a
client without the codec gets them; then whether the histories replay with the codec; and the
endings of runs another program started (`jobs["readAlso"]`), read through this package's client.
"""

import asyncio
import base64
import importlib
import json
import os
import sys
from typing import Any

from temporalio import activity
from temporalio.api.common.v1 import WorkflowExecution
from temporalio.api.query.v1 import WorkflowQuery
from temporalio.api.workflowservice.v1 import QueryWorkflowRequest
from temporalio.client import WorkflowFailureError
from temporalio.exceptions import ApplicationError, CancelledError

#: How long a stub blocks a timed-out activity: past the copy's heartbeat timeout.
BLOCK_SECONDS = 10


def ending_of(result: Any, error: BaseException | None) -> Any:
    if error is None:
        return {"succeed": result}
    if isinstance(error, WorkflowFailureError):
        cause = error.cause
        if isinstance(cause, ApplicationError):
            reason = cause.details[0] if len(cause.details) > 0 else (cause.message or None)
            return {"fail": {"error": cause.type, "reason": reason}}
        if isinstance(cause, CancelledError):
            return {"cancelled": True}
    return {"error": repr(error)}


async def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    sys.path.insert(0, jobs["root"])
    package = jobs["package"]
    worker_py = importlib.import_module(f"{package}.worker")
    client_py = importlib.import_module(f"{package}.client")
    codec_py = importlib.import_module(f"{package}.codec")
    io = importlib.import_module(f"{package}.io")
    codec = codec_py.AesGcmCodec(codec_py.CodecKey(jobs["keyId"], bytes.fromhex(jobs["key"])))
    client = await client_py.connect(jobs["address"], codec)
    run: dict[str, Any] = {}

    def take() -> Any:
        answer = run["answers"][run["next"]]
        run["next"] += 1
        return answer

    def answered(a: Any) -> dict[str, Any]:
        return {"ok": a["ok"]} if "ok" in a else {"error": a["error"], "message": a.get("cause") or ""}

    class Stub:
        async def http(self, request: Any) -> Any:
            run["received"].append(request.body)
            a = take()
            if "ok" in a:
                return io.HttpResponse(200, "" if a["ok"] is None else json.dumps(a["ok"]))
            if a["error"] == "timeout":
                await asyncio.sleep(BLOCK_SECONDS)
            return io.HttpResponse(500, a.get("cause") or "")

        async def lambda_(self, function: str, payload: Any) -> Any:
            raise AssertionError(f"no Lambda in these flows, but {function}")

        async def aws(self, service: str, operation: str, args: Any) -> Any:
            raise AssertionError(f"no AWS operation in these flows, but {service}.{operation}")

        async def book(self, call: Any) -> Any:
            raise AssertionError("no book in these flows")

    class Own:
        def __getattr__(self, name: str) -> Any:
            async def task(args: Any, call: Any) -> Any:
                run["received"].append(args)
                a = take()
                if "callback_id" in call:
                    workflow_id = activity.info().workflow_id
                    await client_py.answer(client, workflow_id, call["callback_id"], answered(a))
                    return None
                if "ok" in a:
                    return a["ok"]
                if a["error"] == "timeout":
                    await asyncio.sleep(BLOCK_SECONDS)
                kind = "Error" if a["error"] == "failure" else a["error"]
                raise ApplicationError(a.get("cause") or "", type=kind, non_retryable=True)

            return task

    async def events(workflow_id: str, done: asyncio.Event) -> None:
        sent = None
        while not done.is_set():
            await asyncio.sleep(0.05)
            try:
                status = await client_py.status(client, workflow_id)
            except Exception:
                continue
            name = status["events"][0] if len(status["events"]) > 0 else None
            if name is None or name == sent:
                continue
            sent = name
            await client_py.send(client, workflow_id, name, answered(take()))

    async def raw_query(workflow_id: str) -> list[Any]:
        got = await client.workflow_service.query_workflow(
            QueryWorkflowRequest(
                namespace="default",
                execution=WorkflowExecution(workflow_id=workflow_id),
                query=WorkflowQuery(query_type="dandori.status"),
            )
        )

        def b64(b: bytes) -> str:
            return base64.b64encode(b).decode()

        return [
            {"metadata": {k: b64(v) for k, v in p.metadata.items()}, "data": b64(p.data)}
            for p in got.query_result.payloads
        ]

    results = []
    histories = []
    read_also = {}
    async with worker_py.make_worker(client, Own(), Stub()):
        for s in jobs["scenarios"]:
            run.update({"answers": s["answers"], "next": 0, "received": []})
            handle = await client_py.start(client, s["input"], id=s["id"], search_attributes=True)
            done = asyncio.Event()
            watching = asyncio.create_task(events(s["id"], done))
            try:
                ending = ending_of(await handle.result(), None)
            except Exception as e:
                ending = ending_of(None, e)
            done.set()
            await watching
            status = await client_py.status(client, s["id"])
            results.append(
                {
                    "id": s["id"],
                    "ending": ending,
                    "cases": status["cases"],
                    "received": run["received"],
                    "answered": run["next"] == len(s["answers"]),
                    "rawQuery": await raw_query(s["id"]),
                }
            )
            histories.extend(await client_py.histories(client, s["id"], handle.first_execution_run_id))
        for workflow_id in jobs["readAlso"]:
            try:
                read_also[workflow_id] = ending_of(await client.get_workflow_handle(workflow_id).result(), None)
            except Exception as e:
                read_also[workflow_id] = ending_of(None, e)
    try:
        await worker_py.replay(histories, codec)
        replayed: Any = len(histories)
    except Exception as e:
        replayed = repr(e)
    print(json.dumps({"results": results, "replayed": replayed, "readAlso": read_also}, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(main())
    # Its one line is out; the SDK's threads are not waited for: once in a CI run, the interpreter's
    # finalization beside them aborted the process (exit 134, PyGILState_Release) after the line.
    sys.stdout.flush()
    os._exit(0)

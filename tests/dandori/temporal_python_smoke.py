"""One run of examples/orders/orders.flow's temporal-python package on a real dev server
(tests/dandori/temporal_python_test.ts starts the server and builds the package).

    python3 temporal_python_smoke.py <address> <dir> <package> <workflow id>

The generated worker runs with stub own tasks and a stub `Transport` that record what reaches them:
the stock is held, the customer's confirmation comes back through `client.answer` (after an answer
to an id the run never handed on is refused), the card is charged, the stock posted. Prints, as
JSON, `dandori.status` while the run waits and after it ended, the answer refused, the ending,
`DandoriCases`, the calls that reached the stubs, and how many histories replayed.
"""

import asyncio
import datetime
import importlib
import json
import os
import sys
from typing import Any

from temporalio.client import Client, WorkflowUpdateFailedError

#: How long the run may take to hand its callback's id on (the dev server answers in well under a second).
HAND_ON_SECONDS = 60


async def main() -> None:
    address, root, package, workflow_id = sys.argv[1:5]
    sys.path.insert(0, root)
    worker_py = importlib.import_module(f"{package}.worker")
    client_py = importlib.import_module(f"{package}.client")
    io = importlib.import_module(f"{package}.io")
    client = await Client.connect(address)
    calls: list[Any] = []
    handed: asyncio.Queue[str] = asyncio.Queue()

    class Own:
        async def confirm(self, args: Any, call: Any) -> None:
            calls.append(["confirm", args, dict(call)])
            handed.put_nowait(call["callback_id"])

    class Stub:
        async def http(self, request: Any) -> Any:
            calls.append(["http", request.method, request.url, request.headers, request.body])
            return io.HttpResponse(200, '{"id": "ch_1"}')

        async def lambda_(self, function: str, payload: Any) -> Any:
            raise AssertionError(f"orders.flow calls no Lambda, but {function}")

        async def aws(self, service: str, operation: str, args: Any) -> Any:
            raise AssertionError(f"orders.flow calls no AWS operation, but {service}.{operation}")

        async def book(self, call: Any) -> Any:
            calls.append(["book", call])
            return {"result": "done"}

    later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    order = {"id": "o-1", "sku": "apple", "quantity": 2, "price": 300, "pay_by": later.strftime("%Y-%m-%dT%H:%M:%SZ")}
    async with worker_py.make_worker(client, Own(), Stub()):
        handle = await client_py.start(client, {"order": order}, id=workflow_id, search_attributes=True)
        callback_id = await asyncio.wait_for(handed.get(), HAND_ON_SECONDS)
        waiting = await client_py.status(client, workflow_id)
        try:
            await client_py.answer(client, workflow_id, "no such callback", {"ok": {"confirmed": True}})
            refused = None
        except WorkflowUpdateFailedError as e:
            refused = type(e).__name__
        took = await client_py.answer(client, workflow_id, callback_id, {"ok": {"confirmed": True}})
        ending = await handle.result()
        ended = await client_py.status(client, workflow_id)
        described = await handle.describe()
        histories = await client_py.histories(client, workflow_id, described.run_id)
        await worker_py.replay(histories)
    print(
        json.dumps(
            {
                "waiting": waiting,
                "refused": refused,
                "took": took,
                "ending": ending,
                "ended": ended,
                "DandoriCases": described.search_attributes.get("DandoriCases"),
                "calls": calls,
                "replayed": len(histories),
            },
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
    # Its output is out; the SDK's threads are not waited for (the interpreter's finalization beside
    # them can abort the process after the output, as tests/dandori/temporal_codec_play.py saw).
    sys.stdout.flush()
    os._exit(0)

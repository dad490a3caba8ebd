"""Sends book operations to the book Lambdas `dandori build --target stepfunctions` writes.

Reads a jobs file (argv[1]): {"jobs": [{"id", "dir", "handler", "client", "target", "tenant",
"fill": [...], "events": [...]}], "postgres": {"host", "databases": {client path: database}}?, "tigerbeetle":
{"addresses": "<host:port,…>"} or (tests only) {"double": "<the test double's bridge URL>"}?}. For each job it loads the generated `<handler>.py` of `dir` (with
`dandori_book.py` beside it) and chobo's Python client at `client`, makes the handler with
`make_handler(lambda: postgres(conn, tenant=…))` (or `tigerbeetle(ClientSync(…), tenant=…)`), runs
the `fill` operations on the client itself ({"transfer": member, "op", "args": keyword arguments}:
the flow's Lambda takes only the flow's operations), then sends every event as Lambda would, and prints {"results": [{"id", "answers": [...]}]}: each answer is the
handler's `{"result": …}`, `{"refused": <the exception's class name>}` (what Lambda reports as the
error's type), or `{"error": "<what else it raised>"}`. Used by tests/dandori/stepfunctions_books_test.ts.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from types import ModuleType
from typing import Any


def load(name: str, path: str) -> ModuleType:
    """The module at `path` under a name of its own (jobs of several flows share file names)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def tigerbeetle_client(where: dict[str, Any]) -> Any:
    """A client of cluster 0 at `addresses` (one string, as tigerbeetle.ClientSync takes it), or
    (tests only) of the test double's bridge, the chobo TigerBeetle runner's `DoubleBridge`."""
    if "double" in where:
        runners = os.path.join(os.path.dirname(__file__), "..", "..", "chobo", "runners", "python")
        sys.path.insert(0, runners)
        from tigerbeetle_runner import DoubleBridge

        return DoubleBridge(where["double"])
    import tigerbeetle

    addresses = where["addresses"]
    if not isinstance(addresses, str):
        raise TypeError(f'tigerbeetle.addresses must be one string such as "3000", not {addresses!r}')
    return tigerbeetle.ClientSync(cluster_id=0, replica_addresses=addresses)


def answer(handler: Any, event: object) -> dict[str, str]:
    try:
        result: dict[str, str] = handler(event, None)
        return result
    except Exception as e:  # noqa: BLE001 - what a handler raises is the answer being compared
        refused = sys.modules["dandori_book"].Refused
        if isinstance(e, refused):
            return {"refused": type(e).__name__}
        return {"error": f"{type(e).__name__}: {e}"}


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as f:
        jobs: dict[str, Any] = json.load(f)
    results = []
    connections: dict[str, Any] = {}
    tb_client: Any = None
    for i, job in enumerate(jobs["jobs"]):
        sys.path.insert(0, job["dir"])
        handler_module = load(f"handler_{i}", f"{job['dir']}/{job['handler']}.py")
        client = load(f"client_{i}", job["client"])
        if job["target"] == "postgres":
            import psycopg

            pg = jobs["postgres"]
            database = pg["databases"][job["book"]]
            if database not in connections:
                connections[database] = psycopg.connect(
                    host=pg["host"], dbname=database, user="postgres", autocommit=True
                )
            conn = connections[database]
            def open_book(c: Any = conn, t: str = job["tenant"]) -> Any:
                return client.postgres(c, tenant=t)
        else:
            if tb_client is None:
                tb_client = tigerbeetle_client(jobs["tigerbeetle"])
            def open_book(c: Any = tb_client, t: str = job["tenant"]) -> Any:
                return client.tigerbeetle(c, tenant=t)
        book = open_book()
        for f in job["fill"]:
            done = getattr(getattr(book, f["transfer"]), f["op"])(**f["args"])
            if done.result != "done":
                raise RuntimeError(f"filling {job['id']}: {f} was {done}")
        handler = handler_module.make_handler(open_book)
        results.append({"id": job["id"], "answers": [answer(handler, e) for e in job["events"]]})
        sys.path.remove(job["dir"])
    print(json.dumps({"results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

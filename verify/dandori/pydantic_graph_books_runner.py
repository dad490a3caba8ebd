"""The books runner of the pydantic-graph target (`pydantic_graph_books.ts`): for every sequence, each
way on its own tenant, the fills straight through chobo's `postgres-python` client, then every book
operation through the generated `io.py`'s default `transport(books)`; it prints every answer in order
(`done`, `done_before`, `refused <reason>`, or `failed <error>`).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import sys
from typing import Any

import psycopg

jobs = json.loads(open(sys.argv[1], encoding="utf-8").read())
sys.path.insert(0, jobs["flows"])
conn = psycopg.connect(host=jobs["socket"], user=jobs["user"], dbname="postgres", autocommit=True)


def load(name: str, path: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


clients = {book: load(f"chobo_book_{i}", path) for i, (book, path) in enumerate(jobs["clients"].items())}


def answer(result: str, reason: object) -> str:
    return f"refused {reason}" if result == "refused" else result


async def main() -> None:
    results = []
    for seq in jobs["sequences"]:
        io = importlib.import_module(f"{seq['package']}.io")
        got: list[str] = []
        for way in seq["ways"]:
            books = {use: clients[name].postgres(conn, way["tenant"]) for use, name in seq["books"].items()}
            for f in way["fills"]:
                try:
                    r = getattr(books[f["book"]], f["member"]).do(**f["kwargs"])
                    got.append(answer(r.result, r.reason))
                except Exception as e:
                    got.append(f"failed {type(e).__name__}: {e}")
            transport = io.transport(books)
            for call in way["calls"]:
                try:
                    r = await transport.book(call)
                    got.append(answer(r["result"], r.get("reason")))
                except Exception as e:
                    got.append(f"failed {type(e).__name__}: {e}")
        results.append({"id": seq["id"], "answers": got})
    print(json.dumps({"results": results}, ensure_ascii=False))


asyncio.run(main())
conn.close()

"""Replays recorded histories on a temporal-python package's code copy (verify/dandori/temporal_histories.ts).

    python3 temporal_replay.py <copy dir> <recorded.json>

The copy is imported as a package of its own (a link `dd_flow` to it in a temp dir on `sys.path`); every
history of the recorded file (`{"flow", "run", "histories": [{"workflowId", "history"}]}`) replays on its
generated `replay`, which raises on the first that does not. Prints how many replayed.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import shutil
import sys
import tempfile

from temporalio.client import WorkflowHistory


async def main() -> None:
    copy, file = sys.argv[1:3]
    with open(file, encoding="utf-8") as f:
        recorded = json.load(f)
    links = tempfile.mkdtemp(prefix="dandori-temporal-python-")
    try:
        os.symlink(copy, f"{links}/dd_flow")
        sys.path.insert(0, links)
        worker = importlib.import_module("dd_flow.worker")
        histories = [WorkflowHistory.from_json(h["workflowId"], h["history"]) for h in recorded["histories"]]
        await worker.replay(histories)
        print(len(histories))
    finally:
        shutil.rmtree(links)


if __name__ == "__main__":
    asyncio.run(main())
    # Its output is out; the SDK's threads are not waited for (the interpreter's finalization beside
    # them can abort the process after the output, as tests/dandori/temporal_codec_play.py saw).
    sys.stdout.flush()
    os._exit(0)

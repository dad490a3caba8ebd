"""What the Python runners of verify/chobo/runners/README.md share, on PostgreSQL and on TigerBeetle:
loading a generated client, calling its members by the book's names, and the clock of a job's
holds that decides its waits and whether it is late.

Names of members and arguments are NFKC-normalized, as Python normalizes the identifiers of the
generated source.
"""

import importlib.util
import json
import os
import sys
import threading
import time
import unicodedata
from collections.abc import Callable
from types import ModuleType
from typing import Any


def load_client(book: str, where: str) -> ModuleType:
    """The generated `<book>.py`: `where` is the file or the directory the build wrote it into."""
    path = os.path.join(where, f"{book}.py") if os.path.isdir(where) else where
    name = f"chobo_client_{book}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the client of {book} from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def python_name(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def failure(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return f"failed:{lines[0] if lines else type(error).__name__}"


def client_strings(members: dict[str, Any], step: dict[str, Any]) -> dict[str, object]:
    """The step's strings under the client's argument names."""
    names: dict[str, str] = members["params"][step["call"]]
    return {python_name(names[k]): v for k, v in step.get("strings", {}).items()}


def call(value: Any, members: dict[str, Any], step: dict[str, Any]) -> str:
    """One `do`/`hold`/`post`/`void` through a book value, as the step's answer."""
    transfer = getattr(value, python_name(members["transfers"][step["call"]]))
    names: dict[str, str] = members["params"][step["call"]]
    args = client_strings(members, step)
    args.update({python_name(names[k]): int(v) for k, v in step.get("amounts", {}).items()})
    try:
        result = getattr(transfer, step["op"])(**args)
    except Exception as error:
        return failure(error)
    return f"refused:{result.reason}" if result.result == "refused" else str(result.result)


class HoldClock:
    """A job's clock of holds: when each `done` hold returned, and whether a step came more than
    the expiry after the first of them since the last pass (`late`, README). A hold's expiry counts
    from inside its call, so lateness counts from the start of the step that made the first hold
    (`check` marks it), not from its answer."""

    def __init__(self, expiry_s: float, margin_s: float) -> None:
        self._expiry_s = expiry_s
        self._margin_s = margin_s
        self._lock = threading.Lock()
        self._times: list[float] = []
        self._since: float | None = None
        self._step_start = time.monotonic()
        self.late = False

    def answered(self, step: dict[str, Any], answer: str) -> None:
        """Notes a call's answer; callers of a `together` note theirs from their own threads."""
        if step["op"] != "hold" or answer != "done":
            return
        now = time.monotonic()
        with self._lock:
            self._times.append(now)
            if self._since is None:
                self._since = self._step_start

    def check(self) -> None:
        """Marks the job late when now is past the first hold's expiry since the last pass; a step
        starts."""
        self._step_start = time.monotonic()
        if self._since is not None and self._step_start > self._since + self._expiry_s:
            self.late = True

    def until_expired(self) -> None:
        """Waits until every hold is the margin past its expiry; the pass itself follows."""
        if self._times:
            wait = max(self._times) + self._expiry_s + self._margin_s - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        self._since = None


def play_all(
    jobs: list[dict[str, Any]], play: Callable[[int, dict[str, Any]], dict[str, object]]
) -> None:
    """Plays every job at once, each on a thread of its own, and prints `{"results": [...]}`; the
    first error of any job is raised once all have ended."""
    results: list[dict[str, object] | None] = [None] * len(jobs)
    errors: list[BaseException] = []

    def one(i: int, job: dict[str, Any]) -> None:
        try:
            results[i] = play(i, job)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=one, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    json.dump({"results": results}, sys.stdout)
    sys.stdout.write("\n")

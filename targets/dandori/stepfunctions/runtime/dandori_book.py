# The part of every book Lambda that dandori writes for Step Functions which is the same for every
# book (docs/targets.md#step-functions): reading the event a book task's Task sends,
# {"transfer", "op", "args", "amounts"?}, and answering {"result": "done" | "done_before"}, or
# raising a refusal as an exception whose class is named after the reason. Lambda reports that name
# as the error's type, and Step Functions matches it in the Task's Retry and Catch, where a task
# declares the book's reasons as its errors (docs/targets.md#the-book-lambdas).
# `dandori build --target stepfunctions` copies it byte for byte to lambda/dandori_book.py.
# Python 3.10 or later.

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol


class Result(Protocol):
    """What an operation of a book answers (chobo's `Result`): done, done before, or refused."""

    @property
    def result(self) -> str: ...

    @property
    def reason(self) -> str | None: ...


class Refused(Exception):
    """A refusal of the book; the class of each is named after its reason (`refusal`)."""


def refusal(reason: str) -> Refused:
    """The exception of a refusal, its class named after the reason: Lambda's errorType."""
    kind: type[Refused] = type(reason, (Refused,), {"__module__": __name__})
    return kind(reason)


def _mapping(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise TypeError(f"dandori: {what} is not an object: {value!r}")
    return value


class Event:
    """The operation a Task asks the book for."""

    def __init__(self, event: object) -> None:
        fields = _mapping(event, "the event")
        self.transfer = _text(fields, "transfer")
        self.op = _text(fields, "op")
        self._args = _mapping(fields.get("args"), "args")
        self._amounts = _mapping(fields.get("amounts", {}), "amounts")
        self.partial = "amounts" in fields
        """A partial post: its amounts are apart from the key, in `amounts`."""

    def text(self, name: str) -> str:
        """A string argument of the transfer."""
        return _text(self._args, name)

    def amount(self, name: str) -> int:
        """An amount of `do`, `hold` or a post in full."""
        return _int(self._args, name)

    def posted(self, name: str) -> int:
        """An amount a partial post gives (`amounts`)."""
        return _int(self._amounts, name)


def _text(fields: Mapping[str, object], name: str) -> str:
    value = fields.get(name)
    if not isinstance(value, str):
        raise TypeError(f"dandori: {name} is not a string: {value!r}")
    return value


def _int(fields: Mapping[str, object], name: str) -> int:
    value = fields.get(name)
    # A bool is an int to Python, and no amount.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"dandori: {name} is not a whole number: {value!r}")
    return value


Handler = Callable[[object, object], dict[str, str]]
"""A Lambda handler: the event and Lambda's context in, the answer out."""


def handler_of(call: Callable[[Event], Result]) -> Handler:
    """The Lambda handler that runs `call` on each event and answers as a book task reads it."""

    def handler(event: object, context: object) -> dict[str, str]:
        answer = call(Event(event))
        if answer.result == "refused":
            if answer.reason is None:
                raise RuntimeError("dandori: the book refused without a reason")
            raise refusal(answer.reason)
        if answer.result not in ("done", "done_before"):
            raise RuntimeError(f"dandori: the book answered {answer.result!r}")
        return {"result": answer.result}

    return handler

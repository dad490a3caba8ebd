# How dandori-written tasks reach the outside (docs/targets.md#pydantic-graph,
# docs/targets.md#temporal-python): the `Transport` port, its default implementation (urllib for
# HTTP, boto3 for Lambda and AWS operations, OpenAI's and Anthropic's SDKs for agents, each loaded
# only when a call needs it, and chobo's generated Python clients for books), and how an answer
# becomes a result or a declared error (`TaskFailure` of the package's `runtime.py`). It is the same
# for every flow and both Python targets; `io.py` is this file followed by the flow's own book tables.

from __future__ import annotations

import asyncio
import copy
import importlib
import json
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, Protocol, TypedDict

from .runtime import TaskFailure, json_text


@dataclass(frozen=True)
class HttpRequest:
    """An HTTP request as it is sent: the body is the exact text."""

    method: str
    url: str
    headers: dict[str, str]
    body: str | None = None


@dataclass(frozen=True)
class HttpResponse:
    """An HTTP response: its status and its body's text."""

    status: int
    body: str


@dataclass(frozen=True)
class LambdaPayload:
    """A Lambda function's answer."""

    payload: Any


@dataclass(frozen=True)
class LambdaError:
    """A Lambda function's error."""

    error_type: str
    error_message: str


class AwsError(Exception):
    """An AWS operation's error: the exception's name and message."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message


class BookCall(TypedDict):
    """A book operation as a flow calls it: strings and amounts by the transfer's parameter names."""

    book: str
    transfer: str
    op: Literal["do", "hold", "post", "void"]
    args: dict[str, Any]
    #: A partial post's amounts.
    amounts: NotRequired[dict[str, Any]]


class BookResult(TypedDict):
    """A book's answer: `done`, `done_before`, or `refused` with the reason."""

    result: Literal["done", "done_before", "refused"]
    reason: NotRequired[str]


@dataclass(frozen=True)
class AgentRequest:
    """An agent's request as every platform sends it (docs/dandori.md#agents): whom it goes to
    (OpenAI's Responses API, Claude's Messages API, or an Open Responses server), where, the headers
    that say nothing secret, and the body. The key is never here: the default `Transport` adds it."""

    provider: Literal["openai", "claude", "responses"]
    url: str
    headers: dict[str, str]
    body: dict[str, Any]


class Transport(Protocol):
    """Everything a dandori-written task sends; a test swaps it for one that records."""

    async def http(self, request: HttpRequest) -> HttpResponse: ...

    async def lambda_(self, function: str, payload: Any) -> LambdaPayload | LambdaError: ...

    async def aws(self, service: str, operation: str, args: dict[str, Any]) -> Any:
        """The operation's output; raises `AwsError` for the service's exception."""
        ...

    async def book(self, call: BookCall) -> BookResult: ...

    async def agent(self, request: AgentRequest) -> Any:
        """What the model answered, its text read as JSON (`{"answer": …}`); raises when the model
        refused or stopped short, or the request failed."""
        ...


def _declared(errors: Sequence[tuple[str, str]], wire: str) -> str | None:
    """A declared error's name for what came over the wire, or None."""
    return next((name for name, w in errors if w == wire), None)


async def http(transport: Transport, request: HttpRequest, errors: Sequence[tuple[str, str]]) -> Any:
    """Sends an HTTP request; a 2xx body is the result (JSON, or None when empty), a declared status its error."""
    response = await transport.http(request)
    if 200 <= response.status < 300:
        return None if response.body == "" else json.loads(response.body)
    name = _declared(errors, str(response.status))
    raise TaskFailure(name or f"HTTP {response.status}", response.body)


MAX_FILL_DEPTH = 32
"""How deep in messages a Connect answer is filled (lang/dandori/proto.ts's `MAX_MESSAGE_DEPTH`)."""


def proto_json(fields: Sequence[Mapping[str, Any]], args: Mapping[str, Any]) -> dict[str, Any]:
    """A Connect request's body as protobuf's JSON (lang/dandori/connect.ts): each argument given
    under its JSON name, an integer sent to a 64-bit field as decimal text."""
    out: dict[str, Any] = {}
    for f in fields:
        v = args.get(f["name"])
        if v is not None:
            out[f["json"]] = _sent_value(f["sent"], v)
    return out


def _sent_value(sent: Mapping[str, Any], v: Any) -> Any:
    if isinstance(v, list):
        return [_sent_value(sent, x) for x in v]
    if sent["kind"] == "int64":
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v
    if sent["kind"] == "message":
        return proto_json(sent["fields"], v) if isinstance(v, dict) else v
    return v


def filled(table: Mapping[str, Any], value: Any) -> Any:
    """A Connect answer as protobuf reads it: every field without presence left out or None filled
    with its zero value, in the answer and in every message in it, down to `MAX_FILL_DEPTH`."""
    return _fill_message(table, table["top"], value, 0)


def _fill_message(table: Mapping[str, Any], name: str, value: Any, depth: int) -> Any:
    fields = next((m["fields"] for m in table["messages"] if m["name"] == name), None)
    if not isinstance(value, dict) or depth > MAX_FILL_DEPTH or fields is None:
        return value
    out = dict(value)
    for f in fields:
        v = out.get(f["json"])
        inner = f.get("message")
        if v is None:
            if "zero" in f:
                out[f["json"]] = copy.deepcopy(f["zero"])
        elif inner is not None:
            # A list of messages has a zero value ([]), one message has none: each is filled only as what it is.
            if "zero" in f and isinstance(v, list):
                out[f["json"]] = [_fill_message(table, inner, x, depth + 1) for x in v]
            if "zero" not in f:
                out[f["json"]] = _fill_message(table, inner, v, depth + 1)
    return out


async def lambda_(transport: Transport, function: str, payload: Any, errors: Sequence[tuple[str, str]]) -> Any:
    """Invokes a Lambda function; its payload is the result, a declared `errorType` its error."""
    got = await transport.lambda_(function, payload)
    if isinstance(got, LambdaPayload):
        return got.payload
    raise TaskFailure(_declared(errors, got.error_type) or got.error_type, got.error_message)


async def aws(
    transport: Transport, service: str, operation: str, args: dict[str, Any], errors: Sequence[tuple[str, str]]
) -> Any:
    """Calls an AWS operation; its output is the result, a declared exception its error."""
    try:
        return await transport.aws(service, operation, args)
    except AwsError as e:
        raise TaskFailure(_declared(errors, e.name) or e.name, e.message) from e


async def booked(transport: Transport, call: BookCall, errors: Sequence[str]) -> Any:
    """Calls a book operation; done and done before are the result.

    A refusal is its declared error or, when the task does not declare it, `Dandori.Failure.<reason>`.
    """
    got = await transport.book(call)
    if isinstance(got, dict) and got.get("result") == "refused":
        reason = str(got.get("reason", ""))
        raise TaskFailure(reason if reason in errors else f"Dandori.Failure.{reason}", "")
    return got


async def agent(transport: Transport, request: AgentRequest, shape: Mapping[str, Any] | None) -> Any:
    """Sends an agent's request; the `answer` of what the model answered is the result (a Claude
    answer's enum values read without case where `shape` says they are), and anything else a failure
    with an empty message, as the interpreter's says no cause (what went wrong is its `__cause__`)."""
    try:
        got = await transport.agent(request)
    except Exception as e:
        raise TaskFailure(type(e).__name__, "") from e
    if not isinstance(got, dict) or "answer" not in got:
        raise TaskFailure("AgentStopped", "")
    return got["answer"] if shape is None else folded(shape, got["answer"])


def folded(shape: Mapping[str, Any], value: Any) -> Any:
    """`value` with each string where `shape` has an enum (`{"enum": […]}`, `{"list": …}`,
    `{"record": {field: …}}`) replaced by the declared value equal to it but for case."""
    if "enum" in shape:
        if not isinstance(value, str):
            return value
        return next((v for v in shape["enum"] if v.lower() == value.lower()), value)
    if "list" in shape:
        return [folded(shape["list"], v) for v in value] if isinstance(value, list) else value
    if not isinstance(value, dict):
        return value
    return {k: folded(shape["record"][k], v) if k in shape["record"] else v for k, v in value.items()}


# ---------------------------------------------------------------------------------------------
# The default implementation.

#: The message arguments of SNS and SQS are text: a record the flow gives there is sent as its JSON.
_TEXT_ARGUMENTS = ("Message", "MessageBody")


def _boto3_client(service: str) -> Any:
    """boto3's client of `service`, with boto3 imported on first use (`AWS_ENDPOINT_URL` configures it)."""
    return importlib.import_module("boto3").client(service)


def _send_http(request: HttpRequest) -> HttpResponse:
    data = None if request.body is None else request.body.encode()
    req = urllib.request.Request(request.url, data=data, headers=request.headers, method=request.method)
    try:
        with urllib.request.urlopen(req) as response:
            return HttpResponse(response.status, response.read().decode())
    except urllib.error.HTTPError as e:
        return HttpResponse(e.code, e.read().decode())


def _send_lambda(function: str, payload: Any) -> LambdaPayload | LambdaError:
    out = _boto3_client("lambda").invoke(FunctionName=function, Payload=json_text(payload).encode())
    raw = out["Payload"].read().decode() if "Payload" in out else ""
    body = None if raw == "" else json.loads(raw)
    if "FunctionError" not in out:
        return LambdaPayload(body)
    error = body if isinstance(body, dict) else {}
    return LambdaError(str(error.get("errorType", out["FunctionError"])), str(error.get("errorMessage", "")))


def _method(client: Any, operation: str) -> str:
    """boto3's method of an operation of the service's API, named as Step Functions names it
    (`assumeRoleWithSAML` → `assume_role_with_saml`). A client method that is no operation of the
    service's model (a presigned URL, which hands out the worker's credentials; a paginator) is refused."""
    api = {name: method for method, name in client.meta.method_to_api_mapping.items()}
    name = operation[:1].upper() + operation[1:]
    if operation[:1].islower() and name in api:
        return str(api[name])
    service = client.meta.service_model.service_name
    raise TaskFailure("Error", f"dandori: {service} has no operation {operation} in its API")


def _send_aws(service: str, operation: str, args: dict[str, Any]) -> Any:
    sent = {k: json_text(v) if k in _TEXT_ARGUMENTS and not isinstance(v, str) else v for k, v in args.items()}
    client = _boto3_client(service)
    method = getattr(client, _method(client, operation))
    try:
        output = method(**sent)
    except Exception as e:
        response = getattr(e, "response", None)
        if isinstance(response, dict) and isinstance(response.get("Error"), dict):
            error = response["Error"]
            raise AwsError(str(error.get("Code", "Error")), str(error.get("Message", ""))) from e
        raise
    return {k: v for k, v in output.items() if k != "ResponseMetadata"}


#: A chobo Python client's book value (`postgres(conn, tenant)`, `tigerbeetle(client)`), reached by member names.
BookValue = Any


def _call_book(books: Mapping[str, BookValue], call: BookCall) -> BookResult:
    book = books.get(call["book"])
    if book is None:
        raise TaskFailure("Error", f"dandori: no book {call['book']} was given to the transport")
    names = BOOK_NAMES.get(call["book"], {}).get(call["transfer"])
    if names is None:
        raise TaskFailure("Error", f"dandori: the book {call['book']} has no transfer {call['transfer']}")
    member, params, amounts = names
    operation = getattr(getattr(book, member), call["op"])
    values = {**call["args"], **call.get("amounts", {})}
    kwargs = {
        params.get(n, n): (int(v) if n in amounts and v is not None else v) for n, v in values.items()
    }
    got = operation(**kwargs)
    if got.result == "refused":
        return {"result": "refused", "reason": str(got.reason)}
    if got.result in ("done", "done_before"):
        return {"result": got.result}
    raise TaskFailure("Error", f"dandori: {call['book']}.{call['transfer']}.{call['op']} answered {got!r}")


class AgentStopped(Exception):
    """A model's answer that is none: a refusal, a stop short of the end, a response without text."""


class AgentHttpError(Exception):
    """An Open Responses server's answer that is not a 2xx."""


def _base_of(url: str, tail: str) -> str:
    """`url` without `tail`: the base URL an SDK's client is given for a request to `url`."""
    return url.removesuffix(tail)


def _output_text(response: Any) -> str:
    """The first `output_text` of a Responses API response's messages: none (a refusal) stops the agent."""
    for item in response.get("output") or [] if isinstance(response, dict) else []:
        if not isinstance(item, dict) or item.get("type") != "message":
            continue
        for part in item.get("content") or []:
            if isinstance(part, dict) and part.get("type") == "output_text" and isinstance(part.get("text"), str):
                return str(part["text"])
    raise AgentStopped("the model answered no output_text (a refusal)")


def _message_text(response: Any) -> str:
    """A Messages API response's text blocks, joined: a stop other than `end_turn` stops the agent."""
    stop = response.get("stop_reason") if isinstance(response, dict) else None
    if stop != "end_turn":
        raise AgentStopped(f"the model stopped with {json_text(stop)}")
    content = response.get("content") or []
    return "".join(b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str))


async def _send_agent(request: AgentRequest, responses_headers: Mapping[str, str]) -> Any:
    """An agent's request through its provider's SDK (`openai`, `anthropic`: imported on first use),
    which reads the key from the environment (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`) and is told not
    to retry, so only the task's `retry` retries; or to an Open Responses server with urllib, sent no
    key but `responses_headers`."""
    if request.provider == "claude":
        sdk = importlib.import_module("anthropic")
        client = sdk.AsyncAnthropic(
            base_url=_base_of(request.url, "/v1/messages"), max_retries=0, default_headers=request.headers
        )
        message = await client.messages.create(**request.body)
        return json.loads(_message_text(message.model_dump()))
    if request.provider == "openai":
        sdk = importlib.import_module("openai")
        client = sdk.AsyncOpenAI(base_url=_base_of(request.url, "/responses"), max_retries=0, default_headers=request.headers)
        response = await client.responses.create(**request.body)
        return json.loads(_output_text(response.model_dump()))
    headers = {**request.headers, **responses_headers, "Content-Type": "application/json"}
    sent = await asyncio.to_thread(_send_http, HttpRequest("POST", request.url, headers, json_text(request.body)))
    if not 200 <= sent.status < 300:
        raise AgentHttpError(f"HTTP {sent.status}: {sent.body}")
    return json.loads(_output_text(json.loads(sent.body)))


class DefaultTransport:
    """HTTP through urllib, Lambda and AWS through boto3 (imported only when a call needs it;
    `AWS_ENDPOINT_URL` and the usual AWS variables configure it), books through the chobo clients
    given, each in a worker thread so the run's other iterations go on; agents through `openai` and
    `anthropic` (an Open Responses server through urllib, with `responses_headers`)."""

    def __init__(
        self, books: Mapping[str, BookValue] | None = None, responses_headers: Mapping[str, str] | None = None
    ) -> None:
        self._books = dict(books or {})
        self._responses_headers = dict(responses_headers or {})

    async def http(self, request: HttpRequest) -> HttpResponse:
        return await asyncio.to_thread(_send_http, request)

    async def lambda_(self, function: str, payload: Any) -> LambdaPayload | LambdaError:
        return await asyncio.to_thread(_send_lambda, function, payload)

    async def aws(self, service: str, operation: str, args: dict[str, Any]) -> Any:
        return await asyncio.to_thread(_send_aws, service, operation, args)

    async def book(self, call: BookCall) -> BookResult:
        return await asyncio.to_thread(_call_book, self._books, call)

    async def agent(self, request: AgentRequest) -> Any:
        return await _send_agent(request, self._responses_headers)


def transport(
    books: Mapping[str, BookValue] | None = None, responses_headers: Mapping[str, str] | None = None
) -> Transport:
    """The default `Transport`, with the chobo clients' book values by the flow's names for the books
    and the headers an Open Responses server (an agent's `url`) is sent besides the request's."""
    return DefaultTransport(books, responses_headers)

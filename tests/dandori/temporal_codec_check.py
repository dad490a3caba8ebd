"""The Python side of tests/dandori/temporal_codec_test.ts's codec checks:

    python3 temporal_codec_check.py <codec.py> < request.json

`codec.py` is the runtime file every temporal-python package of a `history encrypted` flow carries.
The request gives keys (`{"id", "key"}`, the key in hex; the first encrypts), payloads to `decode`
and to `encode` (`{"metadata": {name: base64}, "data": base64}`), and lists of keys to `construct`
a codec with. Prints, as JSON, each decoded payload or `{"refused": <the error>}`, each encoded
payload, and for each construction the error it raised or null.
"""

import asyncio
import base64
import importlib.util
import json
import sys
from typing import Any

from temporalio.api.common.v1 import Payload


def payload(j: dict[str, Any]) -> Payload:
    return Payload(
        metadata={k: base64.b64decode(v) for k, v in j["metadata"].items()}, data=base64.b64decode(j["data"])
    )


def as_json(p: Payload) -> dict[str, Any]:
    return {
        "metadata": {k: base64.b64encode(v).decode() for k, v in p.metadata.items()},
        "data": base64.b64encode(p.data).decode(),
    }


async def main() -> None:
    spec = importlib.util.spec_from_file_location("codec", sys.argv[1])
    assert spec is not None and spec.loader is not None
    codec_py = importlib.util.module_from_spec(spec)
    sys.modules["codec"] = codec_py
    spec.loader.exec_module(codec_py)
    request = json.load(sys.stdin)
    keys = [codec_py.CodecKey(k["id"], bytes.fromhex(k["key"])) for k in request["keys"]]
    codec = codec_py.AesGcmCodec(keys[0], keys[1:])
    decoded: list[Any] = []
    for j in request["decode"]:
        try:
            decoded.append(as_json((await codec.decode([payload(j)]))[0]))
        except codec_py.CodecError as e:
            decoded.append({"refused": str(e)})
    encoded = [as_json(p) for p in await codec.encode([payload(j) for j in request["encode"]])]
    constructed: list[str | None] = []
    for ks in request["construct"]:
        given = [codec_py.CodecKey(k["id"], bytes.fromhex(k["key"])) for k in ks]
        try:
            codec_py.AesGcmCodec(given[0], given[1:])
            constructed.append(None)
        except ValueError as e:
            constructed.append(str(e))
    print(json.dumps({"decoded": decoded, "encoded": encoded, "constructed": constructed}))


if __name__ == "__main__":
    asyncio.run(main())

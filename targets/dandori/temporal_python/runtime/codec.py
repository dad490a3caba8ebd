"""The payload codec of every dandori Temporal Python package whose flow writes `history encrypted`.

(docs/targets.md#the-payload-codec-of-history-encrypted.) AES-256-GCM with keys the user's code
supplies, in the wire format the TypeScript package's `codec.ts` reads and writes alike.
`dandori build --target temporal-python` copies it byte for byte as `codec.py`. `client.py` and
`worker.py` take any `PayloadCodec`; the workflow's sandbox never imports this file.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload
from temporalio.converter import PayloadCodec

#: The `encoding` of every payload the codec writes: the codec and the version of its wire format.
ENCODING = "binary/dandori-aes-256-gcm-v1"
#: The metadata key that names the key a payload is encrypted with.
KEY_ID = "encryption-key-id"
#: A key's length in bytes: AES-256.
KEY_BYTES = 32
#: The nonce before the ciphertext: GCM's 96 bits, random for every payload.
NONCE_BYTES = 12
#: The authentication tag after the ciphertext: GCM's full 128 bits.
TAG_BYTES = 16
#: The longest key id in UTF-8 bytes: it is metadata in clear, which every reader of the history sees.
MAX_KEY_ID_BYTES = 200


def _authenticated(key_id: str) -> bytes:
    """The codec's name, a zero byte and the key id: the data GCM authenticates beside the ciphertext."""
    return ENCODING.encode() + b"\x00" + key_id.encode()


@dataclasses.dataclass(frozen=True)
class CodecKey:
    """A key and its id. The id is written in clear beside every payload: never a secret."""

    id: str
    #: `KEY_BYTES` bytes, from a key store the user's code reads; never written into a generated file.
    key: bytes


class CodecError(Exception):
    """Why a payload was refused: not this codec's, a key not given, or one that fails authentication."""


class AesGcmCodec(PayloadCodec):
    """AES-256-GCM over every payload.

    Each payload is written as the protobuf of the payload it replaces, encrypted with a random
    nonce under the key `encrypt_with`; reading takes that key or one of `decrypt_also` (older keys,
    while their payloads are still read) by the payload's key id, and refuses every payload that is
    not this codec's or does not authenticate.
    """

    def __init__(self, encrypt_with: CodecKey, decrypt_also: Sequence[CodecKey] = ()) -> None:
        self._keys: dict[str, AESGCM] = {}
        for k in (encrypt_with, *decrypt_also):
            id_bytes = len(k.id.encode())
            if id_bytes == 0 or id_bytes > MAX_KEY_ID_BYTES:
                raise ValueError(f"a key id has 1 to {MAX_KEY_ID_BYTES} bytes, not {id_bytes}")
            if not isinstance(k.key, bytes) or len(k.key) != KEY_BYTES:
                raise ValueError(f"the key {k.id!r} is not {KEY_BYTES} bytes")
            if k.id in self._keys:
                raise ValueError(f"the key id {k.id!r} is given twice")
            self._keys[k.id] = AESGCM(k.key)
        self._encrypt_with = encrypt_with.id
        self._encrypt_key = AESGCM(encrypt_with.key)

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self._seal(p) for p in payloads]

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self._open(p) for p in payloads]

    def _seal(self, p: Payload) -> Payload:
        nonce = os.urandom(NONCE_BYTES)
        sealed = self._encrypt_key.encrypt(nonce, p.SerializeToString(), _authenticated(self._encrypt_with))
        return Payload(
            metadata={"encoding": ENCODING.encode(), KEY_ID: self._encrypt_with.encode()},
            data=nonce + sealed,
        )

    def _open(self, p: Payload) -> Payload:
        encoding = p.metadata.get("encoding", b"").decode(errors="replace")
        if encoding != ENCODING:
            raise CodecError(f"a payload of encoding {encoding!r} is not encrypted with {ENCODING}")
        key_id = p.metadata.get(KEY_ID, b"").decode(errors="replace")
        key = self._keys.get(key_id)
        if key is None:
            raise CodecError(f"a payload is encrypted with the key {key_id!r}, not given")
        if len(p.data) < NONCE_BYTES + TAG_BYTES:
            raise CodecError("a payload is too short to be encrypted")
        try:
            plain = key.decrypt(p.data[:NONCE_BYTES], p.data[NONCE_BYTES:], _authenticated(key_id))
        except InvalidTag:
            raise CodecError(f"a payload encrypted with the key {key_id!r} does not authenticate") from None
        inner = Payload()
        inner.ParseFromString(plain)
        return inner

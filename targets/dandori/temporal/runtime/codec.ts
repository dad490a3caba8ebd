// The payload codec of every dandori Temporal TypeScript package whose flow writes `history
// encrypted` (docs/targets.md#the-payload-codec-of-history-encrypted): AES-256-GCM with keys the
// user's code supplies, in the wire format the Python package's `codec.py` reads and writes alike.
// `dandori build --target temporal-typescript` copies it byte for byte as `codec.ts`. The worker
// and the client import it; the workflow bundle does not (it reads no random number).

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { DataConverter, Payload, PayloadCodec } from "@temporalio/common";
import proto from "@temporalio/proto";

/** The `encoding` of every payload the codec writes: the codec and the version of its wire format. */
export const ENCODING = "binary/dandori-aes-256-gcm-v1";
/** The metadata key that names the key a payload is encrypted with. */
export const KEY_ID = "encryption-key-id";
/** A key's length in bytes: AES-256. */
export const KEY_BYTES = 32;
/** The nonce before the ciphertext: GCM's 96 bits, random for every payload. */
export const NONCE_BYTES = 12;
/** The authentication tag after the ciphertext: GCM's full 128 bits. */
export const TAG_BYTES = 16;
/** The longest key id in UTF-8 bytes: it is metadata in clear, which every reader of the history sees. */
export const MAX_KEY_ID_BYTES = 200;

/** The codec's name, a zero byte and the key id: the data GCM authenticates beside the ciphertext. */
function authenticated(id: string): Buffer {
  return Buffer.concat([Buffer.from(ENCODING, "utf8"), Buffer.from([0]), Buffer.from(id, "utf8")]);
}

/** A key and its id. The id is written in clear beside every payload: never a secret. */
export interface CodecKey {
  readonly id: string;
  /** `KEY_BYTES` bytes, from a key store the user's code reads; never written into a generated file. */
  readonly key: Uint8Array;
}

/** Why a payload was refused: not this codec's, a key not given, or one that fails authentication. */
export class CodecError extends Error {
  override readonly name = "CodecError";
}

/**
 * AES-256-GCM over every payload: each is written as the protobuf of the payload it replaces,
 * encrypted with a random nonce under the key `encryptWith`; reading takes that key or one of
 * `decryptAlso` (older keys, while their payloads are still read) by the payload's key id, and
 * refuses every payload that is not this codec's or does not authenticate.
 */
export class AesGcmCodec implements PayloadCodec {
  readonly #keys = new Map<string, Buffer>();
  readonly #encryptWith: { readonly id: string; readonly key: Buffer };

  constructor(encryptWith: CodecKey, decryptAlso: readonly CodecKey[] = []) {
    for (const k of [encryptWith, ...decryptAlso]) {
      const idBytes = Buffer.byteLength(k.id, "utf8");
      if (idBytes === 0 || idBytes > MAX_KEY_ID_BYTES) {
        throw new RangeError(`a key id has 1 to ${MAX_KEY_ID_BYTES} bytes, not ${idBytes}`);
      }
      if (!(k.key instanceof Uint8Array) || k.key.length !== KEY_BYTES) {
        throw new RangeError(`the key ${JSON.stringify(k.id)} is not ${KEY_BYTES} bytes`);
      }
      if (this.#keys.has(k.id)) throw new RangeError(`the key id ${JSON.stringify(k.id)} is given twice`);
      this.#keys.set(k.id, Buffer.from(k.key));
    }
    this.#encryptWith = { id: encryptWith.id, key: Buffer.from(encryptWith.key) };
  }

  encode(payloads: Payload[]): Promise<Payload[]> {
    return new Promise((resolve) => resolve(payloads.map((p) => this.#seal(p))));
  }

  decode(payloads: Payload[]): Promise<Payload[]> {
    return new Promise((resolve) => resolve(payloads.map((p) => this.#open(p))));
  }

  #seal(p: Payload): Payload {
    const { id, key } = this.#encryptWith;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(authenticated(id));
    const plain = proto.temporal.api.common.v1.Payload.encode(p).finish();
    return {
      metadata: { encoding: Buffer.from(ENCODING, "utf8"), [KEY_ID]: Buffer.from(id, "utf8") },
      data: Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]),
    };
  }

  #open(p: Payload): Payload {
    const encoding = Buffer.from(p.metadata?.encoding ?? []).toString("utf8");
    if (encoding !== ENCODING) {
      throw new CodecError(
        `a payload of encoding ${JSON.stringify(encoding)} is not encrypted with ${ENCODING}`,
      );
    }
    const id = Buffer.from(p.metadata?.[KEY_ID] ?? []).toString("utf8");
    const key = this.#keys.get(id);
    if (key === undefined) {
      throw new CodecError(`a payload is encrypted with the key ${JSON.stringify(id)}, not given`);
    }
    const data = Buffer.from(p.data ?? []);
    if (data.length < NONCE_BYTES + TAG_BYTES) throw new CodecError("a payload is too short to be encrypted");
    const decipher = createDecipheriv("aes-256-gcm", key, data.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(authenticated(id));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([
        decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new CodecError(`a payload encrypted with the key ${JSON.stringify(id)} does not authenticate`);
    }
    const inner = proto.temporal.api.common.v1.Payload.decode(plain);
    // protobufjs leaves a field the payload did not write as its default, which need not be a Uint8Array.
    const metadata = Object.entries(inner.metadata).map(([k, v]) => [k, Uint8Array.from(v)]);
    return { metadata: Object.fromEntries(metadata), data: Uint8Array.from(inner.data) };
  }
}

/** `failure.ts` beside this file: its `failureConverter` encodes a failure's message and stack trace. */
export const FAILURE_CONVERTER_PATH: string = fileURLToPath(new URL("./failure.ts", import.meta.url));

/**
 * The data converter of a worker, a client and a replay of an encrypted flow: every payload
 * through `codec`, and failures whose message and stack trace are encoded attributes (a payload
 * `codec` encrypts) rather than text in the history.
 */
export function encryptedDataConverter(codec: PayloadCodec): DataConverter {
  return { payloadCodecs: [codec], failureConverterPath: FAILURE_CONVERTER_PATH };
}

/**
 * A real Connect server for the wire checks (docs/targets.md#connect-tasks): the `.proto` a `use
 * proto` reads, compiled by buf (`@bufbuild/buf` 1.75.0, not protobufjs, which the checker reads it
 * with) into a FileDescriptorSet, loaded by `@bufbuild/protobuf` 2.17.0, and every unary method of its
 * services served by `@connectrpc/connect-node` 2.3.0 on a loopback port. The server decodes each
 * request as the method's message, strictly (`ignoreUnknownFields: false`, the
 * `Connect-Protocol-Version` header required): a request it refuses never reaches the handler, and the
 * wire check counts it as a failure. The handler answers with what it is given: a message (written by
 * protobuf-es, its zero values left out), a Connect error, or an empty message when the check
 * answers the call itself (an answer no protobuf writer makes).
 * @module
 */

import { createRequire } from "node:module";
import { createServer, type Server } from "node:http";
import { basename, dirname } from "node:path";
import {
  createFileRegistry,
  type DescMessage,
  type DescMethodUnary,
  fromBinary,
  fromJson,
  type JsonValue,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";

/** buf's platform packages, by Deno's `os-arch`. */
const BUF_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x86_64": "@bufbuild/buf-linux-x64/bin/buf",
  "linux-aarch64": "@bufbuild/buf-linux-aarch64/bin/buf",
  "darwin-x86_64": "@bufbuild/buf-darwin-x64/bin/buf",
  "darwin-aarch64": "@bufbuild/buf-darwin-arm64/bin/buf",
  "windows-x86_64": "@bufbuild/buf-win32-x64/bin/buf.exe",
  "windows-aarch64": "@bufbuild/buf-win32-arm64/bin/buf.exe",
};

/** The buf binary `deno install` put beside `@bufbuild/buf`, or why there is none. */
function bufBinary(): string | { missing: string } {
  const binary = BUF_PACKAGES[`${Deno.build.os}-${Deno.build.arch}`];
  if (binary === undefined) return { missing: `buf has no package for ${Deno.build.os}-${Deno.build.arch}` };
  try {
    const buf = createRequire(import.meta.url).resolve("@bufbuild/buf/package.json");
    return createRequire(buf).resolve(binary);
  } catch {
    return { missing: "@bufbuild/buf is not installed (run `deno install`)" };
  }
}

/** What the handler does with the next request: answer a message or an error, or answer an empty message. */
export type ConnectAnswer =
  | { readonly kind: "message"; readonly json: JsonValue }
  | { readonly kind: "error"; readonly code: Code; readonly message: string }
  | { readonly kind: "empty" };

/** One `.proto`'s Connect server: its URL, the next answer, whether a request reached the handler. */
export interface ConnectServer {
  readonly url: string;
  readonly state: { answer: ConnectAnswer; handled: boolean };
  /** The response message of the method at `path` (`/<package>.<Service>/<Method>`), or null. */
  output(path: string): DescMessage | null;
  close(): Promise<void>;
}

/** The Connect codes by the HTTP status the protocol gives each, first of each status. */
const CODE_OF_STATUS: ReadonlyMap<number, Code> = new Map([
  [499, Code.Canceled],
  [500, Code.Internal],
  [400, Code.InvalidArgument],
  [504, Code.DeadlineExceeded],
  [404, Code.NotFound],
  [409, Code.AlreadyExists],
  [403, Code.PermissionDenied],
  [429, Code.ResourceExhausted],
  [501, Code.Unimplemented],
  [503, Code.Unavailable],
  [401, Code.Unauthenticated],
]);

/** A Connect code the server sends for an HTTP status (the flow reads a `connect` task's error by its status). */
export function codeOfStatus(status: number): Code {
  return CODE_OF_STATUS.get(status) ?? Code.Unknown;
}

/** The message `json` as the method's response, or null when protobuf-es does not read it as one. */
export function asMessage(output: DescMessage, json: JsonValue): JsonValue | null {
  try {
    fromJson(output, json, { ignoreUnknownFields: false });
    return json;
  } catch {
    return null;
  }
}

/** Compiles `proto` with buf and serves its unary methods; why not, when buf is missing or refuses the file. */
export async function startConnectServer(proto: string): Promise<ConnectServer | { missing: string }> {
  const buf = bufBinary();
  if (typeof buf !== "string") return buf;
  const dir = Deno.makeTempDirSync({ prefix: "dandori-buf-" });
  let image: Uint8Array;
  try {
    const out = await new Deno.Command(buf, {
      args: ["build", ".", "--path", basename(proto), "-o", `${dir}/image.binpb`],
      cwd: dirname(proto),
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      return { missing: `buf build ${proto}: ${new TextDecoder().decode(out.stderr).trim()}` };
    }
    image = Deno.readFileSync(`${dir}/image.binpb`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, image));
  const methods = [...registry].flatMap((t) => t.kind === "service" ? t.methods : [])
    .filter((m): m is DescMethodUnary => m.methodKind === "unary");
  const state: ConnectServer["state"] = { answer: { kind: "empty" }, handled: false };
  const handler = connectNodeAdapter({
    requireConnectProtocolHeader: true,
    jsonOptions: { ignoreUnknownFields: false },
    routes: (router) => {
      for (const m of methods) {
        router.rpc(m, () => {
          state.handled = true;
          const a = state.answer;
          if (a.kind === "error") throw new ConnectError(a.message, a.code);
          return Promise.resolve(fromJson(m.output, a.kind === "message" ? a.json : {}));
        });
      }
    },
  });
  const http: Server = createServer(handler);
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", () => done()));
  const address = http.address();
  if (address === null || typeof address === "string") throw new Error("the Connect server has no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    state,
    output: (path) => methods.find((m) => `/${m.parent.typeName}/${m.name}` === path)?.output ?? null,
    close: () => new Promise<void>((done) => http.close(() => done())),
  };
}

/**
 * Whether the server takes a request (its path `/<package>.<Service>/<Method>`, its headers and body)
 * as its method's: null when the handler was reached, else the status and body it refused it with.
 */
export async function refusal(
  server: ConnectServer,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): Promise<string | null> {
  server.state.answer = { kind: "empty" };
  server.state.handled = false;
  const response = await fetch(`${server.url}${path}`, { method: "POST", headers, body });
  const text = await response.text();
  return server.state.handled ? null : `${response.status} ${text}`;
}

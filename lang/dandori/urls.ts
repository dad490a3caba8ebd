/**
 * A task's URL template (docs/dandori.md#urls), read once by the WHATWG URL parser — the parser
 * `fetch` uses, `new URL` — for the check (E007), the lowering, and where W902 and E906 see the
 * call going.
 *
 * A template is `http://` or `https://` text with `{argument}` where an argument's value goes
 * (`{{` and `}}` are braces). It is refused (E007, at the character) unless it means exactly what it
 * reads on every platform: no backslash (`fetch` reads it as `/`, other clients do not), no space,
 * control or invisible formatting character, no `%` that is not an escape, every `{` closed on an
 * argument the task has and every `}` closing one; with a value standing in for every `{…}`, the
 * parser must read it back character for character (a host in lower case ASCII, `xn--` for a
 * non-ASCII name, IPv4 as four decimal numbers, no default port, no dot segment in the path, every
 * character the parser would escape already escaped), save that an empty path is `/`; and no
 * user name or password before `@`, nor a fragment. What the parser reads is then what every
 * client sends, and the host it reads is where the call goes.
 *
 * This machine is `localhost`, a name under `.localhost`, `127.0.0.0/8` and `::1`: neither E906 nor
 * W902 counts a call there as leaving it. A host with a value in it is not known, so it is not
 * this machine.
 * @module
 */

import { assert } from "../common/assert.ts";
import { didYouMean } from "../common/nearest.ts";
import { type Text, tr } from "../common/text.ts";
import type { UrlPart } from "./plan.ts";

/** A template the parser reads as written. */
export interface UrlTemplate {
  readonly parts: readonly UrlPart[];
  readonly protocol: "http:" | "https:";
  /** The scheme and the authority as written, for messages: `https://api.example.com`, `http://{host}`. */
  readonly origin: string;
  /** True when the host is this machine (never when a value is written into the authority). */
  readonly local: boolean;
}

/** Why a template is refused, at which character of its text (by code point, from 0). */
export interface UrlFault {
  readonly at: number;
  /** Follows "the URL of `<task>`" in English, "`<task>` の URL" in Japanese. */
  readonly why: Text;
  readonly hint: Text | null;
}

/** The template read, or why it is refused. */
export type UrlReading =
  | { readonly ok: true; readonly template: UrlTemplate }
  | { readonly ok: false; readonly fault: UrlFault };

/** What stands for the `n`th value while the parser reads a template: lower case letters and digits, a host's label or a path's segment alike. */
function placeholder(n: number): string {
  return `dandori${n}value`;
}

/** The code point of a character as `U+0020`. */
function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

const HEX = /^[0-9A-Fa-f]$/;
const UNSEEN = /^[\p{Cc}\p{Cf}\p{White_Space}]$/u;

/** The template's pieces, or the first character that makes it mean something other than it reads. */
function pieces(chars: readonly string[], params: readonly string[]): UrlPart[] | UrlFault {
  const parts: UrlPart[] = [];
  let text = "";
  const fault = (at: number, why: Text, hint: Text | null): UrlFault => ({ at, why, hint });
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\") {
      return fault(
        i,
        tr(
          "has a backslash, which `fetch` reads as `/` and other clients do not",
          "にバックスラッシュがあります。`fetch` はそれを `/` と読み、ほかのクライアントはそう読みません",
        ),
        tr("write `/`, or `%5C` for a backslash", "`/` か、バックスラッシュなら `%5C` と書いてください"),
      );
    }
    if (UNSEEN.test(c)) {
      return fault(
        i,
        tr(
          `has ${codePoint(c)}, a space, a control or an invisible formatting character`,
          `に ${codePoint(c)}(空白、制御文字、見えない書式の文字)があります`,
        ),
        tr(
          "write it escaped (`%20` for a space), or leave it out",
          "エスケープして(空白なら `%20`)書くか、除いてください",
        ),
      );
    }
    if (c === "%" && !(HEX.test(chars[i + 1] ?? "") && HEX.test(chars[i + 2] ?? ""))) {
      return fault(
        i,
        tr(
          "has a `%` that is not followed by two hexadecimal digits, which clients read differently",
          "に、16 進の 2 桁が続かない `%` があります。クライアントによって読み方が違います",
        ),
        tr("write `%25` for a `%`", "`%` は `%25` と書いてください"),
      );
    }
    if ((c === "{" || c === "}") && chars[i + 1] === c) {
      text += c;
      i++;
      continue;
    }
    if (c === "}") {
      return fault(
        i,
        tr("has a `}` that closes no `{`", "に、どの `{` も閉じない `}` があります"),
        tr("write `}}` for a brace", "波括弧は `}}` と書いてください"),
      );
    }
    if (c !== "{") {
      text += c;
      continue;
    }
    const end = chars.indexOf("}", i + 1);
    if (end < 0) {
      return fault(
        i,
        tr("has a `{` that is not closed", "に、閉じていない `{` があります"),
        tr(
          "close it with `}` after the argument's name, or write `{{` for a brace",
          "引数の名前のあとを `}` で閉じるか、波括弧なら `{{` と書いてください",
        ),
      );
    }
    const name = chars.slice(i + 1, end).join("");
    if (!params.includes(name)) {
      return fault(
        i,
        tr(
          `has \`{${name}}\`, and the task has no argument \`${name}\``,
          `に \`{${name}}\` がありますが、タスクに引数 \`${name}\` はありません`,
        ),
        didYouMean(name, params) ??
          tr("a value in braces is one of the task's arguments", "波括弧の中には、タスクの引数を書きます"),
      );
    }
    if (text !== "") parts.push({ text });
    text = "";
    parts.push({ param: name });
    i = end;
  }
  if (text !== "") parts.push({ text });
  return parts;
}

/** The template's text with placeholders for its values, and for each of its characters, the written character it came from. */
function filled(chars: readonly string[], parts: readonly UrlPart[]): { text: string; from: number[] } {
  let text = "";
  const from: number[] = [];
  let at = 0;
  let n = 0;
  for (const p of parts) {
    if ("param" in p) {
      const value = placeholder(n++);
      text += value;
      for (let k = 0; k < value.length; k++) from.push(at);
      at += [...p.param].length + 2;
      continue;
    }
    for (const c of p.text) {
      text += c;
      from.push(at);
      at += c === "{" || c === "}" ? 2 : 1;
    }
  }
  assert(at === chars.length, "the pieces cover the template");
  return { text, from };
}

/** The template as the parser wrote it back, with `{argument}` again where the placeholders are. */
function unfilled(href: string, parts: readonly UrlPart[]): string {
  let out = href;
  let n = 0;
  for (const p of parts) {
    if ("param" in p) out = out.replace(placeholder(n++), `{${p.param}}`);
  }
  return out;
}

/** True when `host` (as the parser writes it) is this machine. */
function isLocalHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]") return true;
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((o) => /^[0-9]{1,3}$/.test(o));
}

/**
 * Reads a task's URL template, given the task's arguments.
 *
 * @example
 * ```ts
 * readUrl("https://api.example.com/orders/{order}", ["order"]); // ok, parts: text, {order}
 * readUrl("http://attacker.example\\@localhost/x", []); // refused at the backslash
 * ```
 */
export function readUrl(text: string, params: readonly string[]): UrlReading {
  const chars = [...text];
  const read = pieces(chars, params);
  if (!Array.isArray(read)) return { ok: false, fault: read };
  const refuse = (at: number, why: Text, hint: Text | null): UrlReading => ({
    ok: false,
    fault: { at, why, hint },
  });
  const scheme = text.startsWith("https://") ? "https:" : text.startsWith("http://") ? "http:" : null;
  if (scheme === null) {
    return refuse(
      0,
      tr("does not start with `https://` or `http://`", "が `https://` か `http://` で始まっていません"),
      tr(
        "write the scheme in lower case, then `//` and the host",
        "スキームを小文字で書き、`//` とホストを続けてください",
      ),
    );
  }
  const { text: sample, from } = filled(chars, read);
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    return refuse(
      0,
      tr(
        "is not a URL the WHATWG URL parser (the one `fetch` uses) reads",
        "は、WHATWG の URL パーサー(`fetch` が使うもの)が URL として読めません",
      ),
      tr(
        "write `https://<host>/<path>`, with values only in the host and after it",
        "`https://<ホスト>/<パス>` の形で、値はホストとそのあとにだけ書いてください",
      ),
    );
  }
  const sampleChars = [...sample];
  const slash = sampleChars.findIndex((c, i) => i >= scheme.length + 2 && "/?#".includes(c));
  const pathAt = slash < 0 ? sampleChars.length : slash;
  const written = (i: number) => i < from.length ? from[i] : chars.length;
  const emptyPath = sampleChars[pathAt] !== "/";
  const expected = emptyPath
    ? [...sampleChars.slice(0, pathAt), "/", ...sampleChars.slice(pathAt)]
    : sampleChars;
  const got = [...url.href];
  if (got.join("") !== expected.join("")) {
    let k = 0;
    while (k < got.length && got[k] === expected[k]) k++;
    const as = unfilled(url.href, read);
    return refuse(
      written(emptyPath && k > pathAt ? k - 1 : k),
      tr(
        `is read by the WHATWG URL parser (the one \`fetch\` uses) as \`${as}\`, not as it is written`,
        `は、WHATWG の URL パーサー(\`fetch\` が使うもの)には、書いたとおりではなく \`${as}\` と読まれます`,
      ),
      tr(
        `write \`${as}\`, so that every platform sends what the line reads`,
        `どのプラットフォームも行のとおりに送るよう、\`${as}\` と書いてください`,
      ),
    );
  }
  if (url.username !== "" || url.password !== "") {
    return refuse(
      written(sampleChars.indexOf("@")),
      tr(
        "has a user name or a password before `@`: `fetch` refuses such a URL, and the host is what follows `@`",
        "の `@` の前に、ユーザー名かパスワードがあります。`fetch` はその URL を拒み、ホストは `@` のあとのものです",
      ),
      tr(
        "send credentials in a header (the task's `connection`, or the Transport), not in the URL",
        "資格情報は URL ではなくヘッダ(タスクの `connection` か Transport)で送ってください",
      ),
    );
  }
  const hash = sampleChars.indexOf("#");
  if (hash >= 0) {
    return refuse(
      written(hash),
      tr(
        "has a fragment (`#…`), which is never sent",
        "にフラグメント(`#…`)があります。フラグメントは送られません",
      ),
      tr(
        "leave it out, or write `%23` for a `#` in the path",
        "除くか、パスの中の `#` なら `%23` と書いてください",
      ),
    );
  }
  const origin = chars.slice(0, written(pathAt)).join("");
  return {
    ok: true,
    template: {
      parts: read,
      protocol: scheme,
      origin,
      local: !origin.includes("{") && isLocalHost(url.hostname),
    },
  };
}

/** The pieces of a template the check has read (E007 refuses any other), for the lowering. */
export function urlParts(text: string, params: readonly string[]): readonly UrlPart[] {
  const reading = readUrl(text, params);
  assert(reading.ok, `the checker refuses the URL ${text}`);
  return reading.template.parts;
}

/**
 * Detection of key-shaped values (secrets) written in chobo source text,
 * backing diagnostic W901: "a key-shaped value is written in the file, in a
 * string or a comment".
 *
 * The scan is purely lexical and runs over whole lines, because a key pasted
 * into a comment leaks just as surely as one in a string.
 *
 * @module
 */

/** The kinds of key-shaped values the scanner knows. */
export type SecretKind =
  | "aws_access_key_id"
  | "github_token"
  | "slack_token"
  | "slack_webhook"
  | "stripe_key"
  | "openai_key"
  | "anthropic_key"
  | "google_api_key"
  | "pem_private_key";

/**
 * One key-shaped value: where it starts (1-based line, 1-based column counted
 * in Unicode code points), its kind, the prefix that identified it, and its
 * length in code points.
 */
export interface SecretHit {
  /** 1-based line number. */
  line: number;
  /** 1-based column, counted in Unicode code points. */
  col: number;
  /** Which kind of key the value looks like. */
  kind: SecretKind;
  /** The leading part that identified the kind; safe to show to the user. */
  prefix: string;
  /** Length of the whole value, in code points. */
  length: number;
}

/**
 * Readable names of each kind, English and Japanese (e.g. "AWS access key ID"
 * / "AWS のアクセスキー ID").
 */
export const SECRET_KINDS: Readonly<
  Record<SecretKind, { en: string; ja: string }>
> = Object.freeze({
  aws_access_key_id: { en: "AWS access key ID", ja: "AWS のアクセスキー ID" },
  github_token: { en: "GitHub token", ja: "GitHub のトークン" },
  slack_token: { en: "Slack token", ja: "Slack のトークン" },
  slack_webhook: {
    en: "Slack incoming webhook URL",
    ja: "Slack の Incoming Webhook URL",
  },
  stripe_key: { en: "Stripe key", ja: "Stripe のキー" },
  openai_key: { en: "OpenAI API key", ja: "OpenAI の API キー" },
  anthropic_key: { en: "Anthropic API key", ja: "Anthropic の API キー" },
  google_api_key: { en: "Google API key", ja: "Google の API キー" },
  pem_private_key: { en: "PEM private key", ja: "PEM 形式の秘密鍵" },
});

/**
 * The marker that silences a hit when it appears on the same line (in a
 * comment).
 */
export const TEST_SECRET_MARKER = "ritsu: test secret";

interface SecretPattern {
  kind: SecretKind;
  /** Global regex with a named group `prefix`. */
  re: RegExp;
}

// Every pattern refuses to start right after a word character so that a key
// shape buried in a longer identifier (`xAKIA…`, `task-…`) is not reported.
// The trailing `(?!\w)` rejects values that run on into a longer word, which
// would otherwise be cut short and reported as a key they are not.
// Order breaks ties (same start, same length); Anthropic is listed before
// OpenAI so that, should the `sk-` shapes ever overlap, an `sk-ant-` key is
// still named as Anthropic's.
const PATTERNS: readonly SecretPattern[] = [
  {
    kind: "aws_access_key_id",
    re: /(?<!\w)(?<prefix>AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?!\w)/g,
  },
  {
    kind: "github_token",
    re: /(?<!\w)(?<prefix>gh[pousr]_)[A-Za-z0-9]{36,}(?!\w)/g,
  },
  {
    kind: "github_token",
    re: /(?<!\w)(?<prefix>github_pat_)\w{22,}/g,
  },
  {
    kind: "slack_token",
    re: /(?<!\w)(?<prefix>xox[bpars]-|xapp-)[A-Za-z0-9-]{10,}(?!\w)/g,
  },
  {
    kind: "slack_webhook",
    re:
      /(?<!\w)(?<prefix>https:\/\/hooks\.slack\.com\/services\/)T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+(?!\w)/g,
  },
  {
    kind: "stripe_key",
    re: /(?<!\w)(?<prefix>[srp]k_(?:live|test)_)[A-Za-z0-9]{16,}(?!\w)/g,
  },
  {
    kind: "stripe_key",
    re: /(?<!\w)(?<prefix>whsec_)[A-Za-z0-9]{24,}(?!\w)/g,
  },
  {
    kind: "anthropic_key",
    re: /(?<!\w)(?<prefix>sk-ant-)[\w-]{20,}/g,
  },
  {
    kind: "openai_key",
    re: /(?<!\w)(?<prefix>sk-(?:proj|svcacct|admin)-)[\w-]{20,}/g,
  },
  {
    kind: "openai_key",
    re: /(?<!\w)(?<prefix>sk-)[A-Za-z0-9]{32,}(?!\w)/g,
  },
  {
    kind: "google_api_key",
    re: /(?<!\w)(?<prefix>AIza)[\w-]{35}(?![\w-])/g,
  },
  {
    kind: "pem_private_key",
    // A dash before the marker means a malformed armour line, not a key.
    re: /(?<![\w-])(?<prefix>-----BEGIN) (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY-----/g,
  },
];

/** A hit within one line, in UTF-16 offsets so the line can be sliced. */
interface Span {
  start: number;
  end: number;
  kind: SecretKind;
  prefix: string;
  order: number;
}

/** Non-overlapping spans in `line`, leftmost first, longest on a shared start. */
function scanLine(line: string): Span[] {
  const candidates: Span[] = [];
  PATTERNS.forEach(({ kind, re }, order) => {
    for (const m of line.matchAll(re)) {
      candidates.push({
        start: m.index,
        end: m.index + m[0].length,
        kind,
        prefix: m.groups!.prefix,
        order,
      });
    }
  });
  candidates.sort((a, b) =>
    a.start - b.start || (b.end - b.start) - (a.end - a.start) ||
    a.order - b.order
  );
  const spans: Span[] = [];
  let reached = 0;
  for (const c of candidates) {
    if (c.start < reached) continue;
    spans.push(c);
    reached = c.end;
  }
  return spans;
}

/** Number of code points in `s`; columns must not depend on UTF-16 pairs. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Every key-shaped value in `text`, in order of position. Lines containing
 * TEST_SECRET_MARKER are skipped. Lines are split on \n (a trailing \r is
 * part of no token).
 */
export function findSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.includes(TEST_SECRET_MARKER)) return;
    for (const s of scanLine(line)) {
      hits.push({
        line: i + 1,
        col: codePoints(line.slice(0, s.start)) + 1,
        kind: s.kind,
        prefix: s.prefix,
        length: codePoints(line.slice(s.start, s.end)),
      });
    }
  });
  return hits;
}

/** The end of a PEM private key's armour. */
const PEM_END = /-----END (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY-----/;
/**
 * A line that can stand inside a PEM block: base64, or a header such as `Proc-Type: 4,ENCRYPTED`,
 * after whatever marks a comment or opens a string.
 */
const PEM_BODY = /^[^A-Za-z0-9+/=]*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: .*)[\s"',;]*$/;

/**
 * `text` with every key-shaped value masked as `maskSecrets` masks it, and every PEM private key
 * masked whole: on its first line from `-----BEGIN` to its end marker (or the line's end), and
 * each line after it that is part of the block (base64 and armour headers, up to and including the
 * end marker) as `…`. Lines stay where they were, so a line number still names the same line.
 *
 * @example
 * ```ts
 * maskText(`key = "${"AKIA" + "Z".repeat(16)}"`); // 'key = "AKIA…"'
 * ```
 */
export function maskText(text: string): string {
  let inBlock = false;
  const maskLine = (line: string): string => {
    let out = "";
    let rest = line;
    if (inBlock) {
      const end = PEM_END.exec(line);
      if (end === null && PEM_BODY.test(line)) return "\u2026";
      inBlock = false;
      if (end !== null) {
        out = "\u2026";
        rest = line.slice(end.index + end[0].length);
      }
    }
    let from = 0;
    for (const s of scanLine(rest)) {
      if (s.start < from) continue;
      out += rest.slice(from, s.start) + s.prefix + "\u2026";
      from = s.end;
      if (s.kind !== "pem_private_key") continue;
      const end = PEM_END.exec(rest.slice(from));
      if (end === null) {
        inBlock = true;
        return out;
      }
      from += end.index + end[0].length;
    }
    return out + rest.slice(from);
  };
  return text.split("\n").map((line) => {
    const cr = line.endsWith("\r") ? "\r" : "";
    return maskLine(cr === "" ? line : line.slice(0, -1)) + cr;
  }).join("\n");
}

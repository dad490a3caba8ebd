import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  findSecrets,
  maskText,
  SECRET_KINDS,
  type SecretKind,
  TEST_SECRET_MARKER,
} from "../../lang/common/secrets.ts";

// Fake values are assembled at run time so this file never holds a
// contiguous key-shaped literal that other scanners would flag.
const AWS = "AKIA" + "Z".repeat(16);
const GHP = "ghp_" + "a1".repeat(18);
const GH_PAT = "github_" + "pat_" + "A_b9".repeat(6);
const SLACK = "xoxb" + "-1234567890-abcdef";
const WEBHOOK = "https://hooks.slack.com/services/" + "T0123ABCD/" +
  "B0456EFGH/" + "abcXYZ123";
const STRIPE = "sk_" + "live_" + "Ab3".repeat(6);
const WHSEC = "whsec" + "_" + "q".repeat(24);
const ANTHROPIC = "sk-" + "ant-" + "api03-" + "x_Y-".repeat(6);
const OPENAI_PROJ = "sk-" + "proj-" + "k9_-".repeat(6);
const OPENAI_PLAIN = "sk-" + "T3".repeat(16);
const GOOGLE = "AI" + "za" + "Sy" + "b-_1".repeat(8) + "Q";
const PEM = "-----" + "BEGIN RSA PRIVATE KEY-----";

/** The single hit expected in `line`, with its kind and prefix. */
function only(line: string): { kind: SecretKind; prefix: string } | null {
  const hits = findSecrets(line);
  if (hits.length === 0) return null;
  strictEqual(hits.length, 1, `one hit in ${JSON.stringify(line)}`);
  return { kind: hits[0].kind, prefix: hits[0].prefix };
}

Deno.test("each kind is found in a string, with its prefix", () => {
  const cases: [string, SecretKind, string][] = [
    [AWS, "aws_access_key_id", "AKIA"],
    ["A3T" + "X" + "9".repeat(16), "aws_access_key_id", "A3TX"],
    [GHP, "github_token", "ghp_"],
    [GH_PAT, "github_token", "github_pat_"],
    [SLACK, "slack_token", "xoxb-"],
    [WEBHOOK, "slack_webhook", "https://hooks.slack.com/services/"],
    [STRIPE, "stripe_key", "sk_live_"],
    [WHSEC, "stripe_key", "whsec_"],
    [ANTHROPIC, "anthropic_key", "sk-ant-"],
    [OPENAI_PROJ, "openai_key", "sk-proj-"],
    [OPENAI_PLAIN, "openai_key", "sk-"],
    [GOOGLE, "google_api_key", "AIza"],
    [PEM, "pem_private_key", "-----BEGIN"],
  ];
  for (const [value, kind, prefix] of cases) {
    deepStrictEqual(only(`memo "${value}"`), { kind, prefix }, value);
  }
});

Deno.test("a hit reports the whole value's length", () => {
  const hits = findSecrets(`memo "${WEBHOOK}" ; ${AWS}`);
  deepStrictEqual(hits.map((h) => h.length), [WEBHOOK.length, 20]);
  deepStrictEqual(findSecrets("; " + PEM + " trailing")[0].length, PEM.length);
});

Deno.test("every kind has English and Japanese names", () => {
  for (const [kind, names] of Object.entries(SECRET_KINDS)) {
    strictEqual(names.en.length > 0, true, kind);
    strictEqual(names.ja.length > 0, true, kind);
  }
  strictEqual(SECRET_KINDS.aws_access_key_id.en, "AWS access key ID");
});

Deno.test("values in comments are found too", () => {
  deepStrictEqual(findSecrets("2024-01-01 * lunch ; token " + GHP), [
    { line: 1, col: 28, kind: "github_token", prefix: "ghp_", length: 40 },
  ]);
});

Deno.test("values that are too short are not reported", () => {
  const short = [
    "AKIA" + "Z".repeat(15),
    "ghp_" + "a".repeat(35),
    "github_" + "pat_" + "a".repeat(21),
    "xoxb" + "-" + "1".repeat(9),
    "sk_" + "live_" + "a".repeat(15),
    "whsec" + "_" + "a".repeat(23),
    "sk-" + "ant-" + "a".repeat(19),
    "sk-" + "proj-" + "a".repeat(19),
    "sk-" + "a".repeat(31),
    "AI" + "za" + "a".repeat(34),
  ];
  for (const value of short) strictEqual(only(`"${value}"`), null, value);
});

Deno.test("values running on past their exact length are not reported", () => {
  strictEqual(only(`"${AWS}Z"`), null);
  strictEqual(only(`"${AWS}z"`), null);
  strictEqual(only(`"${GOOGLE}x"`), null);
});

Deno.test("values embedded in a longer word are not reported", () => {
  for (const value of [AWS, GHP, SLACK, STRIPE, OPENAI_PLAIN, GOOGLE]) {
    strictEqual(only(`"x${value}"`), null, value);
    strictEqual(only(`"_${value}"`), null, value);
  }
  strictEqual(only("account" + ANTHROPIC), null);
  strictEqual(only("task-" + "a".repeat(40)), null);
  strictEqual(only("-" + PEM), null);
});

Deno.test("ordinary words are not reported", () => {
  const prose = [
    "skip-ant-hill and skip-" + "a".repeat(40),
    "askew_live_" + "a".repeat(20),
    "AKIAの領収書",
    "-----BEGIN PUBLIC KEY-----",
    "https://hooks.slack.com/services/",
    "AIzawa is a surname",
  ];
  for (const line of prose) strictEqual(only(line), null, line);
});

Deno.test("Anthropic keys are not reported as OpenAI keys", () => {
  deepStrictEqual(only(ANTHROPIC), {
    kind: "anthropic_key",
    prefix: "sk-ant-",
  });
});

Deno.test("the marker silences only its own line", () => {
  const text = [
    `memo "${AWS}" ; ${TEST_SECRET_MARKER}`,
    `memo "${AWS}"`,
  ].join("\n");
  deepStrictEqual(findSecrets(text).map((h) => h.line), [2]);
});

Deno.test("columns count code points, not UTF-16 units", () => {
  // "𠀋" is outside the BMP: one code point but two UTF-16 units.
  deepStrictEqual(findSecrets(`description "在庫 ${AWS}"`)[0].col, 17);
  deepStrictEqual(findSecrets(`memo "𠀋 ${AWS}"`)[0].col, 9);
});

Deno.test("line numbers follow \\n and a trailing \\r joins no token", () => {
  const text = `; header\r\n  memo "x"\r\n  ; ${AWS}\r\n`;
  deepStrictEqual(findSecrets(text), [
    { line: 3, col: 5, kind: "aws_access_key_id", prefix: "AKIA", length: 20 },
  ]);
});

Deno.test("several hits on one line come out in order", () => {
  const line = `memo "${STRIPE}" ; ${AWS} and ${SLACK}`;
  const hits = findSecrets(line);
  deepStrictEqual(hits.map((h) => h.kind), [
    "stripe_key",
    "aws_access_key_id",
    "slack_token",
  ]);
  deepStrictEqual(hits.map((h) => h.col), [
    line.indexOf(STRIPE) + 1,
    line.indexOf(AWS) + 1,
    line.indexOf(SLACK) + 1,
  ]);
});

Deno.test("hits across lines come out in order", () => {
  const hits = findSecrets(`${GOOGLE}\n\n"${GHP}" ${PEM}`);
  deepStrictEqual(hits.map((h) => [h.line, h.col, h.kind]), [
    [1, 1, "google_api_key"],
    [3, 2, "github_token"],
    [3, 44, "pem_private_key"],
  ]);
});

Deno.test("maskText keeps the prefix and the rest of the line", () => {
  strictEqual(
    maskText(`description "在庫 ${AWS}" ; see ${GHP} here`),
    `description "在庫 AKIA…" ; see ghp_… here`,
  );
  strictEqual(maskText(`"${WEBHOOK}"`), `"https://hooks.slack.com/services/…"`);
});

Deno.test("maskText ignores the marker and leaves clean lines alone", () => {
  strictEqual(
    maskText(`"${OPENAI_PLAIN}" ; ${TEST_SECRET_MARKER}`),
    `"sk-…" ; ${TEST_SECRET_MARKER}`,
  );
  const clean = `2024-01-01 * "skip-ant" ; 在庫`;
  strictEqual(maskText(clean), clean);
});

Deno.test("a PEM private key is masked whole: the rest of its line, its base64 lines, its end marker", () => {
  const end = "-----" + "END RSA PRIVATE KEY-----";
  const body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun";
  strictEqual(maskText(`k = "${PEM}${body}${end}" # x`), `k = "-----BEGIN…" # x`);
  strictEqual(maskText(`k = "${PEM} ${body}`), `k = "-----BEGIN…`);
  strictEqual(
    maskText(`# ${PEM}\n# ${body}\n${body}\nProc-Type: 4,ENCRYPTED\n${end} after ${GHP}\nunit pcs\n`),
    `# -----BEGIN…\n…\n…\n…\n… after ghp_…\nunit pcs\n`,
  );
  strictEqual(maskText(`${PEM}\r\n${body}\r\nunit pcs`), "-----BEGIN…\r\n…\r\nunit pcs");
});

/**
 * A flow's name on Argo Workflows (docs/targets.md#argo): the WorkflowTemplate a flow builds to is
 * named `<workflow>-v<version>` spelled as a Kubernetes name, which the Argo target writes and a
 * parent's `flow` task creates its child from, and which the `argo` view of a child's call shows. It is
 * here and not in the target because the view (views.ts) writes it too, as the durable view writes a
 * child's `<name>_v<n>`.
 *
 * The spelling: `_` becomes `-`, ASCII letters are lower-cased, and a name with any other letter is
 * written as an IDNA label is (`xn--` and the name's Punycode, RFC 3492), so `注文` v1 is
 * `xn---v1-…`. What Kubernetes still cannot take (a name that starts or ends with `-`, one longer than
 * a label's 63 characters, which Argo puts in a label of every Workflow it makes from the template)
 * has no spelling: the target refuses it (E006).
 * @module
 */

/** The longest name of a WorkflowTemplate: Argo writes it into each Workflow's labels, whose values are at most 63 characters. */
export const MAX_KUBERNETES_NAME = 63;

/** A Kubernetes name that fits a label: lower-case letters, digits and `-`, a letter or digit at each end. */
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The WorkflowTemplate's name of a workflow, or null when Kubernetes cannot take any spelling of it.
 *
 * @example
 * ```ts
 * workflowTemplateName("arrange_delivery", 1); // "arrange-delivery-v1"
 * workflowTemplateName("注文", 1); // "xn---v1-…" (Punycode)
 * ```
 */
export function workflowTemplateName(workflow: string, version: number): string | null {
  const base = `${workflow}-v${version}`.replaceAll("_", "-").replace(/[A-Z]/g, (c) => c.toLowerCase());
  const ascii = [...base].every((c) => c.charCodeAt(0) < 0x80);
  const name = ascii ? base : `xn--${punycode(base)}`;
  return name.length <= MAX_KUBERNETES_NAME && LABEL.test(name) ? name : null;
}

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

/** A Punycode digit (RFC 3492, 5): `a`–`z` for 0–25, `0`–`9` for 26–35. */
function digit(d: number): string {
  return String.fromCharCode(d < 26 ? 97 + d : 22 + d);
}

/** The bias after a delta (RFC 3492, 6.1). */
function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

/** The Punycode of `text` (RFC 3492, 6.3): its ASCII characters, `-`, then the others as deltas. */
function punycode(text: string): string {
  const points = [...text].map((c) => c.codePointAt(0) ?? 0);
  const basic = points.filter((p) => p < 0x80);
  let out = String.fromCodePoint(...basic);
  if (basic.length > 0) out += "-";
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  let handled = basic.length;
  while (handled < points.length) {
    const m = Math.min(...points.filter((p) => p >= n));
    delta += (m - n) * (handled + 1);
    n = m;
    for (const p of points) {
      if (p < n) delta++;
      if (p !== n) continue;
      let q = delta;
      for (let k = BASE;; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        out += digit(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      out += digit(q);
      bias = adapt(delta, handled + 1, handled === basic.length);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return out;
}

/**
 * Where a task's URL goes (docs/dandori.md#secrets-and-plain-http): its scheme and host, and
 * whether the host is this machine (`localhost`, a name under `.localhost`, `127.0.0.0/8`, `::1`),
 * which neither E906 nor W902 counts as leaving it.
 * @module
 */

/** The scheme and the authority of a URL as written, before its path: `https://api.example.com`. */
export function originOf(url: string): string {
  const scheme = url.indexOf("://");
  if (scheme < 0) return url;
  const rest = url.slice(scheme + 3);
  const end = rest.search(/[/?#]/);
  return url.slice(0, scheme + 3) + (end < 0 ? rest : rest.slice(0, end));
}

/** True when the URL is written `http://…`: plain text, no TLS. */
export function isPlainHttp(url: string): boolean {
  return url.toLowerCase().startsWith("http://");
}

/**
 * True when the URL's host is this machine. A host written with a value in braces
 * (`http://{host}/…`) is not known, so it is not this machine.
 */
export function isThisMachine(url: string): boolean {
  const origin = originOf(url);
  const scheme = origin.indexOf("://");
  if (scheme < 0) return false;
  const authority = origin.slice(scheme + 3);
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1).toLowerCase();
  if (hostPort.includes("{")) return false;
  const host = hostPort.startsWith("[")
    ? hostPort.slice(1, hostPort.indexOf("]"))
    : hostPort.replace(/:[0-9]*$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1") return true;
  const octets = host.split(".");
  return octets.length === 4 && octets[0] === "127" &&
    octets.every((o) => /^[0-9]{1,3}$/.test(o) && Number(o) <= 255);
}

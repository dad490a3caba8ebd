/**
 * What the Python clients of both targets share: how tuples and keyword-only
 * signatures are written, and how a name is kept free of another in the same scope.
 * @module
 */

/** `base`, or `base_`, `base__` … : the first that no member of the same scope takes. */
export function fresh(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  while (taken.has(name)) name += "_";
  return name;
}

/** A tuple expression: `()`, `(a,)`, `(a, b)`. */
export function tuple(items: readonly string[]): string {
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
}

/** Keyword-only parameters after `self`: `self, *, a: str, b: int`. */
export function signature(params: readonly string[]): string {
  return params.length === 0 ? "self" : `self, *, ${params.join(", ")}`;
}

/**
 * A queue of one: the PostgreSQL differential run and its TypeScript runner run `expire()` calls
 * this way (docs/design/chobo.md#postgresql: `expire()` skips holds another `expire()` has locked, so two at
 * once could each leave the other's holds for a moment), and the connection checkouts of `together` callers
 * (callers that each held some of the pool while waiting for the rest would wait for ever).
 * @module
 */

/** Runs its functions one at a time, in the order given; a failure does not stop the next. */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();
  run<T>(f: () => Promise<T>): Promise<T> {
    const next = this.last.then(f, f);
    this.last = next.catch(() => {});
    return next;
  }
}

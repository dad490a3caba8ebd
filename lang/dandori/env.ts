/**
 * What `dandori check` takes and gives, apart from how it checks: the port a flow's files come
 * through and the result of checking one flow. Both the checker (`check.ts`) and the check of
 * child flows (`children.ts`) read them, so they live here and the import graph stays acyclic.
 * @module
 */

import type { Diagnostic } from "../common/diagnostic.ts";
import type { CheckedFlow, TypedFlow } from "./checked.ts";
import type { FlowModel } from "./model.ts";

/** What checking one flow found. */
export interface FlowCheck {
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  /** The resolved flow, when it has no error. */
  readonly model: FlowModel | null;
  /** The flow as the stages after the checker read it (interpreter, lowering), when it has no error. */
  readonly checked: CheckedFlow | null;
  /**
   * The flow once its names and types resolved, even when the checks along the flow found errors
   * (the page draws it); null when names or types did not resolve.
   */
  readonly typedFlow: TypedFlow | null;
  /** True when a construct this dandori cannot read stopped the check (E018: exit 2). */
  readonly unsupported: boolean;
}

/** Where a flow's files come from. */
export interface CheckEnv {
  /** The bytes of a file by its path from the working directory, or null when it cannot be read. */
  readonly read: (path: string) => Uint8Array | null;
  /** The flows being checked that lead to this one (a child names its parents), to stop a flow that runs itself. */
  readonly chain?: readonly string[];
}

/** The checker of one flow's text, passed to the check of its children so they need not import it. */
export type CheckFlow = (file: string, text: string, env: CheckEnv) => FlowCheck;

/**
 * What `dandori check` takes and gives, apart from how it checks: the port a flow's files come
 * through and the result of checking one flow. Both the checker (`check.ts`) and the check of
 * child flows (`children.ts`) read them, so they live here and the import graph stays acyclic.
 * @module
 */

import type { Diagnostic } from "../common/diagnostic.ts";
import { type Text, tr } from "../common/text.ts";
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

/** Why a file a flow names cannot be read: a sentence in both languages. */
export interface Unreadable {
  readonly unreadable: Text;
}

/** A file read through the port: its bytes, or why not. */
export type FileRead = Uint8Array | Unreadable;

/** A file that is not there. */
export const NO_SUCH_FILE: Unreadable = { unreadable: tr("there is no such file", "ファイルがありません") };

/** Where a flow's files come from. */
export interface CheckEnv {
  /**
   * A file by its path from the working directory, named by the flow `from` (a book or a child
   * flow); the reader may refuse it (a file that is not regular, too large, outside the tree).
   */
  readonly read: (path: string, from: string) => FileRead;
  /** The flows being checked that lead to this one (a child names its parents), to stop a flow that runs itself. */
  readonly chain?: readonly string[];
}

/** The checker of one flow's text, passed to the check of its children so they need not import it. */
export type CheckFlow = (file: string, text: string, env: CheckEnv) => FlowCheck;

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

/**
 * A file read through the port: its bytes, and its real path (every symbolic link followed), which
 * is one for every path that reaches the file.
 */
export interface FileBytes {
  readonly bytes: Uint8Array;
  readonly real: string;
}

/** A file read through the port, or why not. */
export type FileRead = FileBytes | Unreadable;

/** A file that is not there. */
export const NO_SUCH_FILE: Unreadable = { unreadable: tr("there is no such file", "ファイルがありません") };

/** Where a flow's files come from. */
export interface CheckEnv {
  /**
   * A file a flow names (a book or a child flow) by its path from the working directory; the
   * reader may refuse it (a file that is not regular, too large, outside the flow's repository).
   */
  readonly read: (path: string) => FileRead;
}

/**
 * What the check of a flow shares with the checks of the child flows under it: each child is
 * checked once, however many tasks and flows run it (docs/dandori.md#child-flows).
 */
export interface ChildScope {
  /** The flows being checked that lead to this one, the flow given first. */
  readonly chain: readonly ChainLink[];
  /** Every child flow checked so far, by its real path; at most `MAX_CHILD_FLOWS`. */
  readonly checked: Map<string, FlowCheck>;
  /** The real paths of the children not checked because `checked` was full. */
  readonly unchecked: Set<string>;
}

/** A flow in the chain of flows being checked: the path it was named by, and its real path. */
export interface ChainLink {
  readonly path: string;
  /** The real path; the flow given to the check has its path here (its reader found it). */
  readonly real: string;
}

/** The checker of one flow's text, passed to the check of its children so they need not import it. */
export type CheckFlow = (file: string, text: string, env: CheckEnv, scope: ChildScope) => FlowCheck;

/**
 * Bundles shared between a flow's worker and its generated `replay`, in the TypeScript runner
 * (docs/targets.md#the-runner-contract). The SDK bundles a flow's workflow code twice: `Worker.create`
 * for its worker and again the generated `replay` (`Worker.runReplayHistories`), both from the code
 * copy's `workflow.ts` with the SDK's default bundler options, so the same bytes one webpack run (about
 * 0.6 s of CPU) apart. `shareBundles` makes the SDK keep each such bundle by its path and options until
 * it is forgotten; a worker given its own bundle, bundler options or plugins is bundled as the SDK does.
 * @module
 */

import { Worker } from "@temporalio/worker";

/** What the SDK's bundling reads of a worker's compiled options. */
interface BundleOptions {
  readonly workflowBundle?: unknown;
  readonly workflowsPath?: string;
  readonly bundlerOptions?: unknown;
  readonly plugins?: readonly unknown[];
  readonly interceptors?: { readonly workflowModules?: readonly string[] };
  readonly dataConverter?: { readonly payloadConverterPath?: string; readonly failureConverterPath?: string };
}

/** The SDK's `Worker.getOrCreateBundle`, which both `Worker.create` and `Worker.runReplayHistories` call. */
type Bundling = (options: BundleOptions, logger: unknown) => Promise<unknown>;

/** The shared bundles: `forget` drops those of the code copy in `dir` once its flow is done. */
export interface SharedBundles {
  forget(dir: string): void;
}

/** Makes the SDK share bundles of the same path and options, for the rest of the process. */
export function shareBundles(): SharedBundles {
  const kept = new Map<string, Promise<unknown>>();
  const sdk = Worker as unknown as { getOrCreateBundle: Bundling };
  const bundle = sdk.getOrCreateBundle.bind(Worker);
  sdk.getOrCreateBundle = (options, logger) => {
    const path = options.workflowsPath;
    if (
      options.workflowBundle !== undefined || path === undefined || options.bundlerOptions !== undefined ||
      (options.plugins ?? []).length > 0
    ) return bundle(options, logger);
    const key = JSON.stringify([
      path,
      options.interceptors?.workflowModules ?? [],
      options.dataConverter?.payloadConverterPath ?? null,
      options.dataConverter?.failureConverterPath ?? null,
    ]);
    const made = kept.get(key) ?? bundle(options, logger);
    kept.set(key, made);
    return made;
  };
  return {
    forget(dir) {
      for (const key of kept.keys()) {
        if ((JSON.parse(key) as string[])[0].startsWith(`${dir}/`)) kept.delete(key);
      }
    },
  };
}

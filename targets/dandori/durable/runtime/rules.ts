// In this repository only: the shared rules as `runtime.ts` imports them ("./rules.ts"). A package
// gets targets/dandori/typescript/runtime/rules.ts itself under that name (docs/targets.md).
export * from "../../typescript/runtime/rules.ts";

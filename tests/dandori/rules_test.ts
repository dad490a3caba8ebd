/**
 * The TypeScript rules module (`lang/dandori/rules.ts`) against the shared vectors of
 * `tests/vectors/`: the same vectors every generated runtime passes in its own language
 * (`tests/dandori/temporal_test.ts` runs them over the Temporal runtime).
 */

import * as rules from "../../lang/dandori/rules.ts";
import { ruleVectorTests } from "../support/rule_vectors.ts";

ruleVectorTests("lang/dandori/rules.ts", { ...rules, urlSegment: rules.urlSegment }, (v) => v);

/**
 * The runner's sizes, apart from the runner (which starts a worker when imported) so the bench can
 * read them.
 * @module
 */

/** Runs a flow's runner plays at once, sized for 2 cores: a flow's runs share one worker. */
export const AT_ONCE = 12;

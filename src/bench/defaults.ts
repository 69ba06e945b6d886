/** The defaults of a benchmark job that more than one stage (and the cost estimate) use. */

/** A reproduction's time, build and run each, when the configs give none: half a day. */
export const DEFAULT_TIME_LIMIT_SEC = 43200;

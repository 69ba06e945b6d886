/**
 * How long the client waits for one tool call. A tool's own wall-clock argument wins (as given,
 * else its default in the schema) plus a margin for start-up and reporting, then the tool's
 * declared timeout, then the default.
 */
export const DEFAULT_TOOL_TIMEOUT_S = 300;

/** The longest a timer waits (2^31 - 1 ms): a longer wait fires at once, so waits are capped to it. */
export const MAX_WAIT_S = Math.floor((2 ** 31 - 1) / 1000);

const WALL_CLOCK_ARGS = ['timeout', 'time_limit_sec', 'timeout_global_sec', 'wall_time_sec'];
const MARGIN_S = 60;

export function toolTimeoutS(declared: number | undefined, args: Record<string, unknown>, inputSchema: Record<string, unknown> = {}): number {
  const properties = (inputSchema.properties ?? {}) as Record<string, { default?: unknown } | undefined>;
  for (const key of WALL_CLOCK_ARGS) {
    const v = args[key] ?? properties[key]?.default;
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v + MARGIN_S;
  }
  return declared ?? DEFAULT_TOOL_TIMEOUT_S;
}

import { Type as T } from '@sinclair/typebox';
import { envWithoutSecrets } from '../core/config/secrets.ts';
import type { ToolContext } from '../mcp/tool.ts';
import { KILL_GRACE_S, OUTPUT_MAX_CHARS } from './run-process.ts';

/** The spec's default coding timeout. */
export const DEFAULT_TIMEOUT_S = 60;
/** One command is at most a default node's whole budget; longer work belongs with the scheduler. */
export const MAX_TIMEOUT_S = 7200;

export const TimeoutParam = T.Number({
  default: DEFAULT_TIMEOUT_S,
  exclusiveMinimum: 0,
  maximum: MAX_TIMEOUT_S,
  description: `seconds before the command and everything it started are stopped (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S})`,
});

/** A client waiting this long has seen the slowest call the tool can make end on its own. */
export const EXEC_TOOL_TIMEOUT_S = MAX_TIMEOUT_S + KILL_GRACE_S + 30;

/**
 * The skill's environment, passed on so SVC_* and PATH reach the code, less svc's credentials
 * (provider keys, tokens): code a model wrote has no business reading them, and its output ends up
 * in logs and memory. Python output is unbuffered so that what a script printed before a timeout
 * is not lost in its buffer. Variables granted to the commands (ctx.grantedEnv) are passed whatever
 * their names: their owner meant the code to have them.
 */
export function childEnv(ctx: Pick<ToolContext, 'env' | 'grantedEnv'>): Record<string, string | undefined> {
  return { PYTHONUNBUFFERED: '1', ...envWithoutSecrets(ctx.env, ctx.grantedEnv) };
}

/** Shown with a run's output so a model knows what the fields mean. */
export const RESULT_SHAPE = `{exit_code, signal, stdout, stderr, timed_out, truncated, elapsed_s}; stdout and stderr keep their first and last ${OUTPUT_MAX_CHARS / 2} characters each, and truncated says when the middle was cut`;

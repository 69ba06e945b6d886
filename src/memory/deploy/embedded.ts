import { join } from 'node:path';
import { selfCommand } from '../../mcp/self-command.ts';
import { localDir } from './local-state.ts';
import type { LaunchPlan, PlanContext } from './launch-plan.ts';

/** The auto path: this program's own `svc memory serve`, with its database under the workspace. */
export function embeddedPlan(ctx: PlanContext): LaunchPlan {
  const data = join(localDir(ctx.workspace), 'data');
  const { command, args } = selfCommand(['memory', 'serve', '--host', ctx.host, '--port', String(ctx.port), '--data-dir', data]);
  return { path: 'auto', dirs: [data], setup: [], serve: [command, ...args], teardown: [], startTimeoutMs: 30_000 };
}

import { Elysia } from 'elysia';
import { effective } from '../../core/config/config.ts';
import { runningPid } from '../../core/checkpoint/pid.ts';
import { followRunLog } from '../../core/checkpoint/run-log-follow.ts';
import { formatCursor, type LogCursor, parseCursor, recentRunLog, runLogSince } from '../../core/checkpoint/run-log.ts';
import { runState } from '../../core/checkpoint/state.ts';
import { InputError } from '../../core/errors.ts';
import { queryGpus } from '../../core/system/gpu.ts';
import { resourceMetrics } from '../../core/system/metrics.ts';
import { memoForTurn } from '../../core/turn-memo.ts';
import { pipelineProgress, type StageProgress } from '../../pipeline/stage-progress.ts';
import type { ServerContext } from '../context.ts';
import { eventStreamResponse, sseEvent } from '../event-stream.ts';
import { LogQuery } from '../../schema/dashboard-api.ts';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** The dashboard's most frequent call: polls handled in one turn of the event loop share one answer. */
const stateJson = memoForTurn((_key: string, read: () => unknown) => JSON.stringify(read()));

/** State and dashboards: the run state snapshot, GPU and resource monitors, the log stream. */
export const stateRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'state' })
    .get('/state', () => {
      const active = ctx.active;
      const own = ctx.runs.forCheckpoint(active);
      const body = stateJson(`${active}:${own?.pid}:${own?.running}`, () => ({ ...runState(active, () => defaultModel(ctx), own), ...stagesOf(ctx, active) }));
      return new Response(body, { headers: JSON_TYPE });
    })
    .get('/api/gpu-monitor', () => queryGpus({ path: ctx.env.PATH ?? '' }))
    .get('/api/resource-metrics', () => resourceMetrics(ctx.workspaceRoot))
    // recent lines of the active run's log, as one JSON page or as a live event stream
    .get(
      '/api/logs',
      ({ query, request }) => {
        const dir = ctx.requireActive();
        const lines = lineCount(query.lines);
        const start = cursorOf(request.headers.get('last-event-id') ?? query.since, request.headers.has('last-event-id') ? 'Last-Event-ID' : 'since');
        if (!wantsEventStream(query, request)) {
          const final = runningPid(dir) === null;
          const page = start ? runLogSince(dir, start, lines, final) : recentRunLog(dir, lines, final);
          return { file: page.file, lines: page.lines.map((l) => l.msg), next: formatCursor(page.next) };
        }
        return logEventStream(dir, start, lines, request.signal);
      },
      { query: LogQuery },
    );

/** An event stream for `?stream=1` or an EventSource (it accepts text/event-stream); `?format=json` and `?stream=0` win. */
function wantsEventStream(query: { format?: string; stream?: string }, request: Request): boolean {
  if (query.format === 'json') return false;
  if (query.stream !== undefined) return query.stream === '1' || query.stream === 'true';
  return (request.headers.get('accept') ?? '').includes('text/event-stream');
}

function lineCount(text: string | undefined): number {
  if (text === undefined) return 200;
  const n = /^\d{1,4}$/.test(text) ? Number(text) : 0;
  if (n < 1 || n > 5000) throw new InputError(`lines must be a whole number from 1 to 5000, got '${text}'`);
  return n;
}

function cursorOf(text: string | null | undefined, what: string): LogCursor | null {
  if (text === undefined || text === null) return null;
  const cursor = parseCursor(text);
  if (!cursor) throw new InputError(`${what} '${text}' is not a log position`, 'pass back the `next` (or event id) of an earlier answer, `<log offset>:<cost offset>`');
  return cursor;
}

/**
 * The log as server-sent events: one `data: {"msg"}` event per line with its cursor as id, a
 * heartbeat comment when nothing happened for a while, and `event: done` when the run has ended.
 */
function logEventStream(dir: string, start: LogCursor | null, recent: number, signal: AbortSignal): Response {
  return eventStreamResponse(followRunLog(dir, { start, recent, signal }), ({ lines, done }) => {
    const text = lines.map((l) => sseEvent({ msg: l.msg }, { id: formatCursor(l.cursor) })).join('');
    return { text: done ? text + sseEvent({ msg: '[end of log]' }, { event: 'done' }) : text, last: done };
  });
}

/** The post-search stages of the active checkpoint's workflow and how far each got; none when the workflow cannot be read. */
function stagesOf(ctx: ServerContext, dir: string | null): { stages?: StageProgress[] } {
  if (!dir) return {};
  try {
    const cfg = ctx.config();
    return { stages: pipelineProgress(dir, cfg.projectRoot, cfg.workflow.workflow) };
  } catch {
    // a broken workflow is reported by the workflow routes; /state keeps answering
    return {};
  }
}

/** The model a run would use when its checkpoint does not record one: environment, then workflow. */
function defaultModel(ctx: ServerContext): { provider: string; model: string } {
  try {
    const cfg = ctx.config();
    return { provider: String(effective(cfg, 'backend').value ?? ''), model: String(effective(cfg, 'model').value ?? '') };
  } catch {
    // a broken .env or workflow is reported by the routes that read them; /state keeps answering
    return { provider: '', model: '' };
  }
}

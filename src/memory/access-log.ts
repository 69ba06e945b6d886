import { join } from 'node:path';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { onOff } from '../core/config/settings.ts';
import { oneLine } from '../core/errors.ts';
import { RotatingLog } from '../core/rotating-log.ts';
import { log } from '../core/log.ts';

export const ACCESS_LOG_FILE = 'memory_access.jsonl';
const PREVIEW_CHARS = 200;

/** Node-scoped entries all sit in one collection; `kind` says which sort of entry it is. */
export type Collection = 'node_scope';
export type AccessResult = { src_node_id: string; entry_id: string; score?: number };

/** The event formats of the reference implementation, plus `delete` for clear_node_memory. */
export type AccessEvent =
  | { ts: number; op: 'write'; node_id: string; collection: Collection; entry_id: string; kind: string; text_preview: string; metadata: Record<string, unknown> }
  | { ts: number; op: 'read'; node_id: string; collection: Collection; query: string; ancestor_ids: string[]; limit: number | null; results: AccessResult[] }
  | { ts: number; op: 'delete'; node_id: string; collection: Collection; entry_ids: string[] };

export function writeEvent(e: { node_id: string; entry_id: string; kind: string; text: string; metadata: Record<string, unknown> }): AccessEvent {
  return { ts: nowSeconds(), op: 'write', node_id: e.node_id, collection: 'node_scope', entry_id: e.entry_id, kind: e.kind, text_preview: e.text.slice(0, PREVIEW_CHARS), metadata: e.metadata };
}

/** `node_id` is the reader (the current node, or '' outside a node). */
export function readEvent(e: { node_id: string; query: string; ancestor_ids: string[]; limit: number | null; results: AccessResult[] }): AccessEvent {
  return { ts: nowSeconds(), op: 'read', node_id: e.node_id, collection: 'node_scope', query: e.query, ancestor_ids: e.ancestor_ids, limit: e.limit, results: e.results };
}

export function deleteEvent(e: { node_id: string; entry_ids: string[] }): AccessEvent {
  return { ts: nowSeconds(), op: 'delete', node_id: e.node_id, collection: 'node_scope', entry_ids: e.entry_ids };
}

/**
 * memory_access.jsonl in a checkpoint: memory telemetry for the dashboard, rotated to
 * memory_access.<n>.jsonl at the size limit (RotatingLog: whole lines, parallel writers).
 */
export class AccessLog {
  readonly file: string;
  private readonly log: RotatingLog;
  private warned = false;

  constructor(
    readonly dir: string,
    maxBytes: number,
  ) {
    this.file = join(dir, ACCESS_LOG_FILE);
    this.log = new RotatingLog(this.file, maxBytes);
  }

  /** The log of SVC_CHECKPOINT_DIR, or null when SVC_MEMORY_ACCESS_LOG is off or there is no checkpoint. */
  static fromEnv(env: Env): AccessLog | null {
    const dir = envValue(env, 'SVC_CHECKPOINT_DIR');
    if (dir === null || onOff(envValue(env, 'SVC_MEMORY_ACCESS_LOG') ?? '') === false) return null;
    const raw = envValue(env, 'SVC_MEMORY_ACCESS_LOG_MAX_MB');
    let mb = Number(raw);
    if (!Number.isFinite(mb) || mb <= 0) {
      // telemetry never stops memory: a bad size is reported and the default used
      log.warn(`SVC_MEMORY_ACCESS_LOG_MAX_MB must be a positive number of MB, got '${raw}'; rotating at 100 MB`);
      mb = 100;
    }
    return new AccessLog(dir, mb * 1024 * 1024);
  }

  /**
   * Appends the events as one write. Telemetry never fails a memory operation: a log that cannot
   * be written is reported once on stderr and the events are dropped.
   */
  append(events: AccessEvent[]): void {
    if (events.length === 0) return;
    try {
      this.log.append(events.map((e) => `${JSON.stringify(e)}\n`).join(''), (err) => this.warn(`cannot be rotated: ${oneLine(err)}`));
    } catch (err) {
      this.warn(`cannot be written: ${oneLine(err)}`);
    }
  }

  private warn(problem: string): void {
    if (!this.warned) log.warn(`memory access log ${this.file} ${problem}`);
    this.warned = true;
  }
}

function nowSeconds(): number {
  return Date.now() / 1000;
}

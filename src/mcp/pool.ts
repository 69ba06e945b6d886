import type { SkillEntry } from '../core/config/skills.ts';
import { oneLine, SvcError } from '../core/errors.ts';
import { builtinSkill } from '../schema/tool-manifest.ts';
import type { Phase } from '../schema/workflow.ts';
import { callMeta } from './call-env.ts';
import type { NodeExec } from '../sandbox/node-command.ts';
import { type Env, SkillConnection } from './connection.ts';
import { MAX_WAIT_S, toolTimeoutS } from './timeouts.ts';

export type ToolInfo = { skill: string; name: string; description: string; inputSchema: Record<string, unknown>; timeoutS?: number };
export type ToolOutcome = { result: unknown } | { error: string };

export type PoolOptions = {
  skills: SkillEntry[];
  /** `<skill>:<tool>` entries, or bare tool names that are off in every skill */
  disabledTools?: string[];
  /** the environment of every skill process (the run's, with SVC_CHECKPOINT_DIR and the like) */
  env: Env;
  /** the svc executable that serves built-in skills; this program when omitted */
  program?: string;
};

const CONNECT_ATTEMPTS = 3;

/**
 * The run's tool client: one server process per skill, started on the first call to one of its
 * tools. A call never throws: it ends as `{result}` or `{error}`, so a model can read and react.
 */
export class SkillPool {
  private readonly skills: Map<string, SkillEntry>;
  private readonly disabled: Set<string>;
  private readonly connections = new Map<string, Promise<SkillConnection>>();
  private catalogue: Promise<ToolInfo[]> | null = null;
  /** why an external skill offers no tools: it would not start or not list them */
  private readonly unlisted = new Map<string, string>();
  private closed = false;
  private readonly spawnEnv: Env;

  constructor(private readonly opts: PoolOptions) {
    this.skills = new Map(opts.skills.filter((s) => s.enabled).map((s) => [s.name, s]));
    this.disabled = new Set(opts.disabledTools ?? []);
    // the node travels with each call; a process-wide one would hold for every node alike
    this.spawnEnv = Object.fromEntries(Object.entries(opts.env).filter(([name]) => name !== 'SVC_CURRENT_NODE_ID'));
  }

  /** Tools of the skills serving `phase` (every enabled skill when omitted), less the disabled ones. */
  async tools(phase?: Exclude<Phase, 'none'>): Promise<ToolInfo[]> {
    this.catalogue ??= this.loadCatalogue();
    const all = await this.catalogue;
    return all.filter((t) => (phase === undefined || this.skills.get(t.skill)?.phases.includes(phase)) && !this.isDisabled(t));
  }

  /** Calls a tool by name; `skill` picks one when two skills have a tool of that name. */
  /** `nodeId`: the node the call is made for (memory writes are allowed in its scope only). */
  async call(name: string, args: Record<string, unknown> = {}, opts: { skill?: string; signal?: AbortSignal; timeoutS?: number; nodeId?: string; exec?: NodeExec } = {}): Promise<ToolOutcome> {
    try {
      const tool = await this.find(name, opts.skill);
      const conn = await this.connection(tool.skill);
      const timeoutS = Math.min(opts.timeoutS ?? toolTimeoutS(tool.timeoutS, args, tool.inputSchema), MAX_WAIT_S);
      return await this.send(conn, tool, args, timeoutS, opts.signal, callMeta(opts.nodeId, opts.exec));
    } catch (err) {
      return { error: err instanceof SvcError ? oneLine(err) : `${name}: ${oneLine(err)}` };
    }
  }

  /** Process ids of the running skill servers, by skill. */
  async running(): Promise<Record<string, number | null>> {
    const out: Record<string, number | null> = {};
    for (const [name, pending] of this.connections) {
      const conn = await pending.catch(() => null);
      if (conn?.alive) out[name] = conn.pid;
    }
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((p) => p.then((c) => c.close()).catch(() => {})));
  }

  private async send(conn: SkillConnection, tool: ToolInfo, args: Record<string, unknown>, timeoutS: number, signal?: AbortSignal, callMeta?: Record<string, unknown>): Promise<ToolOutcome> {
    const gone = conn.whenClosed();
    const meta = callMeta ? { _meta: callMeta } : {};
    const request = conn.client.callTool({ name: tool.name, arguments: args, ...meta }, undefined, { timeout: timeoutS * 1000, signal });
    try {
      const reply = await Promise.race([request, gone.promise.then((why) => ({ crashed: why }) as const)]);
      if ('crashed' in reply) {
        request.catch(() => {});
        if (this.closed) return { error: `${tool.name} was cancelled: the tool client was closed` };
        const restarted = await this.restart(tool.skill);
        return { error: `${tool.skill} stopped while running ${tool.name}: ${reply.crashed}; ${restarted}` };
      }
      return outcome(reply);
    } catch (err) {
      const msg = oneLine(err);
      if (/timed out|timeout/i.test(msg)) return { error: `${tool.name} timed out after ${timeoutS} s` };
      if (signal?.aborted) return { error: `${tool.name} was cancelled` };
      return { error: `${tool.name}: ${msg}` };
    } finally {
      gone.cancel();
    }
  }

  /** A server that died is started again at once, so the next call finds it ready; calls that saw it die together start one. */
  private async restart(skill: string): Promise<string> {
    try {
      await this.connection(skill);
      return 'it was restarted';
    } catch (err) {
      return `restarting it failed: ${oneLine(err)}`;
    }
  }

  private connection(skill: string): Promise<SkillConnection> {
    const current = this.connections.get(skill);
    if (current) {
      return current.then((conn) => {
        if (conn.alive) return conn;
        // another caller may have replaced the dead one already
        if (this.connections.get(skill) === current) this.connections.delete(skill);
        return this.connection(skill);
      });
    }
    if (this.closed) return Promise.reject(new SvcError('the tool client is closed'));
    const entry = this.skills.get(skill);
    if (!entry) return Promise.reject(new SvcError(`skill '${skill}' is not enabled in this workflow`));
    const opening = openWithRetries(entry, this.spawnEnv, this.opts.program);
    this.connections.set(skill, opening);
    opening.catch(() => this.connections.get(skill) === opening && this.connections.delete(skill));
    return opening;
  }

  private async find(name: string, skill?: string): Promise<ToolInfo> {
    const visible = (await this.tools()).filter((t) => t.name === name && (skill === undefined || t.skill === skill));
    if (visible.length === 1 && visible[0]) return visible[0];
    if (visible.length > 1) throw new SvcError(`tool '${name}' is served by ${visible.map((t) => t.skill).join(' and ')}`, 'name the skill');
    const hidden = (await this.catalogue)?.find((t) => t.name === name && (skill === undefined || t.skill === skill));
    if (hidden) throw new SvcError(`tool '${name}' of ${hidden.skill} is disabled in this workflow`);
    const unlisted = [...this.unlisted].filter(([s]) => skill === undefined || s === skill).map(([, why]) => why);
    throw new SvcError(`unknown tool '${name}'${skill ? ` in ${skill}` : ''}${unlisted.length ? `; ${unlisted.join('; ')}` : ''}`);
  }

  private isDisabled(t: ToolInfo): boolean {
    return this.disabled.has(t.name) || this.disabled.has(`${t.skill}:${t.name}`);
  }

  /** Built-in skills' tools come from the tool manifest, without starting or loading them; external ones are asked. */
  private async loadCatalogue(): Promise<ToolInfo[]> {
    const lists = await Promise.all(
      [...this.skills.values()].map(async (entry): Promise<ToolInfo[]> => {
        const def = entry.builtin ? builtinSkill(entry.name) : undefined;
        if (def) return def.tools.map((t) => ({ skill: entry.name, ...t }));
        if (entry.builtin) return [];
        const conn = await this.connection(entry.name).catch((err: unknown) => {
          this.unlisted.set(entry.name, `${entry.name} offers no tools: ${oneLine(err)}`);
          return null;
        });
        const listed = conn
          ? await conn.client.listTools().catch((err: unknown) => {
              this.unlisted.set(entry.name, `${entry.name} offers no tools: listing them failed: ${oneLine(err)}`);
              return null;
            })
          : null;
        return (listed?.tools ?? []).map((t) => ({ skill: entry.name, name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as Record<string, unknown> }));
      }),
    );
    return lists.flat();
  }
}

async function openWithRetries(entry: SkillEntry, env: Env, program?: string): Promise<SkillConnection> {
  let last: unknown;
  for (let attempt = 1; attempt <= CONNECT_ATTEMPTS; attempt++) {
    try {
      return await SkillConnection.open(entry, env, program);
    } catch (err) {
      last = err;
      if (attempt < CONNECT_ATTEMPTS) await Bun.sleep(500 * attempt);
    }
  }
  throw last;
}

/** The text a server sent, read back as JSON when it is JSON (our skills always send JSON). */
function outcome(reply: Record<string, unknown>): ToolOutcome {
  const text = Array.isArray(reply.content)
    ? reply.content
        .filter((c): c is { type: 'text'; text: string } => c?.type === 'text' && typeof c.text === 'string')
        .map((c) => c.text)
        .join('\n')
    : '';
  const value = parseJson(text);
  if (reply.isError === true) {
    const msg = value !== null && typeof value === 'object' && 'error' in value ? String((value as { error: unknown }).error) : text;
    return { error: msg || 'the tool reported an error without a message' };
  }
  return { result: value === undefined ? text : value };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

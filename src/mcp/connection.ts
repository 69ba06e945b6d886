import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { version } from '../../package.json';
import type { SkillEntry } from '../core/config/skills.ts';
import { UnavailableError } from '../core/errors.ts';
import { protocolProblem } from './protocol-problem.ts';
import { selfCommand } from './self-command.ts';
import { logFor } from '../core/log.ts';

export type Env = Record<string, string>;

/** One running skill server and the MCP session with it. */
export class SkillConnection {
  private closedBy: string | null = null;
  private onClosed = new Set<(why: string) => void>();

  private constructor(
    readonly skill: string,
    readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {}

  static async open(skill: SkillEntry, env: Env, program?: string): Promise<SkillConnection> {
    const { command, args } = serverCommand(skill, program);
    // its stderr passes through this process's, so that what it says reaches the run log too (run-log-tee.ts)
    const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const client = new Client({ name: 'svc', version });
    const conn = new SkillConnection(skill.name, client, transport);
    client.onclose = () => conn.closed(`${skill.name} stopped${exitNote(transport)}`);
    // an external server that prints to stdout loses those lines, and perhaps an answer with them
    client.onerror = (err) => logFor(skill.name).error(protocolProblem(err));
    try {
      await client.connect(transport);
    } catch (err) {
      await conn.close();
      throw new UnavailableError(`cannot start ${skill.name}: ${(err as Error).message}`, `command: ${[command, ...args].join(' ')}`);
    }
    return conn;
  }

  get alive(): boolean {
    return this.closedBy === null;
  }

  get pid(): number | null {
    return this.transport.pid;
  }

  /** Resolves with the reason when the server process goes away. */
  whenClosed(): { promise: Promise<string>; cancel: () => void } {
    let listener: (why: string) => void = () => {};
    const promise = new Promise<string>((resolve) => {
      if (this.closedBy !== null) return resolve(this.closedBy);
      listener = resolve;
      this.onClosed.add(listener);
    });
    return { promise, cancel: () => this.onClosed.delete(listener) };
  }

  async close(): Promise<void> {
    this.closed(`${this.skill} was closed`);
    await this.client.close().catch(() => {});
  }

  private closed(why: string): void {
    if (this.closedBy !== null) return;
    this.closedBy = why;
    for (const listener of this.onClosed) listener(why);
    this.onClosed.clear();
  }
}

/**
 * A built-in skill is this binary with `skill serve <name>`. An external one is a directory
 * holding `src/server.py` (the reference implementation's layout) or an executable file.
 */
function serverCommand(skill: SkillEntry, program?: string): { command: string; args: string[] } {
  const serve = ['skill', 'serve', skill.name];
  if (skill.builtin) return program ? { command: program, args: serve } : selfCommand(serve);
  const script = join(skill.path, 'src', 'server.py');
  if (existsSync(script)) return { command: 'python3', args: [script] };
  if (existsSync(skill.path) && statSync(skill.path).isFile()) return { command: skill.path, args: [] };
  throw new UnavailableError(`skill ${skill.name}: nothing to run at ${skill.path}`, 'give a directory with src/server.py or an executable MCP server');
}

function exitNote(transport: StdioClientTransport): string {
  const pid = transport.pid;
  return pid === null ? '' : ` (process ${pid})`;
}

import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';
import { isRunning, waitForFile } from '../unit/skills/coding/tool-call.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

async function connect(skill: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StdioClientTransport({ command: SVC, args: ['skill', 'serve', skill], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORK_DIR: dir }, stderr: 'pipe' }));
  return client;
}

const text = (r: Record<string, unknown>) => ((r.content as { text: string }[])[0] ?? { text: '' }).text;

describe('svc skill serve', () => {
  test('hpc-skill over stdio: every catalogue tool, and an empty job_id is an error at once', async () => {
    const client = await connect('hpc-skill');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['slurm_submit', 'job_status', 'job_cancel', 'singularity_build', 'singularity_run', 'singularity_pull', 'singularity_build_fakeroot', 'singularity_run_gpu']);
      const empty = await client.callTool({ name: 'job_status', arguments: { job_id: '' } });
      expect(empty.isError).toBe(true);
      expect(JSON.parse(text(empty)).error).toMatch(/job_id/);
    } finally {
      await client.close();
    }
  });

  test('no skill name exits 2 and says so', async () => {
    expect(await svc(['skill', 'serve'], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: 'svc: missing argument NAME for svc skill serve (see svc skill serve --help)\n' });
  });

  test('an unknown skill exits 2 and lists the skills', async () => {
    const r = await svc(['skill', 'serve', 'nope-skill'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^svc: unknown skill 'nope-skill' \(skills: .*coding-skill.*\)\n$/);
    expect(r.stderr).toContain('benchmark-skill');
    expect(r.stderr).toContain('evaluator-skill');
    expect(r.stderr).toContain('hpc-skill');
  });

  test('lists its tools with their schemas and answers calls as JSON', async () => {
    const client = await connect('coding-skill');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['emit_results', 'read_file', 'run_bash', 'run_code', 'write_code']);
      const bash = tools.find((t) => t.name === 'run_bash');
      expect(bash?.inputSchema.required).toContain('command');
      const r = await client.callTool({ name: 'run_bash', arguments: { command: 'echo hello; echo oops >&2' } });
      expect(r.isError).toBeFalsy();
      const out = JSON.parse(text(r));
      expect(out.stdout).toBe('hello\n');
      expect(out.stderr).toBe('oops\n');
      expect(out.exit_code).toBe(0);
    } finally {
      await client.close();
    }
  });

  test('a missing or mistyped argument is an {error} naming it, and the server goes on', async () => {
    const client = await connect('coding-skill');
    try {
      const missing = await client.callTool({ name: 'run_bash', arguments: {} });
      expect(missing.isError).toBe(true);
      expect(JSON.parse(text(missing))).toEqual({ error: "run_bash: missing argument 'command'" });
      const mistyped = await client.callTool({ name: 'run_bash', arguments: { command: 'true', timeout: 'soon' } });
      expect(JSON.parse(text(mistyped)).error).toMatch(/^run_bash: argument 'timeout' .*got "soon"$/);
      const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
      expect(JSON.parse(text(unknown)).error).toMatch(/^unknown tool 'no_such_tool' \(tools: .*run_bash.*\)$/);
      const ok = await client.callTool({ name: 'run_bash', arguments: { command: 'echo still here' } });
      expect(JSON.parse(text(ok)).stdout).toBe('still here\n');
    } finally {
      await client.close();
    }
  });

  test('stdout carries protocol frames only, and the server exits when stdin closes', async () => {
    const proc = Bun.spawn([SVC, 'skill', 'serve', 'coding-skill'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORK_DIR: dir }, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
    const frames = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_bash', arguments: { command: 'echo printed; seq 1 3' } } },
    ];
    for (const f of frames) proc.stdin.write(`${JSON.stringify(f)}\n`);
    await proc.stdin.flush();
    const reader = proc.stdout.getReader();
    let out = '';
    while (!out.includes('"id":2')) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    proc.stdin.end();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    expect(await proc.exited).toBe(0);
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(2);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    const answer = JSON.parse(lines[1] ?? '{}');
    expect(JSON.parse(answer.result.content[0].text).stdout).toBe('printed\n1\n2\n3\n');
  });

  test('a line on stdin that is not a protocol message is ignored with a note on stderr, and the server goes on', async () => {
    const server = rawServer();
    server.send('this is not json', '[1, 2, 3]', call(2, 'run_bash', { command: 'echo still here' }));
    expect(JSON.parse((await server.answer(2)).result.content[0].text).stdout).toBe('still here\n');
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toContain('coding-skill: ignored a line that is not JSON (');
    expect(server.stderr()).toContain('coding-skill: ignored a line that is not a JSON-RPC message\n');
  });

  test('a message over the size limit ends the session with the reason on stderr', async () => {
    const server = rawServer();
    server.send(call(2, 'write_code', { filename: 'big.txt', code: 'x'.repeat(11 * 1024 * 1024) }));
    expect(await server.finished()).toBe(0);
    expect(server.stderr()).toContain('coding-skill: ReadBuffer exceeded maximum size of');
  });

  const stopsOf: [string, (server: RawServer) => void][] = [
    ['stdin closes', (server) => server.proc.stdin.end()],
    ['the server gets SIGTERM', (server) => server.proc.kill('SIGTERM')],
  ];
  test.each(stopsOf)('when %s mid-call, the commands it runs are stopped, one that ignores SIGTERM too', async (_, stop) => {
    const server = rawServer();
    const polite = join(dir, 'polite.pid');
    const stubborn = join(dir, 'stubborn.pid');
    server.send(call(2, 'run_bash', { command: `sleep 300 & echo $! > ${polite}; wait`, timeout: 600 }), call(3, 'run_bash', { command: `trap '' TERM; sleep 301 & echo $! > ${stubborn}; wait`, timeout: 600 }));
    const pids = [Number(await waitForFile(polite)), Number(await waitForFile(stubborn))];
    stop(server);
    await server.proc.exited;
    for (let i = 0; i < 40 && pids.some(isRunning); i++) await Bun.sleep(50);
    const left = pids.filter(isRunning);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  });
});

type RawServer = ReturnType<typeof rawServer>;

const call = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** `svc skill serve coding-skill` spoken to line by line, initialised, with its stdout and stderr collected. */
function rawServer() {
  const proc = Bun.spawn([SVC, 'skill', 'serve', 'coding-skill'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORK_DIR: dir }, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  let out = '';
  let err = '';
  const pump = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const pumped = Promise.all([pump(proc.stdout, (s) => (out += s)), pump(proc.stderr, (s) => (err += s))]);
  // a server that stopped reading (over the size limit) leaves the rest unwritten
  const send = (...lines: string[]) => {
    for (const line of lines) proc.stdin.write(`${line}\n`);
    Promise.resolve(proc.stdin.flush()).catch(() => {});
  };
  send(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  return {
    proc,
    send,
    stderr: () => err,
    /** the answer with this id, once it has come */
    async answer(id: number): Promise<any> {
      for (;;) {
        const found = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((m) => m.id === id);
        if (found) return found;
        await Bun.sleep(10);
      }
    },
    /** the exit code, once the server has exited and its output is read */
    async finished(): Promise<number> {
      const code = await proc.exited;
      await pumped;
      return code;
    },
    stop(): Promise<number> {
      proc.stdin.end();
      return this.finished();
    },
  };
}

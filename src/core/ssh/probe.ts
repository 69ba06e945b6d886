import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { InputError, UnavailableError } from '../errors.ts';
import { printable } from '../text.ts';
import { runCommand } from '../run-command.ts';

/** A login to probe, as a client gives it; empty strings count as not given. */
export type SshLogin = { host: string; port?: number; user?: string; key?: string };
export type SshTarget = { host: string; port: number; user: string | null; key: string | null };
export type SshProbeResult = { ok: true; host: string; elapsed_ms: number } | { ok: false; host: string; reason: string };

export type ProbeOptions = {
  /** the ssh executable (see findSsh) */
  ssh: string;
  /** where accept-new records host keys, so a changed key is noticed on the next probe */
  knownHostsFile: string;
  /** environment ssh runs with: PATH, HOME and the agent socket are taken from it */
  env: Readonly<Record<string, string | undefined>>;
  connectTimeoutS?: number;
  /** the whole probe, after which ssh is killed; defaults to the connect timeout plus 5 s */
  timeoutMs?: number;
};

const LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
const USER = /^[A-Za-z_][A-Za-z0-9._-]{0,31}$/;

/** The ssh client on `path`, or UnavailableError naming the package to install. */
export function findSsh(path: string | undefined): string {
  const ssh = Bun.which('ssh', { PATH: path ?? '' });
  if (!ssh) throw new UnavailableError('ssh is not installed: no ssh on PATH', 'install openssh-client, e.g. apt-get install openssh-client');
  return ssh;
}

/**
 * Checks a login before anything is spawned. The host can never be read as an ssh option
 * (`-oProxyCommand=...` would run a command); a relative key path is taken from `cwd`.
 */
export function sshTarget(login: SshLogin, opts: { cwd: string; home: string }): SshTarget {
  const host = login.host.trim().replace(/^\[(.*)\]$/, '$1');
  if (host.startsWith('-')) throw new InputError(`host '${printable(login.host)}' starts with '-'`, 'give a host name or IP address');
  if (host.length > 253 || !(isIP(host) !== 0 || HOSTNAME.test(host))) {
    throw new InputError(`host '${printable(login.host)}' is not a host name or IP address`);
  }
  const port = login.port ?? 22;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new InputError(`port ${port} is out of range`, 'use 1 to 65535');
  const user = login.user?.trim() || null;
  if (user !== null && !USER.test(user)) throw new InputError(`user '${printable(user)}' is not a plain user name`);
  const key = login.key?.trim() ? keyFile(login.key.trim(), opts) : null;
  return { host, port, user, key };
}

/**
 * Logs in with `ssh ... true` in batch mode (no password prompt) and reports whether it worked,
 * with ssh's own error line when it did not.
 */
export async function probeSsh(target: SshTarget, opts: ProbeOptions): Promise<SshProbeResult> {
  const connectTimeoutS = opts.connectTimeoutS ?? 10;
  const timeoutMs = opts.timeoutMs ?? (connectTimeoutS + 5) * 1000;
  mkdirSync(dirname(opts.knownHostsFile), { recursive: true });
  const args = [
    '-o', 'BatchMode=yes',
    '-o', `ConnectTimeout=${connectTimeoutS}`,
    '-o', 'StrictHostKeyChecking=accept-new',
    '-o', `UserKnownHostsFile="${sshLiteral(opts.knownHostsFile)}"`,
    '-T', '-p', String(target.port),
    // only the given key, so a key in the agent cannot make a wrong one look right
    ...(target.key ? ['-i', sshLiteral(target.key), '-o', 'IdentitiesOnly=yes'] : []),
    '--', target.user ? `${target.user}@${target.host}` : target.host, 'true',
  ];
  const started = performance.now();
  const { code, stderr, timedOut } = await runCommand([opts.ssh, ...args], sshEnv(opts.env), timeoutMs);
  if (timedOut) return { ok: false, host: target.host, reason: `timed out after ${seconds(timeoutMs)} s` };
  if (code === 0) return { ok: true, host: target.host, elapsed_ms: Math.round(performance.now() - started) };
  return { ok: false, host: target.host, reason: errorLine(stderr) ?? `ssh exited with status ${code}` };
}

/**
 * The line that says what went wrong: the last one that is not a warning, the host key banner,
 * or the generic "Connection closed by <host> port <n>" that follows a more specific line.
 */
function errorLine(stderr: string): string | null {
  const lines = stderr.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('Warning:') && !l.startsWith('@'));
  const specific = lines.filter((l) => !/^Connection (closed by|to) \S+ port \d+/.test(l));
  return specific.at(-1) ?? lines.at(-1) ?? null;
}

function keyFile(given: string, opts: { cwd: string; home: string }): string {
  const path = given === '~' || given.startsWith('~/') ? join(opts.home, given.slice(1)) : resolve(opts.cwd, given);
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) throw new InputError(`key file ${path} does not exist`, 'give the path of a private key file');
  if (!st.isFile()) throw new InputError(`key file ${path} is not a file`);
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new InputError(`key file ${path} is not readable`);
  }
  return path;
}

/** ssh expands `%` tokens in file options; a path is meant literally. */
function sshLiteral(path: string): string {
  return path.replaceAll('%', '%%');
}

/** Only what ssh needs: the rest of the environment (API keys among it) stays with us. */
function sshEnv(env: ProbeOptions['env']): Record<string, string> {
  const keep = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SSH_AUTH_SOCK'];
  return Object.fromEntries(keep.flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/**
 * What a job leaves on disk, so any process can read its state: under
 * `<workDir>/.svc-jobs/`, `<id>.json` (the record written at submit), its batch script,
 * `<id>.exit` (written by the job's wrapper when its body ends), `<id>.exit.host` (the machine
 * it ran on, written when it starts) and, unless a log directory is given, its output.
 * An index of id → work dir under the executor's state dir finds the record from the id alone.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { isSafeId } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';
import type { ExecutorKind, JobRef, JobSpec } from './executor.ts';

export interface JobRecord extends JobRef {
  name: string;
  submittedAt: string;
  stdoutPath: string;
  stderrPath: string;
}

/** The directory of a work directory that holds its jobs' records. */
export const JOBS_DIR = '.svc-jobs';

export function jobsDir(workDir: string): string {
  return join(workDir, JOBS_DIR);
}

/** The ids of the jobs of `kind` named `name` submitted to run in `workDir`, oldest first. */
export function jobsNamed(workDir: string, kind: ExecutorKind, name: string): string[] {
  let files: string[];
  try {
    files = readdirSync(jobsDir(workDir)).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  const records = files.flatMap((f): JobRecord[] => {
    try {
      const r: unknown = JSON.parse(readFileSync(join(jobsDir(workDir), f), 'utf8'));
      // the work directory is the agent's: only a record as svc writes it counts
      return isMapping(r) && typeof r.id === 'string' && typeof r.submittedAt === 'string' ? [r as unknown as JobRecord] : [];
    } catch {
      return [];
    }
  });
  return records
    .filter((r) => r.kind === kind && r.name === name)
    .sort((a, b) => a.submittedAt.localeCompare(b.submittedAt))
    .map((r) => r.id);
}

export function exitFile(workDir: string, id: string): string {
  return join(jobsDir(workDir), `${id}.exit`);
}

/** The exit code the job wrote, or null while it has not written one (running, killed, lost). */
export function readExitCode(workDir: string, id: string): number | null {
  let text: string;
  try {
    text = readFileSync(exitFile(workDir, id), 'utf8').trim();
  } catch {
    return null;
  }
  return /^-?\d+$/.test(text) ? Number(text) : null;
}

/** The machine the job ran on, as it wrote when it started; null before then, or when it could not. */
export function readJobHost(workDir: string, id: string): string | null {
  const file = `${exitFile(workDir, id)}.host`;
  try {
    // the work directory is the agent's: a regular file holding a host name, or nothing
    if (!statSync(file).isFile()) return null;
    const host = readFileSync(file, 'utf8').trim();
    return /^[A-Za-z0-9._-]{1,253}$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

/**
 * Bash that notes the machine it runs on, runs the body in a subshell and records its exit code (written then renamed, so a
 * reader never sees half a number). `exitPathWord` is a shell word: quoted, maybe with `$VARS`.
 */
export function wrapperScript(body: string, exitPathWord: string, env: Record<string, string> = {}): string {
  const exports = Object.entries(env).map(([k, v]) => {
    // the name is written as it is: anything but a variable name would be shell code
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new InputError(`'${k.slice(0, 60)}' is not an environment variable name`, 'use letters, digits and _');
    return `export ${k}=${shellQuote(v)}`;
  });
  return [...exports, `uname -n > ${exitPathWord}.host 2>/dev/null`, '(', body, ')', `printf '%s\\n' "$?" > ${exitPathWord}.tmp && mv -f ${exitPathWord}.tmp ${exitPathWord}`, ''].join('\n');
}

export function bodyOf(spec: JobSpec): string {
  if (spec.script !== undefined && spec.command === undefined) return spec.script;
  if (spec.command !== undefined && spec.script === undefined && spec.command.length > 0) return spec.command.map(shellQuote).join(' ');
  throw new TypeError('a job needs exactly one of script and a non-empty command');
}

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** id → work dir, one small file per job under the executor's state dir. */
export class JobIndex {
  constructor(readonly stateDir: string) {}

  save(rec: JobRecord): void {
    writeJsonAtomic(join(jobsDir(rec.workDir), `${rec.id}.json`), rec);
    writeFileAtomic(join(this.stateDir, `${rec.kind}-${rec.id}`), rec.workDir);
  }

  get(kind: ExecutorKind, id: string): JobRecord {
    const ptr = join(this.stateDir, `${kind}-${id}`);
    if (!isSafeId(id) || !existsSync(ptr)) throw new NotFoundError(`no ${kind} job ${JSON.stringify(id)} was submitted from here`);
    const workDir = readFileSync(ptr, 'utf8');
    return JSON.parse(readFileSync(join(jobsDir(workDir), `${id}.json`), 'utf8')) as JobRecord;
  }

  has(kind: ExecutorKind, id: string): boolean {
    return isSafeId(id) && existsSync(join(this.stateDir, `${kind}-${id}`));
  }
}

export function readLogs(rec: JobRecord): { stdout: string; stderr: string } {
  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');
  return { stdout: read(rec.stdoutPath), stderr: read(rec.stderrPath) };
}

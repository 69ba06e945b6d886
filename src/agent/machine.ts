import { readFileSync } from 'node:fs';
import { arch, cpus, hostname } from 'node:os';

/** The machine a node ran on, for its report (never for a prompt: it differs between runs). */
export type MachineInfo = {
  hostname: string;
  /** null where the commands ran on another machine, which this process cannot look at */
  cpu_info: { model: string | null; threads: number; mhz: number | null; arch: string; vendor: string | null } | null;
  mem_total_kb: number | null;
  /** compiler name → first line of its --version */
  compilers: Record<string, string> | null;
};

const COMPILERS = ['gcc', 'g++', 'clang', 'nvcc', 'mpicc', 'gfortran'];
let cached: Promise<MachineInfo> | null = null;

/** Read once per process (the answers do not change while a run lasts), without blocking other nodes. */
export function machineInfo(): Promise<MachineInfo> {
  cached ??= compilers().then((found) => ({ hostname: hostname(), cpu_info: cpuInfo(), mem_total_kb: memTotalKb(), compilers: found }));
  return cached;
}

function cpuInfo(): MachineInfo['cpu_info'] {
  const list = cpus();
  const first = list[0];
  let vendor: string | null = null;
  try {
    vendor = /^vendor_id\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? null;
  } catch {
    // not Linux: the vendor stays unknown
  }
  return { model: first?.model.trim() || null, threads: list.length, mhz: first?.speed || null, arch: arch(), vendor };
}

function memTotalKb(): number | null {
  try {
    const kb = /^MemTotal:\s*(\d+)\s*kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb);
  } catch {
    return null;
  }
}

async function compilers(): Promise<Record<string, string>> {
  const found = await Promise.all(COMPILERS.map(async (name): Promise<[string, string] | null> => {
    const path = Bun.which(name);
    if (!path) return null;
    try {
      const p = Bun.spawn([path, '--version'], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', timeout: 3000 });
      const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      const line = `${out}${err}`.split('\n').find((l) => l.trim() !== '');
      return code === 0 && line ? [name, line.trim()] : null;
    } catch {
      // a compiler that will not say its version is left out
      return null;
    }
  }));
  return Object.fromEntries(found.filter((f) => f !== null));
}

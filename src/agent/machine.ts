import { readFileSync } from 'node:fs';
import { arch, cpus, hostname } from 'node:os';

/** The machine a node ran on, for its report (never for a prompt: it differs between runs). */
export type MachineInfo = {
  hostname: string;
  cpu_info: { model: string | null; threads: number; mhz: number | null; arch: string; vendor: string | null };
  mem_total_kb: number | null;
  /** compiler name → first line of its --version */
  compilers: Record<string, string>;
};

const COMPILERS = ['gcc', 'g++', 'clang', 'nvcc', 'mpicc', 'gfortran'];
let cached: MachineInfo | null = null;

/** Read once per process: the answers do not change while a run lasts. */
export function machineInfo(): MachineInfo {
  cached ??= {
    hostname: hostname(),
    cpu_info: cpuInfo(),
    mem_total_kb: memTotalKb(),
    compilers: compilers(),
  };
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

function compilers(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of COMPILERS) {
    const path = Bun.which(name);
    if (!path) continue;
    try {
      const r = Bun.spawnSync([path, '--version'], { stdout: 'pipe', stderr: 'pipe', timeout: 3000 });
      const line = `${r.stdout.toString()}${r.stderr.toString()}`.split('\n').find((l) => l.trim() !== '');
      if (r.exitCode === 0 && line) out[name] = line.trim();
    } catch {
      // a compiler that will not say its version is left out
    }
  }
  return out;
}

/** One GPU as nvidia-smi reports it; a figure the driver does not report ("[N/A]") is null. */
export type Gpu = {
  index: number;
  name: string;
  utilization_pct: number | null;
  memory_used_mb: number | null;
  memory_total_mb: number | null;
  temperature_c: number | null;
};

export type GpuReport = { available: true; gpus: Gpu[] } | { available: false; gpus: []; reason: string };

const QUERY = ['--query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu', '--format=csv,noheader,nounits'];

/**
 * Asks nvidia-smi for utilisation, memory and temperature of every GPU. A machine without it, or
 * with a driver that does not answer, is a normal answer (`available: false` and why), not an error:
 * the dashboard polls this on laptops too.
 */
export async function queryGpus(opts: { path: string; timeoutMs?: number }): Promise<GpuReport> {
  const exe = Bun.which('nvidia-smi', { PATH: opts.path });
  if (!exe) return unavailable('nvidia-smi not found on PATH');
  const timeoutMs = opts.timeoutMs ?? 5000;
  const proc = spawn(exe, opts.path, timeoutMs);
  if (proc instanceof Error) return unavailable(`nvidia-smi could not be started: ${proc.message}`);
  // a child that inherited the pipes could keep them open after nvidia-smi is killed: stop waiting then too
  const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs + 1000);
  });
  const done = await Promise.race([output, deadline]);
  clearTimeout(timer);
  if (done === null || proc.signalCode === 'SIGKILL') return unavailable(`nvidia-smi did not answer within ${timeoutMs / 1000} s`);
  const [stdout, stderr, code] = done;
  if (code !== 0) return unavailable(firstLine(stderr) ?? firstLine(stdout) ?? `nvidia-smi exited with code ${code}`);
  const gpus = parseNvidiaSmiCsv(stdout);
  if (gpus === null) return unavailable(`nvidia-smi printed output that is not the queried CSV: ${firstLine(stdout) ?? '(nothing)'}`);
  return { available: true, gpus };
}

/**
 * Parses `--format=csv,noheader,nounits` output: one line per GPU, six comma-separated fields.
 * Null when a line has another shape (an older driver's message on stdout, for instance).
 */
export function parseNvidiaSmiCsv(text: string): Gpu[] | null {
  const gpus: Gpu[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length < 6) return null;
    // GPU names may contain commas; the four figures after it are always the last four fields
    const [indexField, ...rest] = fields;
    const figures = rest.splice(-4);
    const index = Number(indexField);
    if (!Number.isInteger(index) || rest.length === 0) return null;
    const [util, used, total, temp] = figures.map(figure);
    gpus.push({ index, name: rest.join(', '), utilization_pct: util ?? null, memory_used_mb: used ?? null, memory_total_mb: total ?? null, temperature_c: temp ?? null });
  }
  return gpus;
}

/** A number, or null for the driver's placeholders ("[N/A]", "[Not Supported]", "N/A"). */
function figure(field: string): number | null {
  const n = Number(field);
  return field !== '' && Number.isFinite(n) ? n : null;
}

function spawn(exe: string, path: string, timeoutMs: number) {
  try {
    return Bun.spawn([exe, ...QUERY], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: { PATH: path, LANG: 'C' }, timeout: timeoutMs, killSignal: 'SIGKILL' });
  } catch (err) {
    return err as Error;
  }
}

function firstLine(text: string): string | null {
  return text.split('\n').find((l) => l.trim() !== '')?.trim() ?? null;
}

function unavailable(reason: string): GpuReport {
  return { available: false, gpus: [], reason };
}

import { defineCommand } from 'citty';
import { loadConfig } from '../core/config/config.ts';
import { type DoctorReport, type DoctorRow, runDoctor } from '../doctor/doctor.ts';
import { print, printJson, table } from './output.ts';

export default defineCommand({
  meta: { description: 'Check what svc will use here (models, memory, executor, containers, LaTeX, pdftotext, disk, registry) and how to fix what does not work' },
  args: {
    config: { type: 'string', description: 'workflow file to check against (default: bundled)' },
    profile: { type: 'string', description: 'check under a profile: laptop, hpc or cloud' },
    json: { type: 'boolean', description: 'print {rows, ok} as JSON' },
  },
  async run({ args }) {
    const report = await runDoctor(loadConfig({ configPath: args.config, profile: args.profile }));
    if (args.json) printJson(report);
    else printReport(report);
    return report.ok ? 0 : 1;
  },
});

/** The table, each failing or warning row's fix on the line below it, then the verdict. */
export function printReport(report: DoctorReport): void {
  const lines = table(['STATUS', 'AREA', 'ITEM', 'DETAIL'], report.rows.map((r) => [statusText(r), r.area, r.item, r.detail])).split('\n');
  print(lines[0]);
  report.rows.forEach((r, i) => {
    print(lines[i + 1]);
    if (r.fix !== undefined && (r.status === 'fail' || r.status === 'warn')) print(`      fix: ${r.fix}`);
  });
  print();
  print(verdict(report));
}

/** A failure the workflow does not need is marked, so that it does not read as the reason for the verdict. */
function statusText(r: DoctorRow): string {
  return r.status === 'fail' && !r.needed ? 'fail (unused)' : r.status;
}

export function verdict(report: DoctorReport): string {
  const failed = report.rows.filter((r) => r.needed && r.status === 'fail');
  const warnings = report.rows.filter((r) => r.status === 'warn').length;
  const warned = warnings > 0 ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : '';
  if (failed.length === 0) return `ready: everything the workflow needs works${warned}`;
  return `not ready: ${failed.length} needed check${failed.length === 1 ? '' : 's'} failed: ${failed.map((r) => `${r.area} ${r.item}`).join(', ')}${warned}`;
}

import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { nodeWorkDir } from '../core/checkpoint/files-node.ts';
import { NODE_REPORT_FILE } from '../core/checkpoint/node-report.ts';
import { InputError, oneLine } from '../core/errors.ts';
import { hashFileSync } from '../core/file-hash.ts';
import { parseLine } from '../core/json-object.ts';
import { readTextOrNull } from '../core/paths.ts';
import { RESULTS_FILE } from '../evaluate/node-results.ts';
import type { ModelClient } from '../llm/client.ts';
import type { ScienceData } from '../schema/science-data.ts';
import { readScienceData, SCIENCE_DATA_FILE } from '../science/build.ts';
import { resultsMarkdown } from '../science/results-md.ts';
import { codeFiles } from './code-files.ts';
import { EAR_DIR } from './curate.ts';
import type { ManifestFile } from './manifest.ts';
import { DEFAULT_PUBLISH_YAML, PUBLISH_FILE } from './publish-config.ts';
import { type BundledCode, bundleReadme } from './readme.ts';
import { swapIn, tempDirFor } from './swap-dir.ts';

export const EAR_MANIFEST_FILE = 'ear_manifest.json';
/** What generate_ear makes in ear/ and replaces each time; anything else there is the author's and kept. */
const GENERATED = ['README.md', 'RESULTS.md', 'code', 'data'];

export type EarManifest = {
  ear_dir: string;
  generated_at: string;
  science_data: string;
  /** the configurations whose code is bundled, each in code/<dir>/ */
  code: { node_id: string; name: string; role: string; dir: string; files: string[] }[];
  /** the generated files, relative to ear/ */
  files: ManifestFile[];
  readme: 'model' | 'deterministic';
  publish_yaml: 'default written' | 'kept';
  /** the author's files of the previous ear/, kept as they were */
  kept: string[];
  notes: string[];
};

/**
 * Fills `<checkpoint>/ear/` from science_data.json: the code of the best and the baseline
 * configuration (their work-dir files, not their outputs) under code/best/ and code/baseline/, the data (each
 * configuration's results.json and science_data.json) under data/, RESULTS.md (tables from the
 * science data), README.md (the model's or the deterministic one) and, when the author has none,
 * the default publish.yaml, so curation has a policy. The new ear/ is made whole beside the old and
 * swapped in; the author's own files in it are kept. Writes ear_manifest.json.
 */
export async function generateEar(checkpointDir: string, model: ModelClient | string, signal?: AbortSignal): Promise<EarManifest> {
  const data = readScienceData(checkpointDir);
  if (!data) throw new InputError(`${checkpointDir} has no ${SCIENCE_DATA_FILE}`, 'build it first: the transform_data stage (svc paper <checkpoint> --stage transform_data)');
  const roles = bundledRoles(data);
  if (roles.size === 0) throw new InputError(`${SCIENCE_DATA_FILE} names no best configuration: no configuration measured ${data.primary_metric.name}`, 'name a measured metric as primary_metric of transform_data and run it again');
  const earDir = join(checkpointDir, EAR_DIR);
  if (existsSync(earDir) && !statSync(earDir).isDirectory()) throw new InputError(`${earDir} is not a directory`);
  const notes: string[] = [];
  const tmp = tempDirFor(checkpointDir, EAR_DIR);
  try {
    mkdirSync(tmp, { mode: 0o755 });
    const code = [...roles].map(([id, role]) => bundleCode(checkpointDir, tmp, data, id, role));
    bundleData(checkpointDir, tmp, data, notes);
    writeFileAtomic(join(tmp, 'RESULTS.md'), resultsMarkdown(data), 0o644, false);
    const listed = [...filesUnder(tmp), 'README.md'].sort();
    const readme = await bundleReadme(model, data, code, listed, notes, signal);
    writeFileAtomic(join(tmp, 'README.md'), readme.text, 0o644, false);
    const kept = keepAuthorFiles(earDir, tmp);
    const publishKept = kept.includes(PUBLISH_FILE);
    if (!publishKept) writeFileAtomic(join(tmp, PUBLISH_FILE), DEFAULT_PUBLISH_YAML, 0o644, false);
    const ours = (path: string) => !kept.includes(path.split('/')[0] as string);
    const files = filesUnder(tmp)
      .filter(ours)
      .map((path) => ({ path, ...hashFileSync(join(tmp, path)) }));
    swapIn(tmp, earDir);
    const manifest: EarManifest = {
      ear_dir: earDir,
      generated_at: new Date().toISOString(),
      science_data: join(checkpointDir, SCIENCE_DATA_FILE),
      code: code.map(({ run_command: _, ...c }) => c),
      files,
      readme: readme.by,
      publish_yaml: publishKept ? 'kept' : 'default written',
      kept,
      notes,
    };
    writeJsonAtomic(join(checkpointDir, EAR_MANIFEST_FILE), manifest);
    return manifest;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The best configuration and the baseline, each once, with what it is; the first is the best. */
function bundledRoles(data: ScienceData): Map<string, string> {
  const roles = new Map<string, string>();
  if (data.best) roles.set(data.best.node_id, 'best');
  if (data.baseline) roles.set(data.baseline.node_id, roles.has(data.baseline.node_id) ? 'best and baseline' : 'baseline');
  return roles;
}

function bundleCode(checkpointDir: string, into: string, data: ScienceData, nodeId: string, role: string): BundledCode {
  const workDir = nodeWorkDir(checkpointDir, nodeId);
  const files = codeFiles(workDir, checkpointDir);
  // named by role, not node id: what a reader looks for, and the same in every run of the search
  const dir = role === 'baseline' ? 'baseline' : 'best';
  for (const rel of files) copyInto(join(workDir, rel), join(into, 'code', dir, rel));
  const name = data.configurations.find((c) => c.node_id === nodeId)?.name ?? nodeId;
  return { node_id: nodeId, name, role, dir, files, run_command: runCommand(workDir) };
}

/**
 * Every configuration's results.json, and science_data.json pointing at those copies rather than at
 * the author's workspace (whose paths mean nothing to a reader, and say who ran it where); a
 * results.json gone since is a note.
 */
function bundleData(checkpointDir: string, into: string, data: ScienceData, notes: string[]): void {
  const configurations = data.configurations.map((c) => {
    const bundled = `data/${c.node_id}/${RESULTS_FILE}`;
    try {
      copyInto(join(nodeWorkDir(checkpointDir, c.node_id), RESULTS_FILE), join(into, bundled));
    } catch (err) {
      notes.push(`${bundled} left out: ${oneLine(err)}`);
    }
    return { ...c, results_path: bundled };
  });
  writeJsonAtomic(join(into, 'data', SCIENCE_DATA_FILE), { ...data, configurations });
}

/** Entries of the previous ear/ that generate_ear does not make (publish.yaml, LICENSE, the author's own), copied into the new one. */
function keepAuthorFiles(earDir: string, into: string): string[] {
  if (!existsSync(earDir)) return [];
  const kept = readdirSync(earDir).filter((name) => !GENERATED.includes(name)).sort();
  for (const name of kept) cpSync(join(earDir, name), join(into, name), { recursive: true, verbatimSymlinks: true });
  return kept;
}

/** The command the run last ran in the work directory, from the node's report. */
function runCommand(workDir: string): string | null {
  const cmd = parseLine(readTextOrNull(join(workDir, NODE_REPORT_FILE)) ?? '')?.run_command;
  return typeof cmd === 'string' && cmd.trim() !== '' ? cmd.trim() : null;
}

function copyInto(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}

/** Every file below a directory, relative to it, sorted. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { fetchPreprintMetadata } from '../bench/arxiv.ts';
import { refuseDeleteWithActiveJobs } from '../bench/jobs/wiring.ts';
import { PaperRegistry, paperRegistryDir } from '../bench/registry.ts';
import type { Env } from '../core/config/env-vars.ts';
import { loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { checkpointsRoot } from '../core/workspace.ts';
import { type ImportBody, type LicenseAssessment, type ManifestEntry, SOURCE_TYPES } from '../schema/bench-api.ts';
import { print, printJson } from './output.ts';

export const registryArg = { registry: { type: 'string', description: 'paper registry directory (default SVC_PAPER_REGISTRY_DIR, else <workspace>/paper_registry)' } } as const;
export const jsonArg = { json: { type: 'boolean', description: 'print the result as JSON' } } as const;

/** The registry directory the dashboard of this project uses: --registry, else the one of its workspace. */
export function registryDirOf(given: string | undefined, env: Env): string {
  return given ? resolve(given) : paperRegistryDir(env, dirname(checkpointsRoot(env)));
}

function openRegistry(given: string | undefined, env: Env): PaperRegistry {
  return PaperRegistry.open(registryDirOf(given, env));
}

/** A path given on the command line, absolute from the current directory. */
const absolute = (p: string | undefined) => (p === undefined || p === '' ? undefined : resolve(p));

const importCmd = defineCommand({
  meta: { description: 'Register a paper: its metadata, license assessment and PDFs' },
  args: {
    'source-type': { type: 'string', required: true, description: `${SOURCE_TYPES.join(', ')}` },
    source: { type: 'string', required: true, description: 'arXiv id, DOI, or path of the PDF (local, upload)' },
    title: { type: 'string', required: true, description: 'paper title' },
    license: { type: 'string', description: 'license name (cc-by-4.0, mit, arXiv non-exclusive, ...); unknown when left out' },
    authors: { type: 'string', description: 'authors, separated by semicolons' },
    venue: { type: 'string', description: 'venue' },
    year: { type: 'string', description: 'publication year' },
    'artifact-url': { type: 'string', description: 'URL of the paper artifact' },
    'paper-id': { type: 'string', description: 'registry id (default: the sanitized source)' },
    pdf: { type: 'string', description: 'the paper PDF (an arXiv paper without it is fetched from arXiv)' },
    'ad-pdf': { type: 'string', description: 'artifact description appendix PDF' },
    'ae-pdf': { type: 'string', description: 'artifact evaluation appendix PDF' },
    overwrite: { type: 'boolean', description: 'replace a paper of the same id' },
    ...registryArg,
    ...jsonArg,
  },
  async run({ args }) {
    const env = loadEnv();
    const type = args['source-type'] as ImportBody['source_type'];
    if (!SOURCE_TYPES.includes(type)) throw new InputError(`--source-type must be one of ${SOURCE_TYPES.join(', ')}, got '${type}'`);
    if (args.year !== undefined && !/^\d{1,4}$/.test(args.year)) throw new InputError(`--year must be a year, got '${args.year}'`);
    // a PDF named relative to here is meant, for local and upload sources too
    const pathSource = (type === 'local' || type === 'upload') && !isAbsolute(args.source) && existsSync(args.source);
    const body: ImportBody = {
      source_type: type,
      source: pathSource ? resolve(args.source) : args.source,
      title: args.title,
      license: args.license,
      authors: args.authors?.split(';').map((a) => a.trim()).filter(Boolean),
      venue: args.venue,
      year: args.year === undefined ? undefined : Number(args.year),
      artifact_url: args['artifact-url'],
      paper_id: args['paper-id'],
      pdf_path: absolute(args.pdf),
      ad_pdf_path: absolute(args['ad-pdf']),
      ae_pdf_path: absolute(args['ae-pdf']),
      overwrite: args.overwrite === true,
    };
    const entry = await openRegistry(args.registry, env).import(JSON.parse(JSON.stringify(body)) as ImportBody, env);
    if (args.json) return printJson(entry);
    print(`imported ${paperLine(entry)}`);
    if (!entry.license_assessment.usable) print(`license: ${entry.license_assessment.note}`);
  },
});

const list = defineCommand({
  meta: { description: 'List the papers of the registry, one a line' },
  args: { ...registryArg, ...jsonArg },
  run({ args }) {
    const registry = openRegistry(args.registry, loadEnv());
    const papers = registry.list();
    if (args.json) return printJson({ papers });
    if (papers.length === 0) return print(`no papers in ${registry.dir}`);
    for (const p of papers) print(paperLine(p, registry.paperPdf(p.paper_id) !== null));
  },
});

const deleteCmd = defineCommand({
  meta: { description: 'Remove a paper (its manifest line and directory, runs included); a paper not there is no error, one with jobs not ended is refused' },
  args: { paper_id: { type: 'positional', required: true, description: 'paper id' }, ...registryArg, ...jsonArg },
  run({ args }) {
    const registry = openRegistry(args.registry, loadEnv());
    refuseDeleteWithActiveJobs(registry.dir, args.paper_id);
    const r = registry.delete(args.paper_id);
    if (args.json) return printJson(r);
    print(r.deleted ? `deleted ${r.paper_id}` : `${r.paper_id} was not in the registry`);
  },
});

const license = defineCommand({
  meta: { description: "Show a paper's license assessment" },
  args: { paper_id: { type: 'positional', required: true, description: 'paper id' }, ...registryArg, ...jsonArg },
  run({ args }) {
    const a = openRegistry(args.registry, loadEnv()).license(args.paper_id);
    if (args.json) return printJson(a);
    print(`${args.paper_id}: ${assessmentLine(a)}`);
  },
});

const arxiv = defineCommand({
  meta: { description: "Show an arXiv preprint's metadata (SVC_ARXIV_API_BASE)" },
  args: { id: { type: 'positional', required: true, description: 'arXiv id: 2404.14193, 2404.14193v2, hep-th/9901001' }, ...jsonArg },
  async run({ args }) {
    const m = await fetchPreprintMetadata(args.id, loadEnv());
    if (args.json) return printJson(m);
    print(`${m.arxiv_id}  ${m.year ?? '-'}  ${m.title}`);
    print(`authors: ${m.authors.join('; ')}`);
    print(`license: ${assessmentLine(m.license_assessment)}`);
    print(`pdf: ${m.pdf_url}`);
    print(`abs: ${m.abs_url}`);
  },
});

function paperLine(p: ManifestEntry, hasPdf?: boolean): string {
  const usable = p.license_assessment?.usable ? 'usable' : 'review';
  const pdf = hasPdf === undefined ? '' : hasPdf ? '  pdf' : '  no-pdf';
  return `${p.paper_id}  ${p.year ?? '-'}  ${p.license} (${usable})${pdf}  ${p.title}`;
}

function assessmentLine(a: LicenseAssessment): string {
  return a.note;
}

export const benchPaperCommands = { import: importCmd, list, delete: deleteCmd, license, arxiv };

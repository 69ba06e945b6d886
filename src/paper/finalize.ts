import { copyFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import type { Env } from '../core/config/env-vars.ts';
import { InputError, NotFoundError, oneLine } from '../core/errors.ts';
import { hashFileSync } from '../core/file-hash.ts';
import { readJsonObject } from '../core/json-object.ts';
import { isFileAt } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';
import { type BundleFacts, bundleFacts, type CodeAvailability, injectCodeAvailability } from './code-availability.ts';
import { compilePaper } from './compile.ts';

export const FINALIZE_RECORD = 'finalize_paper.json';
/** The final paper's name beside the paper it is made from: final_paper.tex, compiled to final_paper.pdf. */
export const FINAL_PAPER = 'final_paper';
export const FINAL_GATE_REPORT = join('evaluation', 'claim_evidence_hard_gate_final.json');

/** What the final claim gate said of the paper being finalized. */
export type GateVerdict = { report: string; phase: string | null; mode: string | null; status: string | null; should_block: boolean };

export type FinalizeRecord = {
  finalized: boolean;
  /** set when the paper is not final: why, in one line */
  reason?: string;
  source_tex: string;
  source_sha256: string;
  gate: GateVerdict | null;
  tex_path: string | null;
  pdf_path: string | null;
  pages: number | null;
  code_availability: CodeAvailability | { note: string } | null;
  finalized_at: string;
};

/**
 * finalize_paper: the final claim gate decides whether the paper may be final. It must have
 * checked this very file (its tex_sha256) and not blocked it. When it passes, the paper is copied
 * to final_paper.tex beside it, the bundle's code availability statement put in (ref, SHA-256,
 * DOI, license from publish_record.json and the curated manifest.lock) and compiled to
 * final_paper.pdf. When it blocks, no final paper is left behind (one from an earlier run is
 * removed) and finalize_paper.json says why. The record is written last, so a crash leaves no
 * record claiming a final paper.
 */
export async function finalizePaper(opts: { checkpointDir: string; tex: string; gateReport: string; env: Env }): Promise<FinalizeRecord> {
  const record = join(opts.checkpointDir, FINALIZE_RECORD);
  // an earlier run's record says nothing of this one, however this one ends
  rmSync(record, { force: true });
  const finalTex = join(dirname(opts.tex), `${FINAL_PAPER}.tex`);
  if (!opts.tex.endsWith('.tex')) throw new InputError(`tex_path '${opts.tex}' is not a .tex file`, 'give the refined paper (full_paper_refined.tex)');
  if (resolve(opts.tex) === resolve(finalTex)) throw new InputError(`tex_path '${opts.tex}' is the final paper itself`, 'give the paper it is made from (full_paper_refined.tex)');
  if (!isFileAt(opts.tex)) throw new NotFoundError(`tex_path '${opts.tex}' does not exist`, 'refine and render the paper first (paper_refine, render_paper)');
  const source_sha256 = hashFileSync(opts.tex).sha256;
  const base = { source_tex: opts.tex, source_sha256, tex_path: null, pdf_path: null, pages: null, code_availability: null };
  const removeFinal = () => {
    for (const ext of ['.tex', '.pdf', '.pages.json']) rmSync(finalTex.replace(/\.tex$/, ext), { force: true });
  };
  const { gate, blocked } = gateDecision(opts.gateReport, relative(opts.checkpointDir, opts.gateReport), source_sha256);
  if (blocked !== null) {
    removeFinal();
    const out: FinalizeRecord = { finalized: false, reason: blocked, gate, ...base, finalized_at: new Date().toISOString() };
    writeJsonAtomic(record, out);
    return out;
  }
  let code_availability: FinalizeRecord['code_availability'];
  let build: Awaited<ReturnType<typeof compilePaper>>;
  try {
    copyFileSync(opts.tex, finalTex);
    const facts: BundleFacts = bundleFacts(opts.checkpointDir);
    code_availability = Object.values(facts).every((v) => v === null) ? { note: 'the checkpoint has no curated or published bundle: no code availability statement' } : injectCodeAvailability(finalTex, facts);
    build = await compilePaper(dirname(finalTex), basename(finalTex), opts.env);
  } catch (err) {
    removeFinal();
    throw err;
  }
  const out: FinalizeRecord = { finalized: true, gate, ...base, tex_path: finalTex, pdf_path: build.pdf_path, pages: build.pages, code_availability, finalized_at: new Date().toISOString() };
  writeJsonAtomic(record, out);
  return out;
}

/** The final gate's report (`shown` as the reason names it) on the paper with this digest; `blocked` is why the paper may not be final, or null. */
export function gateDecision(path: string, shown: string, sha256: string): { gate: GateVerdict | null; blocked: string | null } {
  let report: Record<string, unknown> | null;
  try {
    report = readJsonObject(path);
  } catch (err) {
    return { gate: null, blocked: `the final claim gate's report cannot be read: ${oneLine(err)}` };
  }
  if (report === null) return { gate: null, blocked: `the final claim gate has not checked the paper (no ${shown}); run the claim_evidence_hard_gate_final stage` };
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const gate: GateVerdict = { report: path, phase: text(report.phase), mode: isMapping(report.policy) ? text(report.policy.mode) : null, status: text(report.status), should_block: report.should_block === true };
  if (gate.phase !== 'final') return { gate, blocked: `${shown} is not a report of the final phase` };
  if (report.tex_sha256 !== sha256) return { gate, blocked: 'the final claim gate checked another version of the paper; run the claim_evidence_hard_gate_final stage again' };
  if (gate.should_block) return { gate, blocked: `the final claim gate (${gate.mode ?? 'unknown'} mode) blocks it: ${text(report.reason) ?? firstError(report) ?? 'see the report'}` };
  return { gate, blocked: null };
}

function firstError(report: Record<string, unknown>): string | null {
  const e = Array.isArray(report.errors) ? report.errors.find(isMapping) : undefined;
  return e && typeof e.message === 'string' ? e.message : null;
}

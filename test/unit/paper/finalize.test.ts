import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../../../src/core/errors.ts';
import { hashFileSync } from '../../../src/core/file-hash.ts';
import { FINALIZE_RECORD, finalizePaper } from '../../../src/paper/finalize.ts';
import { pdfText, writePaper } from '../../support/paper.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const SHA = 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };

let ckpt: string;
let tex: string;
let gateReport: string;
beforeEach(() => {
  ckpt = tempDir();
  // the refined paper lies in the checkpoint, as paper_refine writes it beside the draft
  tex = writePaper(ckpt, 'arxiv');
  gateReport = join(ckpt, 'evaluation', 'claim_evidence_hard_gate_final.json');
  mkdirSync(join(ckpt, 'evaluation'));
  writeFileSync(join(ckpt, 'publish_record.json'), JSON.stringify({ ref: 'svc://0123456789abcdef', bundle_sha256: SHA, dry_run: false }));
});
afterEach(() => removeDir(ckpt));

/** A final gate report on the paper as it is now (or on the digest given). */
function gate(fields: { should_block?: boolean; mode?: string; reason?: string; sha?: string; phase?: string } = {}): void {
  const report = {
    gate: 'claim_evidence_hard_gate',
    phase: fields.phase ?? 'final',
    policy: { mode: fields.mode ?? 'warn' },
    status: fields.should_block ? 'fail' : 'pass',
    should_block: fields.should_block ?? false,
    errors: fields.should_block ? [{ type: 'numeric_mismatch', message: 'accuracy 0.93 matches no reported accuracy' }] : [],
    warnings: [],
    tex_sha256: fields.sha ?? hashFileSync(tex).sha256,
    ...(fields.reason ? { reason: fields.reason } : {}),
  };
  writeFileSync(gateReport, JSON.stringify(report));
}

const record = () => JSON.parse(readFileSync(join(ckpt, FINALIZE_RECORD), 'utf8'));
const finalPdf = () => join(ckpt, 'final_paper.pdf');

describe('finalize_paper', () => {
  test('a paper the final gate passes becomes final_paper.pdf, with the bundle named in it', async () => {
    gate();
    const out = await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env });
    expect(out).toMatchObject({ finalized: true, tex_path: join(ckpt, 'final_paper.tex'), pdf_path: finalPdf(), gate: { phase: 'final', mode: 'warn', status: 'pass', should_block: false } });
    expect(out.pages).toBeGreaterThan(0);
    expect(record()).toEqual(JSON.parse(JSON.stringify(out)));
    const text = pdfText(finalPdf()).replace(/\s+/g, ' ');
    expect(text).toContain('Code availability');
    expect(text.replace(/ /g, '')).toContain('svc://0123456789abcdef');
    expect(text.replace(/ /g, '')).toContain(SHA);
    // the refined paper itself is left as it was
    expect(readFileSync(tex, 'utf8')).not.toContain('Code availability');
  });

  test('a blocking gate leaves no final paper (an earlier one is removed) and records why in one line', async () => {
    gate();
    await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env });
    expect(existsSync(finalPdf())).toBe(true);
    gate({ should_block: true, mode: 'strict', reason: 'claim_evidence_hard_gate blocks the final paper: 1 blocking error' });
    const out = await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env });
    expect(out.finalized).toBe(false);
    expect(out.reason).toBe('the final claim gate (strict mode) blocks it: claim_evidence_hard_gate blocks the final paper: 1 blocking error');
    expect(out.reason).not.toContain('\n');
    expect(record()).toMatchObject({ finalized: false, reason: out.reason, pdf_path: null });
    for (const f of ['final_paper.tex', 'final_paper.pdf', 'final_paper.pages.json']) expect(existsSync(join(ckpt, f))).toBe(false);
  });

  test('without its own reason the gate report gives its first error', async () => {
    gate({ should_block: true, mode: 'strict' });
    expect((await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env })).reason).toBe('the final claim gate (strict mode) blocks it: accuracy 0.93 matches no reported accuracy');
  });

  test('a gate that checked another version of the paper, a draft-phase report, or none at all: not final', async () => {
    gate({ sha: SHA });
    expect(await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env })).toMatchObject({ finalized: false, reason: expect.stringContaining('checked another version of the paper') });
    gate({ phase: 'draft' });
    expect((await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env })).reason).toContain('is not a report of the final phase');
    writeFileSync(gateReport, '{"gate": ');
    expect((await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env })).reason).toContain("the final claim gate's report cannot be read");
    const missing = join(ckpt, 'evaluation', 'none.json');
    expect((await finalizePaper({ checkpointDir: ckpt, tex, gateReport: missing, env })).reason).toContain('the final claim gate has not checked the paper');
    expect(existsSync(finalPdf())).toBe(false);
  });

  test('a paper that does not compile: the error, and neither a final paper nor a record claiming one', async () => {
    gate();
    await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env });
    writeFileSync(tex, readFileSync(tex, 'utf8').replace('\\section{Introduction}', '\\section{Introduction}\n\\undefinedcommandhere'));
    gate();
    await expect(finalizePaper({ checkpointDir: ckpt, tex, gateReport, env })).rejects.toThrow(/Undefined control sequence/);
    expect(existsSync(finalPdf())).toBe(false);
    expect(existsSync(join(ckpt, 'final_paper.tex'))).toBe(false);
    expect(existsSync(join(ckpt, FINALIZE_RECORD))).toBe(false);
  });

  test('a tex_path that is not a .tex, does not exist or is the final paper itself is refused; no earlier record stays to claim a final paper', async () => {
    gate();
    await finalizePaper({ checkpointDir: ckpt, tex, gateReport, env });
    await expect(finalizePaper({ checkpointDir: ckpt, tex: join(ckpt, 'refs.bib'), gateReport, env })).rejects.toBeInstanceOf(InputError);
    expect(existsSync(join(ckpt, FINALIZE_RECORD))).toBe(false);
    await expect(finalizePaper({ checkpointDir: ckpt, tex: join(ckpt, 'none.tex'), gateReport, env })).rejects.toBeInstanceOf(NotFoundError);
    const self = finalizePaper({ checkpointDir: ckpt, tex: join(ckpt, 'final_paper.tex'), gateReport, env });
    await expect(self).rejects.toThrow("is the final paper itself");
    // the input it was refused was left as it was
    expect(existsSync(join(ckpt, 'final_paper.tex'))).toBe(true);
    expect(existsSync(join(ckpt, FINALIZE_RECORD))).toBe(false);
  });
});

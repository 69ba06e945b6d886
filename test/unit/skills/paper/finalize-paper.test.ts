import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../../src/core/errors.ts';
import { hashFileSync } from '../../../../src/core/file-hash.ts';
import { finalizePaperTool } from '../../../../src/skills/paper/finalize.ts';
import { writePaper } from '../../../support/paper.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';

let base: string;
let ckpt: string;
beforeEach(() => {
  base = tempDir();
  ckpt = join(base, 'checkpoints', 'run1');
  mkdirSync(join(ckpt, 'evaluation'), { recursive: true });
  writePaper(ckpt, 'arxiv');
  writeFileSync(join(ckpt, 'full_paper_refined.tex'), readFileSync(join(ckpt, 'main.tex')));
});
afterEach(() => removeDir(base));

const env = () => ({ PATH: process.env.PATH, HOME: base, SVC_CHECKPOINT_DIR: ckpt });
const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as Error);

describe('finalize_paper as a tool', () => {
  test('a gate that blocks: the result declines ({skipped: true}) with the reason, the record says the same', async () => {
    const sha = hashFileSync(join(ckpt, 'full_paper_refined.tex')).sha256;
    writeFileSync(join(ckpt, 'evaluation', 'claim_evidence_hard_gate_final.json'), JSON.stringify({ phase: 'final', policy: { mode: 'strict' }, status: 'fail', should_block: true, errors: [], tex_sha256: sha, reason: '1 blocking error' }));
    const r = await callTool(finalizePaperTool, {}, env());
    expect(r).toMatchObject({ skipped: true, finalized: false, reason: 'the final claim gate (strict mode) blocks it: 1 blocking error' });
    expect(JSON.parse(readFileSync(join(ckpt, 'finalize_paper.json'), 'utf8'))).toMatchObject({ finalized: false, reason: r.reason });
  });

  test('bad input is one line naming the fix, and nothing is written', async () => {
    const outside = await refusal(callTool(finalizePaperTool, { gate_report: '../../elsewhere.json' }, env()));
    expect(outside).toBeInstanceOf(InputError);
    expect(outside?.message).toContain('is outside');
    const traversal = await refusal(callTool(finalizePaperTool, { tex_path: '/etc/passwd' }, env()));
    expect(traversal?.message).toContain('is outside');
    const noCheckpoint = await refusal(callTool(finalizePaperTool, {}, { PATH: process.env.PATH, HOME: base }));
    expect(noCheckpoint?.message).toBe('SVC_CHECKPOINT_DIR is not set: finalize_paper works on a run checkpoint');
    expect(existsSync(join(ckpt, 'finalize_paper.json'))).toBe(false);
  });
});

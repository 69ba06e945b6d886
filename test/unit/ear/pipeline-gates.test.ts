import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { autoPromote, publishRequired, reproducibilityVerdict } from '../../../src/ear/pipeline-gates.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let ck: string;
let root: string;
beforeEach(() => {
  root = tempDir();
  ck = join(root, 'ckpt');
  mkdirSync(join(ck, 'ear'), { recursive: true });
});
afterEach(() => removeDir(root));

const publishYaml = (text: string) => writeFileSync(join(ck, 'ear', 'publish.yaml'), text);
const record = (r: Record<string, unknown>) =>
  writeFileSync(join(ck, 'publish_record.json'), JSON.stringify({ backend: 'local-tarball', ref: 'file:///x', bundle_sha256: 'a', visibility: 'staged', timestamp: 't', dry_run: false, extra: {}, promoted_at: null, promote_failed_at: null, ...r }));
const passing = { ors_score: 0.9, negative_control: { passed: true } };

describe('reproducibilityVerdict', () => {
  test('a score of at least 0.5, not degraded, negative control not failed: passed', () => {
    expect(reproducibilityVerdict({ ors_score: 0.5 }).passed).toBe(true);
    expect(reproducibilityVerdict(passing)).toEqual({ passed: true, reason: 'ors_score 0.9' });
  });
  test.each([
    [{ ors_score: 0.49 }, 'ors_score 0.49 is below 0.5'],
    [{ ors_score: 0.9, degraded: true, degraded_reason: 'judge unreachable' }, 'degraded (judge unreachable)'],
    [{ ors_score: 0.9, negative_control: { passed: false } }, 'negative control'],
    [{ raw_score: 0.9 }, 'no ors_score'],
    [{ ors_score: '0.9' }, 'no ors_score'],
    [null, 'not an object'],
    [[0.9], 'not an object'],
  ])('%j does not pass', (grade, why) => {
    const v = reproducibilityVerdict(grade);
    expect(v.passed).toBe(false);
    expect(v.reason).toContain(why);
  });
});

describe('publishRequired', () => {
  test('only required: true; no publish.yaml is not required; an unreadable one is', () => {
    expect(publishRequired(ck)).toBe(false);
    publishYaml('include: ["**/*"]\n');
    expect(publishRequired(ck)).toBe(false);
    publishYaml('include: ["**/*"]\nrequired: true\n');
    expect(publishRequired(ck)).toBe(true);
    publishYaml('include: [\n');
    expect(publishRequired(ck)).toBe(true);
  });
});

describe('autoPromote: every case where nothing is promoted says why, and leaves the record alone', () => {
  test.each([
    ['no publish.yaml', null, null, 'does not set auto_promote'],
    ['auto_promote off', 'include: ["**/*"]\n', {}, 'does not set auto_promote'],
    ['nothing published', 'include: ["**/*"]\nauto_promote: true\n', null, 'nothing was published'],
    ['a dry run', 'include: ["**/*"]\nauto_promote: true\n', { dry_run: true }, 'dry run'],
    ['already public', 'include: ["**/*"]\nauto_promote: true\n', { visibility: 'public' }, 'the bundle is public, not staged'],
  ])('%s', async (_name, yaml, rec, why) => {
    if (yaml !== null) publishYaml(yaml);
    if (rec !== null) record(rec);
    const before = rec !== null ? readFileSync(join(ck, 'publish_record.json'), 'utf8') : null;
    const r = await autoPromote(ck, passing, {});
    expect(r).toEqual({ skipped: expect.stringContaining(why) });
    if (before !== null) expect(readFileSync(join(ck, 'publish_record.json'), 'utf8')).toBe(before);
  });

  test('a corrupt publish record is a reason, not a crash', async () => {
    publishYaml('include: ["**/*"]\nauto_promote: true\n');
    writeFileSync(join(ck, 'publish_record.json'), '{"ref":');
    const r = await autoPromote(ck, passing, {});
    expect(r).toEqual({ skipped: expect.stringContaining('publish_record.json') });
  });
});

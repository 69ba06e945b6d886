// What `svc ear status --json` and GET /api/ear/<run_id> answer: one shape, damaged files named.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURATE_STATUS_FILE } from '../../../src/ear/curate.ts';
import { earStatus, PUBLISH_RECORD_FILE } from '../../../src/ear/status.ts';
import { writeCheckpoint } from '../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let root: string;
let dir: string;
beforeEach(() => {
  root = tempDir();
  dir = writeCheckpoint(root, { runId: '20261101000000_ear' });
});
afterEach(() => removeDir(root));

test('an uncurated run: its id twice, nothing curated, no records', () => {
  expect(earStatus(dir)).toEqual({
    run_id: '20261101000000_ear',
    checkpoint_id: '20261101000000_ear',
    publish_configured: false,
    curated: false,
    ear_published_dir: null,
    bundle_sha256: null,
    file_count: null,
    excluded_count: null,
    created_at: null,
    publish: null,
    publish_record: null,
    curate_status: null,
    problems: [],
  });
});

test('the publish record and the last curation are read; a damaged one is named, not thrown', () => {
  writeFileSync(join(dir, PUBLISH_RECORD_FILE), JSON.stringify({ ref: 'svc://0123456789abcdef', visibility: 'staged' }));
  writeFileSync(join(dir, CURATE_STATUS_FILE), JSON.stringify({ status: 'curated' }));
  expect(earStatus(dir)).toMatchObject({ publish_record: { ref: 'svc://0123456789abcdef' }, curate_status: { status: 'curated' }, problems: [] });
  writeFileSync(join(dir, PUBLISH_RECORD_FILE), '{"ref": ');
  writeFileSync(join(dir, CURATE_STATUS_FILE), '[1, 2]');
  const s = earStatus(dir);
  expect(s.publish_record).toBeNull();
  expect(s.curate_status).toBeNull();
  expect(s.problems).toEqual([expect.stringContaining(`${PUBLISH_RECORD_FILE} is not JSON`), expect.stringContaining(`${CURATE_STATUS_FILE} is not a JSON object`)]);
});

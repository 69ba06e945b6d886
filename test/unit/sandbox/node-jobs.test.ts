import { describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cancelNodeJobs, nodeJobComment, nodeJobIds, noteNodeJob } from '../../../src/sandbox/node-jobs.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

describe('nodeJobIds', () => {
  const listing = [
    '101 svc:/ck/run/node_1',
    '102 svc:/ck/run/node_10',
    '103 svc:/ck/run/sub/node_1',
    '104 svc:/ck/other/node_1',
    '105 (null)',
    '106 my own comment',
    '107 svc:/ck/run/node_1 ',
    '108 svc:/ck/run/node_2',
    '108 svc:/ck/run/node_2',
    '',
  ].join('\n');

  test("a node's jobs: its own comment exactly, an array job once", () => {
    expect(nodeJobIds(listing, '/ck/run', 'node_1')).toEqual(['101', '107']);
    expect(nodeJobIds(listing, '/ck/run', 'node_2')).toEqual(['108']);
  });

  test("a run's jobs: every node's, not those of a run in another checkpoint", () => {
    expect(nodeJobIds(listing, '/ck/run', null)).toEqual(['101', '102', '107', '108']);
    expect(nodeJobIds(listing, '/ck/run/sub', null)).toEqual(['103']);
  });
});

describe('nodeJobComment', () => {
  test('a call for a node: the checkpoint by its real path and the node; outside a node, none', () => {
    const dir = tempDir();
    try {
      mkdirSync(join(dir, 'ck'));
      symlinkSync(join(dir, 'ck'), join(dir, 'link'));
      expect(nodeJobComment({ SVC_CHECKPOINT_DIR: join(dir, 'link'), SVC_CURRENT_NODE_ID: 'node_1' })).toBe(`svc:${dir}/ck/node_1`);
      expect(nodeJobComment({ SVC_CHECKPOINT_DIR: join(dir, 'ck'), SVC_CURRENT_NODE_ID: '' })).toBeUndefined();
      expect(nodeJobComment({ SVC_CURRENT_NODE_ID: 'node_1' })).toBeUndefined();
    } finally {
      removeDir(dir);
    }
  });
});

test('without squeue nothing is asked or said', async () => {
  const said: string[] = [];
  const runner = () => Promise.reject(new Error('no scheduler command may run'));
  expect(await cancelNodeJobs('/ck/run', null, { PATH: '/nonexistent' }, (m) => said.push(m), runner)).toEqual([]);
  expect(said).toEqual([]);
});

test('a scheduler that does not answer: one line says the jobs may still run, and the caller goes on', async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'squeue'), '#!/bin/sh\n');
    chmodSync(join(dir, 'squeue'), 0o755);
    noteNodeJob({ SVC_CHECKPOINT_DIR: dir, SVC_CURRENT_NODE_ID: 'node_1' });
    const said: string[] = [];
    const runner = async () => ({ code: 1, stdout: '', stderr: 'squeue: error: Unable to contact slurm controller\n' });
    expect(await cancelNodeJobs(dir, 'node_1', { PATH: dir }, (m) => said.push(m), runner)).toEqual([]);
    expect(said).toEqual(['node_1: its Slurm jobs may still run: squeue failed: squeue: error: Unable to contact slurm controller']);
  } finally {
    removeDir(dir);
  }
});

test('no node of the run submitted a job, or not this node: no scheduler is asked and nothing is said', async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'squeue'), '#!/bin/sh\n');
    chmodSync(join(dir, 'squeue'), 0o755);
    const said: string[] = [];
    const asked: string[][] = [];
    const runner = async (argv: string[]) => {
      asked.push(argv);
      return { code: 1, stdout: '', stderr: 'squeue: error: Unable to contact slurm controller\n' };
    };
    expect(await cancelNodeJobs(dir, null, { PATH: dir }, (m) => said.push(m), runner)).toEqual([]);
    expect(await cancelNodeJobs(dir, 'node_1', { PATH: dir }, (m) => said.push(m), runner)).toEqual([]);
    noteNodeJob({ SVC_CHECKPOINT_DIR: dir, SVC_CURRENT_NODE_ID: 'node_10' });
    expect(await cancelNodeJobs(dir, 'node_1', { PATH: dir }, (m) => said.push(m), runner)).toEqual([]);
    expect(asked).toEqual([]);
    expect(said).toEqual([]);
    // the run's end asks: one node submitted
    await cancelNodeJobs(dir, null, { PATH: dir }, (m) => said.push(m), runner);
    expect(asked).toHaveLength(1);
  } finally {
    removeDir(dir);
  }
});

import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rolloutSubmission } from '../../../src/bench/bridge/rollout.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';
import type { Step } from '../../support/model-server.ts';
import { type Fixture, PAPER, replicateFixture } from '../skills/replicate/replicate-env.ts';
import { refusal, seedBundle, STAND_IN_RUNTIME } from './bridge-fixture.ts';

let f: Fixture;
afterEach(() => f.stop());
afterAll(() => removePathDirs());

const work = () => join(f.ckpt, 'repro_sandbox');
const rollout = (more: Partial<Parameters<typeof rolloutSubmission>[0]> = {}, env: Record<string, string> = {}) =>
  rolloutSubmission({ paper_md: PAPER, work_dir: work(), checkpoint_dir: f.ckpt, agent_model: 'replicator-model', sandbox_kind: 'local', time_limit_sec: 600, env: f.env(env), ...more });
const bodyText = (i: number) => JSON.stringify(f.server.requests[i]?.body);

/** An agent that writes what its command sees of the granted variables to seen.txt, then a reproduce.sh, then finishes. */
const envProbe: Step[] = [
  { toolCalls: [{ name: 'run_bash', args: { command: 'printf "%s|" "${HF_TOKEN-unset}" "${FROM_FILE-unset}" "${SVC_BLACKLIST_URLS-unset}" > seen.txt' } }] },
  { toolCalls: [{ name: 'write_code', args: { filename: 'reproduce.sh', code: '#!/bin/bash\necho "comparisons: 20573"\n' } }] },
  { text: JSON.stringify({ status: 'success', summary: 'reproduce.sh prints the comparisons', artifacts: ['reproduce.sh'] }) },
];
const seen = () => readFileSync(join(work(), 'seen.txt'), 'utf8').split('|').slice(0, 3);

describe('rolloutSubmission', () => {
  test('the agent builds reproduce.sh in work_dir from the paper; the record and the cost ledger are in the checkpoint', async () => {
    f = replicateFixture();
    seedBundle(work());
    const r = await rollout();
    expect(r).toMatchObject({ output_dir: work(), reproduce_sh: join(work(), 'reproduce.sh'), finished: true, model: 'replicator-model', sandbox_kind: 'local', record_path: join(f.ckpt, 'ors_replicator.json') });
    expect(bodyText(0)).toContain('20,573 comparisons');
    // no list, no block: the task is the one every other build gets
    expect(bodyText(0)).not.toContain('Forbidden URLs');
    expect(readFileSync(join(f.ckpt, 'cost_trace.jsonl'), 'utf8').trim().split('\n')).toHaveLength(f.server.requests.length);
  });
});

describe('rolloutSubmission inputs', () => {
  test('the rubric\'s leaves, given as a tree, are in the agent\'s task', async () => {
    f = replicateFixture();
    seedBundle(work());
    const leaf = { id: 'exec/best', requirements: 'The best program runs and prints 20,573 comparisons.', weight: 1, task_category: 'Code Execution', sub_tasks: [] };
    await rollout({ rubric: { id: 'root', requirements: 'reproduce', weight: 1, sub_tasks: [{ id: 'exec', requirements: 'runs', weight: 1, sub_tasks: [leaf] }] } });
    expect(bodyText(0)).toContain('- exec/best: The best program runs and prints 20,573 comparisons.');
  });

  test('the paper once: both paper and paper_md, or neither, are refused before any model is asked', async () => {
    f = replicateFixture();
    const paper = { text: PAPER, sha256: 'x', what: 'paper_text' };
    expect((await refusal(rollout({ paper }))).message).toBe('both paper and paper_md are given');
    expect((await refusal(rollout({ paper_md: undefined }))).message).toBe('no paper: neither paper_md nor paper is given');
    expect((await refusal(rollout({ time_limit_sec: 0 }))).message).toBe('time_limit_sec 0 is not a positive number of seconds');
    expect(f.server.requests).toHaveLength(0);
  });
});

describe('bridge rule 4: the agent env file and HF_TOKEN', () => {
  test('agent_env_path: its variables reach the agent\'s commands, and so does the caller\'s HF_TOKEN', async () => {
    f = replicateFixture(envProbe);
    const file = join(f.dir, 'given.env');
    writeFileSync(file, '# for the agent\nFROM_FILE=explicit\n');
    await rollout({ agent_env_path: file }, { HF_TOKEN: 'hf_caller' });
    expect(seen()).toEqual(['hf_caller', 'explicit', 'unset']);
  });

  test('SVC_AGENT_ENV_PATH when agent_env_path is unset; the file\'s own HF_TOKEN wins over the caller\'s', async () => {
    f = replicateFixture(envProbe);
    const file = join(f.dir, 'variable.env');
    writeFileSync(file, 'FROM_FILE=variable\nHF_TOKEN=hf_file\n');
    await rollout({}, { SVC_AGENT_ENV_PATH: file, HF_TOKEN: 'hf_caller' });
    expect(seen()).toEqual(['hf_file', 'variable', 'unset']);
  });

  test('~/.svc/agent.env when neither is set; without it the agent has no such variables', async () => {
    f = replicateFixture(envProbe);
    await rollout();
    expect(seen()).toEqual(['unset', 'unset', 'unset']);
    f.stop();
    f = replicateFixture(envProbe);
    mkdirSync(join(f.dir, 'home', '.svc'));
    writeFileSync(join(f.dir, 'home', '.svc', 'agent.env'), 'export FROM_FILE="home"\n');
    await rollout();
    expect(seen()).toEqual(['unset', 'home', 'unset']);
  });

  test('a named env file that is missing is an error before any model is asked; so is a malformed one', async () => {
    f = replicateFixture(envProbe);
    const missing = join(f.dir, 'nope.env');
    const err = await refusal(rollout({ agent_env_path: missing }));
    expect(err.message).toBe(`agent_env_path ${missing} is not a file`);
    expect((await refusal(rollout({}, { SVC_AGENT_ENV_PATH: missing }))).message).toBe(`SVC_AGENT_ENV_PATH ${missing} is not a file`);
    const bad = join(f.dir, 'bad.env');
    writeFileSync(bad, 'FROM_FILE=1\nhf_pasted_key_alone\n');
    expect((await refusal(rollout({ agent_env_path: bad }))).message).toBe(`${bad}:2: the line is not KEY=VALUE`);
    expect(f.server.requests).toHaveLength(0);
  });
});

describe('bridge rule 5: forbid_host_filesystem', () => {
  test('local and slurm are refused, naming the option, before any model is asked; auto without an image would be local', async () => {
    f = replicateFixture();
    seedBundle(work());
    for (const kind of ['local', 'slurm']) {
      const err = await refusal(rollout({ sandbox_kind: kind, forbid_host_filesystem: true }));
      expect(err.message).toBe(`sandbox_kind ${kind} is refused: forbid_host_filesystem is true and it runs on the host file system`);
      expect(err.hint).toContain('docker');
    }
    const auto = await refusal(rollout({ sandbox_kind: 'auto', forbid_host_filesystem: true }));
    expect(auto.message).toContain('forbid_host_filesystem refuses');
    expect(f.server.requests).toHaveLength(0);
  });

  test('docker is allowed: the agent\'s commands run in the container, which gets the granted variables by name (bridge rule 3: bench-env is bench-env:latest)', async () => {
    f = replicateFixture(envProbe);
    const calls = join(f.dir, 'docker.calls');
    // a stand-in docker: it notes each command line, then runs the command as the container would
    const PATH = `${pathWith(['docker'], `echo "$*" >> ${calls}\n${STAND_IN_RUNTIME}`)}:${process.env.PATH}`;
    const file = join(f.dir, 'agent.env');
    writeFileSync(file, 'FROM_FILE=in-container\n');
    const r = await rollout({ sandbox_kind: 'docker', container_image: 'bench-env', forbid_host_filesystem: true, agent_env_path: file, blacklist_urls: ['https://x.example/code'] }, { PATH, HF_TOKEN: 'hf_caller' });
    expect(r).toMatchObject({ finished: true, sandbox_kind: 'docker' });
    expect(JSON.stringify(f.server.requests[0]?.body)).toContain('in the docker image bench-env:latest with no network');
    const run = readFileSync(calls, 'utf8').split('\n').find((l) => l.startsWith('run ')) ?? '';
    expect(run).toContain(' -e FROM_FILE -e HF_TOKEN -e SVC_BLACKLIST_URLS ');
    expect(run).toContain(' bench-env:latest bash -lc ');
    // the values stay in the environment, never on a command line
    expect(readFileSync(calls, 'utf8')).not.toContain('hf_caller');
    expect(seen()).toEqual(['hf_caller', 'in-container', 'https://x.example/code']);
  });
});

describe('bridge rule 6: blacklist_urls', () => {
  test('the task lists the forbidden URLs and the agent\'s commands see SVC_BLACKLIST_URLS, one a line', async () => {
    f = replicateFixture(envProbe);
    const urls = ['https://github.com/authors/paper-code', 'https://zenodo.org/record/1?a=1,2'];
    await rollout({ blacklist_urls: urls });
    const task = (f.server.requests[0]?.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ?? '';
    expect(task).toEndWith(`# Forbidden URLs\nDo not fetch, clone, download or read anything from these addresses, or from anything under them, by any tool or command (they hold the paper's own code or results, which a reproduction must not copy). The list is also in the SVC_BLACKLIST_URLS environment variable, one a line.\n- ${urls[0]}\n- ${urls[1]}`);
    expect(seen()[2]).toBe(urls.join('\n'));
  });

  test('an entry with whitespace in it is refused before any model is asked', async () => {
    f = replicateFixture();
    const err = await refusal(rollout({ blacklist_urls: ['https://a.example/x https://b.example'] }));
    expect(err.message).toBe("blacklist_urls entry 'https://a.example/x https://b.example' holds whitespace");
    expect(f.server.requests).toHaveLength(0);
  });
});

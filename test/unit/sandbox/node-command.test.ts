// How a node's command line is made from the run's decision: in its container with the GPUs the
// node asked for and the network only when the workflow allows it, as a step of its allocation on
// Slurm, as a job of its own on PBS and LSF; and the same decision as it arrives with a tool call,
// refused whole when malformed, so a command never runs half as the run decided.
import { describe, expect, test } from 'bun:test';
import { podmanUlimits } from '../../../src/sandbox/container.ts';
import { nodeCommand, nodeExecOf, parseNodeExec, runsElsewhere } from '../../../src/sandbox/node-command.ts';
import type { NodeSandbox } from '../../../src/sandbox/node-sandbox.ts';

const sandbox = (over: Partial<NodeSandbox> = {}, network = false): NodeSandbox => ({
  executor: 'slurm',
  partition: 'debug',
  cpus: 1,
  memGb: null,
  gpus: 0,
  container: { runtime: { runtime: 'docker', path: '/usr/bin/docker', probe: { runtime: 'docker', found: true } }, image: 'bench-env:latest', pull: 'on_start', network },
  warnings: [],
  ...over,
});

describe('nodeExecOf', () => {
  test('the container gets the GPUs only when the node has some, and the network only when the workflow allows it', () => {
    expect(nodeExecOf(sandbox()).container).toEqual({ runtime: 'docker', binary: '/usr/bin/docker', image: 'bench-env:latest', pull: 'never' });
    expect(nodeExecOf(sandbox({ gpus: 2 }, true)).container).toMatchObject({ gpu: true, network: true });
  });

  test('no container: nothing to carry, GPUs or not', () => {
    expect(nodeExecOf(sandbox({ gpus: 1, container: null }))).toEqual({});
  });
});

describe('nodeCommand', () => {
  const exec = nodeExecOf(sandbox({ gpus: 1 }));

  test('GPUs passed through, no network, as a step of the allocation', () => {
    const argv = nodeCommand(['python3', 'run.py'], '/w/n1', { ...exec, slurm: { jobId: '42' } });
    expect(argv.slice(0, 6)).toEqual(['srun', '--jobid=42', '--overlap', '--quiet', '--chdir=/w/n1', '--']);
    expect(argv).toContain('--gpus');
    expect(argv.join(' ')).toContain('--network none');
  });

  test('the network when the workflow allows it', () => {
    expect(nodeCommand(['true'], '/w/n1', nodeExecOf(sandbox({}, true)))).not.toContain('--network');
  });

  test('podman: its init, and the limits this host lets it give', () => {
    const podman = { container: { runtime: 'podman' as const, binary: 'podman', image: 'bench-env:latest', pull: 'never' as const } };
    const argv = nodeCommand(['true'], '/w/n1', podman);
    expect(argv.slice(0, 4)).toEqual(['podman', 'run', '--rm', '--init']);
    for (const flag of podmanUlimits()) expect(argv).toContain(flag);
  });
});

describe('parseNodeExec', () => {
  test('the GPU and network switches come through; anything but true is off', () => {
    const exec = nodeExecOf(sandbox({ gpus: 1 }, true));
    expect(parseNodeExec(JSON.parse(JSON.stringify(exec)))).toEqual(exec);
    const c = { runtime: 'docker' as const, binary: 'docker', image: 'i', pull: 'never' as const };
    expect(parseNodeExec({ container: { ...c, gpu: 'yes', network: 1 } })).toEqual({ container: c });
  });
});

describe('a PBS or LSF run', () => {
  test("each command is a job of its own, asking for the node's CPUs", () => {
    expect(nodeExecOf(sandbox({ executor: 'pbs', cpus: 4, partition: null, container: null }))).toEqual({ batch: { kind: 'pbs', cpus: 4 } });
    expect(nodeExecOf(sandbox({ executor: 'lsf', cpus: null, partition: null, container: null }))).toEqual({ batch: { kind: 'lsf' } });
    expect(nodeExecOf(sandbox({ executor: 'local', cpus: null, partition: null, container: null }))).toEqual({});
    // the job runs the command itself: no srun around it, and its programs are the compute node's
    expect(nodeCommand(['bash', '-c', 'true'], '/w', { batch: { kind: 'pbs' } })).toEqual(['bash', '-c', 'true']);
    expect(runsElsewhere({ batch: { kind: 'lsf' } })).toBe(true);
  });

  test('the batch field arrives as it was sent, or the whole NodeExec is refused', () => {
    expect(parseNodeExec(JSON.parse(JSON.stringify({ batch: { kind: 'pbs', cpus: 4 } })))).toEqual({ batch: { kind: 'pbs', cpus: 4 } });
    expect(parseNodeExec({ batch: { kind: 'lsf' } })).toEqual({ batch: { kind: 'lsf' } });
    for (const batch of [{ kind: 'sge' }, { kind: 'pbs', cpus: 0 }, { kind: 'pbs', cpus: 1.5 }, 'pbs']) expect(parseNodeExec({ batch })).toBeUndefined();
  });
});

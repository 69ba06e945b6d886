// How a node's command line is made from the run's decision: in its container with the GPUs the
// node asked for and the network only when the workflow allows it, as a step of its allocation on
// Slurm; and the same decision as it arrives with a tool call.
import { describe, expect, test } from 'bun:test';
import { podmanUlimits } from '../../../src/sandbox/container.ts';
import { nodeCommand, nodeExecOf, parseNodeExec } from '../../../src/sandbox/node-command.ts';
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

// How a node's commands run travels with each tool call (NodeExec); what arrives malformed is
// refused whole, so a command never runs half as the run decided.
import { describe, expect, test } from 'bun:test';
import { nodeCommand, nodeExecOf, parseNodeExec, runsElsewhere } from '../../../src/sandbox/node-command.ts';
import type { NodeSandbox } from '../../../src/sandbox/node-sandbox.ts';

const sandbox = (executor: NodeSandbox['executor'], cpus: number | null): NodeSandbox => ({ executor, partition: null, cpus, container: null, warnings: [] });

describe('a PBS or LSF run', () => {
  test("each command is a job of its own, asking for the node's CPUs", () => {
    expect(nodeExecOf(sandbox('pbs', 4))).toEqual({ batch: { kind: 'pbs', cpus: 4 } });
    expect(nodeExecOf(sandbox('lsf', null))).toEqual({ batch: { kind: 'lsf' } });
    expect(nodeExecOf(sandbox('local', null))).toEqual({});
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

import { checkpointsRoot } from '../../core/workspace.ts';
import { loadWorkflow } from '../../core/config/workflow.ts';
import type { Env } from '../../core/config/env-vars.ts';
import { InputError, NotFoundError, SvcError, TooLargeError } from '../../core/errors.ts';
import { readTextHashed } from '../../core/file-hash.ts';
import { resolveInside, statOrNull } from '../../core/paths.ts';
import { MAX_TEX_BYTES } from '../../paper/tex-text.ts';
import { ALWAYS_BLOCKING } from './contract-checks.ts';
import { type GatePhase, type GateReport, runClaimGate } from './gate.ts';
import { resolvePolicy } from './policy.ts';

/** The gate refused the final paper: the finalize stage is skipped. */
export class ClaimGateBlockedError extends SvcError {
  constructor(message: string, hint?: string) {
    super(message, hint, 1);
    this.name = 'ClaimGateBlockedError';
  }
}

export type GateRequest = { checkpoint_dir: string; phase: GatePhase; text?: string; tex_path?: string; policy?: unknown };

/**
 * Runs the gate for a caller's request: the checkpoint must lie in the checkpoints directory
 * (SVC_CHECKPOINT_DIR's parent, else the project's) and tex_path inside the checkpoint. The policy
 * is the checkpoint's workflow claim_gate_policy under the request's and the environment's. Throws
 * ClaimGateBlockedError, after writing the report, when the gate blocks.
 */
export function claimGate(req: GateRequest, env: Env): { report: GateReport; path: string } {
  const root = checkpointsRoot(env);
  if (req.checkpoint_dir.trim() === '') throw new InputError('checkpoint_dir is empty', 'give the run checkpoint directory');
  const checkpointDir = resolveInside(root, req.checkpoint_dir, 'checkpoint_dir');
  if (!statOrNull(checkpointDir)?.isDirectory()) throw new NotFoundError(`checkpoint_dir ${checkpointDir} is not a directory`, 'give an existing run checkpoint');
  if (req.text !== undefined && req.tex_path !== undefined) throw new InputError('give text or tex_path, not both');
  const read = gateText(req, checkpointDir);
  const workflow = loadWorkflow({ checkpointDir, env }).workflow;
  const policy = resolvePolicy(workflow.claim_gate_policy, req.policy, env);
  const result = runClaimGate({ checkpointDir, phase: req.phase, text: read.text, textSource: read.source, policy, paper: read.paper, file: read.file });
  if (result.report.should_block) {
    const contractBroken = result.report.errors.some((e) => (ALWAYS_BLOCKING as readonly string[]).includes(e.type));
    throw new ClaimGateBlockedError(
      `claim_evidence_hard_gate blocks the final paper: ${result.report.reason ?? ''}`,
      `see ${result.path}; fix the claims or the evidence${contractBroken ? ' (a broken metric contract blocks in warn mode too)' : ', or set claim_gate_policy.mode to warn'}`,
    );
  }
  return result;
}

type GateText = { text: string | null; source: string; paper: { path: string; tex: string; sha256: string } | null; file: { path: string; text: string; sha256: string } | null };

/** What the gate reads: the text given, a .tex paper (through the claim linking), another file as text, or the contract alone. */
function gateText(req: GateRequest, checkpointDir: string): GateText {
  if (req.text !== undefined) {
    if (Buffer.byteLength(req.text) > MAX_TEX_BYTES) throw new TooLargeError(`text is over ${MAX_TEX_BYTES} bytes`);
    return { text: req.text, source: 'text', paper: null, file: null };
  }
  if (req.tex_path === undefined) return { text: null, source: 'metric_contract.json', paper: null, file: null };
  if (req.tex_path.trim() === '') throw new InputError('tex_path is empty', 'give a path inside the checkpoint, or leave it out');
  const file = resolveInside(checkpointDir, req.tex_path, 'tex_path');
  const stat = statOrNull(file);
  if (!stat?.isFile()) throw new NotFoundError(`tex_path ${file} is not a file`, 'give the paper source inside the checkpoint');
  if (stat.size > MAX_TEX_BYTES) throw new TooLargeError(`tex_path ${file} is over ${MAX_TEX_BYTES} bytes`);
  const { text, sha256 } = readTextHashed(file);
  if (file.endsWith('.tex')) return { text: null, source: req.tex_path, paper: { path: file, tex: text, sha256 }, file: null };
  return { text, source: req.tex_path, paper: null, file: { path: file, text, sha256 } };
}

import { join } from 'node:path';
import { writeJsonAtomic } from '../../core/atomic.ts';
import type { Env } from '../../core/config/env-vars.ts';
import { loadWorkflow } from '../../core/config/workflow.ts';
import { InputError, NotFoundError, TooLargeError } from '../../core/errors.ts';
import { readTextHashed } from '../../core/file-hash.ts';
import { statOrNull } from '../../core/paths.ts';
import { MAX_TEX_BYTES } from '../../paper/tex-text.ts';
import type { GatePhase } from './gate.ts';
import { type ClaimLinks, linkPaperClaims } from './link.ts';
import { resolvePolicy } from './policy.ts';

/** Where the links of each phase are written: the draft's and the final paper's side by side. */
function linksFile(phase: GatePhase): string {
  return phase === 'final' ? 'paper_claim_links_final.json' : 'paper_claim_links.json';
}

/**
 * Links a paper file of the checkpoint (both paths already resolved and checked to lie inside it)
 * with the tolerance and target sections of the checkpoint's claim_gate_policy, and writes the
 * links into the checkpoint atomically.
 */
export function linkPaperFile(checkpointDir: string, texPath: string, phase: GatePhase, env: Env): { links: ClaimLinks; path: string } {
  const stat = statOrNull(texPath);
  if (!stat?.isFile()) throw new NotFoundError(`tex_path ${texPath} is not a file`, 'give the paper source inside the checkpoint');
  if (!texPath.endsWith('.tex')) throw new InputError(`tex_path ${texPath} is not a .tex file`, "give the paper's LaTeX source");
  if (stat.size > MAX_TEX_BYTES) throw new TooLargeError(`tex_path ${texPath} is over ${MAX_TEX_BYTES} bytes`);
  const policy = resolvePolicy(loadWorkflow({ checkpointDir, env }).workflow.claim_gate_policy, undefined, env);
  const { text, sha256 } = readTextHashed(texPath);
  const links = linkPaperClaims({ checkpointDir, texPath, tex: text, texSha256: sha256, phase, tolerance: policy.numeric_match.default_tolerance, targetSections: policy.numeric_coverage.target_sections });
  const path = join(checkpointDir, linksFile(phase));
  writeJsonAtomic(path, links);
  return { links, path };
}

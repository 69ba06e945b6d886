import { Type as T } from '@sinclair/typebox';
import { loadConfig } from '../../core/config/config.ts';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { isFileAt } from '../../core/paths.ts';
import { createModelClient } from '../../llm/client.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { MAX_CLAIMS, SEMANTIC_PHASES, semanticReview, semanticReviewFile } from '../../evaluate/semantic-review/index.ts';
import { checkpointDirArg, checkpointPath } from '../checkpoint-path.ts';

export const evidenceGroundedSemanticReview = defineTool({
  name: 'evidence_grounded_semantic_review',
  description:
    `Read the paper's claims against their evidence with the eval model (SVC_MODEL_EVAL): every sentence with a claim anchor \\svcclaim{key}{value}, with the science_data.json value each key names (its metric, node, configuration and what it is) and the metric contract, judged supported, overstated (says more than was measured: "significantly", "always", beyond the configurations measured) or unsupported (a comparison the evidence does not make, a cause from a correlation, another configuration's value); at most ${MAX_CLAIMS} sentences, the rest left out and counted. ` +
    `Writes ${semanticReviewFile('draft')} (phase draft) or ${semanticReviewFile('post_refine')} (phase post_refine) in the checkpoint and returns it with review_path: {phase, tex_path, tex_sha256, model, status: ok | unavailable | failed, reason?, claims_total, claims_reviewed, claims_left_out, findings: [{claim, key, section, line, verdict, issue, suggestion, revision?, evidence: {key, value, printed, metric, node_id, what, configuration}}], dropped_findings, counts: {supported, overstated, unsupported}, issues: ["[section] issue (claim anchor key) — suggestion"], summary, notes, metric_contract, reviewed_at}. ` +
    'The numbers are the science data\'s, never the model\'s; a finding naming an unknown key is dropped with its reason. Non-blocking: a missing or unreachable model, or an answer still not the asked JSON after one correction, is the record\'s status and reason, not an error. paper_refine reads its issues (semantic_review_path).',
  params: toolParams({
    tex_path: T.String({ description: "the paper's .tex inside the checkpoint: absolute, or relative to it (paper/main.tex; after paper_refine paper/main_refined.tex)" }),
    checkpoint_dir: T.Optional(T.String({ description: 'the run checkpoint directory; SVC_CHECKPOINT_DIR when left out' })),
    phase: T.Union(
      SEMANTIC_PHASES.map((p) => T.Literal(p)),
      { default: 'draft', description: 'draft (the written paper) or post_refine (the refined paper): each writes its own record' },
    ),
  }),
  timeoutS: 900,
  async run(args, ctx) {
    const checkpointDir = checkpointDirArg(args.checkpoint_dir, ctx.env);
    const texPath = checkpointPath(args.tex_path, 'tex_path', { ...ctx.env, SVC_CHECKPOINT_DIR: checkpointDir });
    if (!texPath.endsWith('.tex')) throw new InputError(`tex_path '${texPath}' is not a .tex file`, 'give the paper source (paper/main.tex)');
    if (!isFileAt(texPath)) throw new NotFoundError(`tex_path '${texPath}' does not exist`, 'write the paper first (write_paper_iterative), or give the path of its .tex');
    const { record, path } = await semanticReview({
      checkpointDir,
      texPath,
      phase: args.phase,
      // the skill process's own environment is the run's: the call lands in the run's cost ledger
      connect: () => createModelClient({ cfg: loadConfig({ env: ctx.env, checkpointDir }), checkpointDir }),
      nodeId: envValue(ctx.env, 'SVC_CURRENT_NODE_ID'),
      signal: ctx.signal,
    });
    return { ...record, review_path: path };
  },
});

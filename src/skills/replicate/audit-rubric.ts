import { Type as T } from '@sinclair/typebox';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { auditRubric } from '../../replicate/audit.ts';
import { readRubric } from '../../replicate/rubric.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { paperArg, roleClient } from './settings.ts';

export const auditRubricTool = defineTool({
  name: 'audit_rubric',
  description:
    "Audit a rubric's leaves: vague_qualifier (a word such as good, reasonable, appropriate, significant with no measurable criterion) and duplicate (near-identical to an earlier leaf) are found deterministically; " +
    'no_paper_evidence (the paper does not state it) and unverifiable (a grader with the code, reproduce.sh and its log could not decide it) by the auditor model (SVC_MODEL_RUBRIC_AUDIT unless auditor_model is given). ' +
    'Returns {leaves_total, flagged: [{leaf_id, flags, reason}], flagged_fraction, recommend_regeneration (more than 20% flagged), rubric_sha256, auditor_model}.',
  params: toolParams({
    rubric_path: T.String({ description: 'the rubric (ors_rubric.json): absolute inside the checkpoint, or relative to it' }),
    paper_path: T.Optional(T.String({ description: 'the paper (.tex, .md or .pdf) the rubric was made from' })),
    paper_text: T.Optional(T.String({ description: 'the paper as text, when no paper_path is given' })),
    auditor_model: T.Optional(T.String({ description: 'the auditor model; default SVC_MODEL_RUBRIC_AUDIT' })),
  }),
  timeoutS: 1800,
  run: async (args, ctx) => {
    const rubric = readRubric(checkpointPath(args.rubric_path, 'rubric_path', ctx.env));
    const paper = await paperArg(args, ctx);
    const { client } = roleClient(ctx, 'rubric_audit', 'SVC_MODEL_RUBRIC_AUDIT', args.auditor_model);
    const report = await auditRubric(client, rubric.root, paper, ctx.signal);
    return { ...report, rubric_sha256: rubric.sha256, auditor_model: client.choice('rubric_audit').model };
  },
});

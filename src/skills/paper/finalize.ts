import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { defineTool } from '../../mcp/tool.ts';
import { COMPILE_TIMEOUT_MS } from '../../paper/compile.ts';
import { FINAL_GATE_REPORT, finalizePaper } from '../../paper/finalize.ts';
import { checkpointPath } from '../checkpoint-path.ts';

export const finalizePaperTool = defineTool({
  name: 'finalize_paper',
  description:
    'Make the refined paper final when the final claim gate lets it: the gate report (evaluation/claim_evidence_hard_gate_final.json) must be of this very file and not block it. ' +
    'Then the paper is copied to final_paper.tex beside it, the code availability statement (ref, SHA-256, DOI, license from publish_record.json and the curated bundle) put in, and it is compiled to final_paper.pdf. ' +
    'When the gate blocks, or has not checked this version, no final paper is left and the reason is recorded. Writes finalize_paper.json in the checkpoint and returns it: ' +
    '{finalized, reason?, source_tex, source_sha256, gate: {report, phase, mode, status, should_block}, tex_path, pdf_path, pages, code_availability, finalized_at}; when not final also {skipped: true}.',
  params: T.Object(
    {
      tex_path: T.String({ default: 'full_paper_refined.tex', description: 'the refined paper: absolute, or relative to the run checkpoint (SVC_CHECKPOINT_DIR)' }),
      gate_report: T.String({ default: FINAL_GATE_REPORT, description: "the final claim gate's report, relative to the checkpoint" }),
    },
    { additionalProperties: false },
  ),
  timeoutS: COMPILE_TIMEOUT_MS / 1000 + 60,
  run: async (args, ctx) => {
    const checkpointDir = ctx.env.SVC_CHECKPOINT_DIR;
    if (!checkpointDir) throw new InputError('SVC_CHECKPOINT_DIR is not set: finalize_paper works on a run checkpoint', 'run it as a stage of the pipeline (svc paper <checkpoint> --stage finalize_paper)');
    const tex = checkpointPath(args.tex_path, 'tex_path', ctx.env);
    const gateReport = checkpointPath(args.gate_report, 'gate_report', ctx.env);
    const record = await finalizePaper({ checkpointDir, tex, gateReport, env: ctx.env });
    // a paper the gate holds back is a stage skipped for a reason, not a failure of the tool
    return record.finalized ? record : { ...record, skipped: true };
  },
});

import { Type as T } from '@sinclair/typebox';
import { GATE_PHASES } from '../../evaluate/claim-gate/gate.ts';
import { linkPaperFile } from '../../evaluate/claim-gate/link-file.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { checkpointDirArg, checkpointPath } from '../checkpoint-path.ts';

export const linkPaperClaimsTool = defineTool({
  name: 'link_paper_claims',
  description:
    "Map every claim anchor (\\svcclaim{key}{value}) and every other number of a LaTeX paper to where it comes from, without a model: an anchor to its science_data.json value, the metric contract's use of its metric and the node it was measured on (work directory, results.json and its SHA-256, whether tree.json says it ran); " +
    "a number without an anchor to the science-data values and node measurements it matches within claim_gate_policy.numeric_match.default_tolerance (a number the prose gives for a metric to that metric's values only, else mismatch), else to a configuration's setting, else uncovered; each with the section it stands in and that section's class in numeric_coverage.target_sections. " +
    'Writes paper_claim_links.json (draft) or paper_claim_links_final.json (final) in the checkpoint and returns it with links_path: {tex_path, tex_sha256, sections, anchors, numbers, nodes, coverage, summary, problems, ...}.',
  params: toolParams({
    tex_path: T.String({ description: "the paper's .tex: absolute, or relative to the checkpoint; it must lie inside the checkpoint" }),
    checkpoint_dir: T.Optional(T.String({ description: 'the run checkpoint, inside the checkpoints directory (default: SVC_CHECKPOINT_DIR)' })),
    phase: T.Optional(T.Union(GATE_PHASES.map((p) => T.Literal(p)), { default: 'draft', description: 'draft or final: which links file is written' })),
  }),
  run: (args, ctx) => {
    const checkpoint = checkpointDirArg(args.checkpoint_dir, ctx.env);
    const tex = checkpointPath(args.tex_path, 'tex_path', { ...ctx.env, SVC_CHECKPOINT_DIR: checkpoint });
    const { links, path } = linkPaperFile(checkpoint, tex, args.phase ?? 'draft', ctx.env);
    return { ...links, links_path: path };
  },
});

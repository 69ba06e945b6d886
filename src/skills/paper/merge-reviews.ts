import { dirname } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { mergeReviews } from '../../paper/merge-reviews.ts';
import { checkpointPath } from '../checkpoint-path.ts';

export const mergeReviewsTool = defineTool({
  name: 'merge_reviews',
  description:
    "Fold the figure review (vlm_review.json) into the paper's review (review_report.json), without a model: its issues are added to the report's issues and weaknesses and its suggestions to its recommendations, each tagged with its figure label, " +
    'those the report already has left out; the figure review is kept under vlm_figure_review and what was merged under _review_composition. The scores and decision stay the reviewers\'. ' +
    'The reviewers\' report is kept beside it as review_report.reviewer.json (merging again starts from it). Without a figure review (missing or empty) the report is left as it is. ' +
    'Writes the report and review_merge_log.json, and returns the log: {merged, reason?, review_report, vlm_review, added: {issues, recommendations}, duplicates_dropped, scores_changed: false, ...}.',
  params: toolParams({
    review_report_path: T.String({ description: 'review_report.json as review_compiled_paper wrote it: absolute, or relative to the checkpoint' }),
    vlm_review_path: T.Optional(T.String({ default: 'vlm_review.json', description: 'the figure review (vlm_review.json); missing is not an error' })),
  }),
  run: (args, ctx) => {
    const report = checkpointPath(args.review_report_path, 'review_report_path', ctx.env);
    const vlm = checkpointPath(args.vlm_review_path?.trim() || 'vlm_review.json', 'vlm_review_path', { ...ctx.env, SVC_CHECKPOINT_DIR: ctx.env.SVC_CHECKPOINT_DIR || dirname(report) });
    return mergeReviews(report, vlm, ctx.env.SVC_CHECKPOINT_DIR || dirname(report)).log;
  },
});

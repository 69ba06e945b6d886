import { mkdirSync } from 'node:fs';
import { checkpointPath } from '../checkpoint-path.ts';
import { Type as T } from '@sinclair/typebox';
import { diskError, InputError } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { defineTool } from '../../mcp/tool.ts';
import { readScienceDataFile } from '../../science/read.ts';
import { FigureKind } from '../../schema/figures-manifest.ts';
import { svgToPng } from '../../chart/png.ts';
import { visionModel } from '../vision.ts';
import { visionCaptions } from './captions.ts';
import { drawFigures } from './figures.ts';
import { type FinishedFigure, MANIFEST_FILE, writeFigures } from './manifest.ts';
import { checkSameRun } from './same-run.ts';
import { PDF_CONVERTER_PACKAGE, pdfConverter, svgToPdf } from './svg-pdf.ts';

export const generateFigures = defineTool({
  name: 'generate_figures',
  description:
    `Draw the paper's figures from science_data.json, its numbers only: metric_bar (the primary metric of every configuration, best and baseline marked), ` +
    'best_vs_baseline (the two side by side), param_sweep (the metric against a numeric setting varied while the others stay fixed; up to three). ' +
    `Each is written to output_dir as a vector PDF (fig_<name>.pdf, made with rsvg-convert; without it the PNG is the figure) and a 1600x1000 PNG, ` +
    `with ${MANIFEST_FILE} {figures: [{file, png, kind, caption, caption_source, label, source: {anchor key: value}}], latex_snippets: [figure environments], notes}. ` +
    'Captions are written from the data; with vlm_captions a vision model (VLM_MODEL) looking at each figure improves them, and without one they stay as they are. ' +
    `Returns the manifest and manifest_path.`,
  params: T.Object(
    {
      nodes_json_path: T.Optional(T.String({ description: "the run's nodes_tree.json: every configuration of the science data must be one of its nodes" })),
      output_dir: T.String({ description: 'directory for the figures and the manifest (made when missing)' }),
      figures: T.Optional(T.Array(FigureKind, { minItems: 1, uniqueItems: true, description: 'kinds to draw (default: every kind the data supports); a kind named here that the data cannot support is an error' })),
      science_data_path: T.String({ description: 'the science_data.json to draw from' }),
      vlm_captions: T.Optional(T.Boolean({ default: true, description: 'let the vision model write the captions, looking at the figures' })),
      experiment_context: T.Optional(T.String({ default: '', description: 'what the experiment is about, for the captions' })),
      feedback: T.Optional(T.String({ default: '', description: 'the review of the previous figures (vlm_review_figures), for the captions' })),
    },
    { additionalProperties: false },
  ),
  // up to five figures, each caption a vision-model call that may be asked twice
  timeoutS: 3600,
  async run(args, ctx) {
    const outputDir = checkpointPath(args.output_dir, 'output_dir', ctx.env);
    const st = statOrNull(outputDir);
    if (st && !st.isDirectory()) throw new InputError(`output_dir '${printable(args.output_dir)}' is not a directory`);
    const sciencePath = checkpointPath(args.science_data_path, 'science_data_path', ctx.env);
    const data = readScienceDataFile(sciencePath);
    if (args.nodes_json_path) checkSameRun(data, sciencePath, checkpointPath(args.nodes_json_path, 'nodes_json_path', ctx.env));
    const drawn = drawFigures(data, sciencePath, args.figures);

    const notes: string[] = [];
    const converter = pdfConverter(ctx.env);
    if (!converter) notes.push(`the figures are PNG, not vector PDF: rsvg-convert is not installed (apt-get install ${PDF_CONVERTER_PACKAGE})`);
    const rendered = [];
    for (const d of drawn) {
      const png = (await svgToPng(d.svg)).bytes;
      rendered.push({ drawn: d, png, pdf: converter ? await svgToPdf(converter, d.svg, ctx.env, ctx.signal) : null });
    }

    let captions: (string | null)[] = rendered.map(() => null);
    if (args.vlm_captions !== false) {
      const vision = visionModel(ctx.env);
      if ('none' in vision) notes.push(`the captions are from the data: ${vision.none}`);
      else {
        const made = await visionCaptions(vision, rendered, { context: args.experiment_context ?? '', feedback: args.feedback ?? '', signal: ctx.signal });
        captions = made.captions;
        notes.push(...made.notes);
      }
    }
    if (args.feedback?.trim() && captions.every((c) => c === null)) notes.push('the review of the previous figures was not acted on: no vision model wrote the captions');

    const finished: FinishedFigure[] = rendered.map((r, i) => {
      const caption = captions[i];
      return { ...r, caption: caption ?? r.drawn.caption, captionSource: caption ? 'vision model' : 'data' };
    });
    try {
      mkdirSync(outputDir, { recursive: true });
    } catch (err) {
      throw diskError(err, outputDir);
    }
    return writeFigures(outputDir, finished, notes);
  },
});

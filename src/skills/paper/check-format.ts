import { join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { isFileAt } from '../../core/paths.ts';
import { defineTool } from '../../mcp/tool.ts';
import { checkFormat } from '../../paper/format-check.ts';
import { readScienceDataFile as readScienceData } from '../../science/read.ts';
import { findVenue } from '../../paper/venues.ts';
import { checkpointPath } from '../checkpoint-path.ts';

export const checkFormatTool = defineTool({
  name: 'check_format',
  description:
    "Check a compiled paper against its venue, from the files compile_paper leaves beside the PDF: the page limit (pages up to the one the references begin on), " +
    'undefined references and citations, overfull boxes, figures that are not there, claim anchors left unfilled or (with the checkpoint\'s science_data.json) ' +
    'naming an unknown key or printing another value, and numbers in the prose without a claim anchor. ' +
    'Returns {venue, pdf_path, pages, content_pages, page_limit, passes, findings: [{check, severity: error | warning, message, file, line}]}; passes is false when any finding is an error.',
  params: T.Object(
    {
      venue: T.String({ description: 'neurips, icpp, sc, isc, arxiv or acm' }),
      pdf_path: T.String({ description: 'the compiled PDF: absolute, or relative to the run checkpoint (SVC_CHECKPOINT_DIR)' }),
    },
    { additionalProperties: false },
  ),
  timeoutS: 120,
  run: (args, ctx) => {
    const venue = findVenue(args.venue);
    const checkpoint = ctx.env.SVC_CHECKPOINT_DIR;
    const dataFile = checkpoint ? join(checkpoint, 'science_data.json') : null;
    const data = dataFile && isFileAt(dataFile) ? readScienceData(dataFile) : null;
    return checkFormat(venue, checkpointPath(args.pdf_path, 'pdf_path', ctx.env), ctx.env, data);
  },
});

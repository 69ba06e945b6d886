import captionTemplate from '../../prompts/plot/figure_caption.md' with { type: 'text' };
import { oneLine } from '../../core/errors.ts';
import { isMapping } from '../../core/values.ts';
import type { JsonCheck } from '../../llm/client.ts';
import { ModelAnswerError } from '../../llm/errors.ts';
import { fillOwnPrompt } from '../../prompts/templates.ts';
import { pngPart, type Vision } from '../vision.ts';
import type { DrawnFigure } from './figures.ts';
import { numbersIn, unbackedNumbers } from '../../science/numbers.ts';

/** The model reads the head of the experiment: what the figures are about is said early. */
const MAX_CONTEXT_CHARS = 4000;
const MAX_CAPTION_CHARS = 600;

export type Captioned = { captions: (string | null)[]; notes: string[] };

/**
 * Captions a vision model writes looking at each rendered figure, given the caption from the data
 * and the review of the previous figures. A caption stating a number the figure's data does not
 * hold is refused (asked once more, then the data's caption stays): a paper's numbers come from
 * science_data.json only. A figure the model gives no usable caption keeps the data's (null); a
 * failing model is asked about no further figure. Each such case is a note.
 */
export async function visionCaptions(vision: Extract<Vision, { client: unknown }>, figures: { drawn: DrawnFigure; png: Uint8Array }[], opts: { context: string; feedback: string; signal: AbortSignal }): Promise<Captioned> {
  const captions: (string | null)[] = [];
  const notes: string[] = [];
  for (const { drawn, png } of figures) {
    try {
      const answer = await vision.client.completeJson<{ caption: string }>(
        {
          role: 'vlm',
          messages: [
            {
              role: 'system',
              content: fillOwnPrompt(captionTemplate, {
                experiment: opts.context.trim().slice(0, MAX_CONTEXT_CHARS) || '(not given)',
                kind: drawn.kind,
                data_caption: drawn.caption,
                feedback: opts.feedback.trim() || '(none: this is the first version)',
              }),
            },
            { role: 'user', content: [{ type: 'text', text: `The figure (${drawn.label}):` }, pngPart(png)] },
          ],
          meta: { phase: 'paper', skill: 'plot-skill', component: 'figures', op: 'figure_caption' },
          signal: opts.signal,
        },
        captionCheck([...numbersIn(drawn.caption, 'every'), ...Object.values(drawn.source)]),
        { retries: 1 },
      );
      captions.push(answer.caption.replace(/\s+/g, ' ').trim());
    } catch (err) {
      if (opts.signal.aborted) throw err;
      captions.push(null);
      if (err instanceof ModelAnswerError) {
        notes.push(`${drawn.label} keeps its caption from the data: ${oneLine(err)}`);
        continue;
      }
      notes.push(`captions from ${drawn.label} on are from the data: the vision model ${vision.model} failed: ${oneLine(err)}`);
      while (captions.length < figures.length) captions.push(null);
      break;
    }
  }
  return { captions, notes };
}

function captionCheck(allowed: number[]): JsonCheck {
  return (v) => {
    if (!isMapping(v) || typeof v.caption !== 'string' || v.caption.trim() === '') return 'the answer must be {"caption": "..."} with a caption';
    if (v.caption.length > MAX_CAPTION_CHARS) return `the caption has ${v.caption.length} characters; keep it under ${MAX_CAPTION_CHARS}`;
    const unbacked = unbackedNumbers(v.caption, allowed);
    if (unbacked.length) return `the caption states ${unbacked.join(', ')}, which the figure's data does not hold; state numbers only as the caption from the data gives them`;
    return null;
  };
}

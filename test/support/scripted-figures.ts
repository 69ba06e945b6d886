import { messagesOf, type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/** What a reader should notice in each kind of figure, as a careful author adds it to a caption. */
const READING: Readonly<Record<string, string>> = {
  metric_bar: 'Green marks the best configuration and grey the baseline.',
  best_vs_baseline: 'The grey bar is the baseline, the green one the best configuration.',
  param_sweep: 'Each point is one configuration; the line joins them in order of the setting.',
};

/** The PNG pictures of a request, as OpenAI image_url parts with base64 data URLs, decoded. */
export function pngImages(body: OpenAIChatRequest): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const m of messagesOf(body)) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content as { type?: string; image_url?: { url?: string } }[]) {
      const url = part?.type === 'image_url' ? (part.image_url?.url ?? '') : '';
      const data = /^data:image\/png;base64,(.+)$/.exec(url)?.[1];
      if (data) out.push(new Uint8Array(Buffer.from(data, 'base64')));
    }
  }
  return out;
}

const isPng = (bytes: Uint8Array) => bytes.length > 8 && bytes[0] === 0x89 && String.fromCharCode(...bytes.subarray(1, 4)) === 'PNG';

/**
 * The caption of a figure it is shown: the caption from the data, whose numbers it keeps, and
 * what to see in that kind of figure. Without a picture it says it saw none.
 */
export function figureCaptionReply(body: OpenAIChatRequest): string {
  const system = textOfRoles(body, ['system']);
  const kind = /^Kind: (\w+)/m.exec(system)?.[1] ?? '';
  const fromData = /^Caption from the data, every number in it measured: (.*)$/m.exec(system)?.[1] ?? '';
  const seen = pngImages(body).some(isPng);
  return JSON.stringify({ caption: seen ? `${fromData} ${READING[kind] ?? ''}`.trim() : 'No figure was shown to the reviewer.' });
}

/**
 * A review of the figures it is shown: good when every figure named in the text came with its
 * picture, with one suggestion for the first; unusable when a picture is missing.
 */
export function figureReviewReply(body: OpenAIChatRequest): string {
  const labels = [...textOfRoles(body, ['user']).matchAll(/Figure (fig:[\w-]+)/g)].map((m) => m[1] as string);
  const pictures = pngImages(body).filter(isPng).length;
  if (labels.length === 0 || pictures < labels.length) {
    return JSON.stringify({ score: 0.1, issues: [`${labels.length} figures named but ${pictures} pictures received`], suggestions: ['send every figure as an image'] });
  }
  return JSON.stringify({ score: 0.85, issues: [], suggestions: [`${labels[0]}: a logarithmic axis would show the smaller values apart`] });
}

/**
 * A review of one figure: fair when its picture came, with one issue and one suggestion naming the
 * figure's label; unusable without a picture.
 */
export function singleFigureReviewReply(body: OpenAIChatRequest): string {
  const label = /Figure (\S+?)\. Caption:/.exec(textOfRoles(body, ['user']))?.[1] ?? '(no label)';
  if (!pngImages(body).some(isPng)) return JSON.stringify({ score: 0.1, issues: ['no picture was received'], suggestions: ['send the figure as an image'] });
  return JSON.stringify({ score: label.length % 2 === 0 ? 0.8 : 0.6, issues: [`the y axis of ${label} has no unit`], suggestions: [`label the y axis of ${label} with its unit`] });
}

/** A review of tables given as LaTeX: one issue for a table without a caption, one suggestion always; unusable without a tabular. */
export function tableReviewReply(body: OpenAIChatRequest): string {
  const user = textOfRoles(body, ['user']);
  const tabulars = [...user.matchAll(/\\begin\{tabular/g)].length;
  if (tabulars === 0) return JSON.stringify({ score: 0.1, issues: ['no table was received'], suggestions: [] });
  const captions = [...user.matchAll(/\\caption\{/g)].length;
  return JSON.stringify({ score: 0.75, issues: captions < tabulars ? [`${tabulars - captions} of ${tabulars} tables have no caption`] : [], suggestions: ['align the numbers at the decimal point'] });
}

import { type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/** Words a careful reader of one fixed input does not let pass. */
const OVERCLAIM = /\b(always|significantly|consistently|proves?|any input)\b/i;

/**
 * The eval model as the semantic reviewer (prompt evaluator/semantic_review): it reads the claims
 * the prompt lists and calls a sentence with an overclaiming word overstated, any other supported.
 * Like a model that misquotes, it gives the sentence back with its numbers changed, and it puts a
 * number of its own in the issue and counts in the summary: the record takes the paper's sentence,
 * and masks every number of the model's words that is not a value of the science data.
 */
export function semanticReviewReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system']);
  const claims = [...text.matchAll(/^- C\d+ \(section: ([^;]*); keys: ([^)]*)\) (.*)$/gm)].map((m) => ({ section: m[1] ?? '', keys: (m[2] ?? '').split(', '), sentence: m[3] ?? '' }));
  const findings = claims.map((c) => {
    const word = OVERCLAIM.exec(c.sentence)?.[1];
    const quoted = c.sentence.replace(/\d[\d,.]*/g, '999');
    if (!word) return { claim: quoted, key: c.keys[0], section: c.section, verdict: 'supported', issue: '', suggestion: '' };
    return {
      claim: quoted,
      key: c.keys[0],
      section: c.section,
      verdict: 'overstated',
      issue: `"${word}" claims more than one array of 999 integers and one seed can show`,
      suggestion: 'Say that it needed fewer comparisons on the array measured.',
    };
  });
  return JSON.stringify({ findings, summary: `${findings.filter((f) => f.verdict !== 'supported').length} of ${findings.length} claims say more than the evidence shows.` });
}

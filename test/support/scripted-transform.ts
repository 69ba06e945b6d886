import { type OpenAIChatRequest, textOfRoles } from './scripted-request.ts';

/**
 * The scripted researcher's answers to the post-search prompts: the literature keywords, the
 * names of the measured configurations with a method summary, and the bundle's README. Each is
 * read from the request alone, and quotes no number the request does not give.
 */

export function keywordsReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system']).toLowerCase();
  const keywords = /shell sort|insertion sort|comparisons/.test(text)
    ? ['Shell sort gap sequence', 'geometric gap ratio', 'insertion sort comparisons', 'comparison sorting']
    : ['experimental evaluation'];
  return JSON.stringify({ keywords });
}

/** "Shell sort, gap ratio 2.4" from a configuration's settings; the seed only when it is not the usual one. */
export function configurationsReply(body: OpenAIChatRequest): string {
  const settings = [...textOfRoles(body, ['system']).matchAll(/^\d+\. label: \S+; search name: .*; settings: (\{.*\})$/gm)].map((m) => JSON.parse(m[1] ?? '{}') as Record<string, unknown>);
  const names = settings.map(nameOf);
  const method_summary =
    'Plain insertion sort on the fixed pseudo-random array is the baseline. Shell sort variants whose gaps grow by a constant ratio are compared with it by the exact number of element comparisons, counted by a deterministic program that also checks that its output is sorted.';
  return JSON.stringify({ names, method_summary });
}

function nameOf(s: Record<string, unknown>): string {
  const algorithm = typeof s.algorithm === 'string' ? `${s.algorithm.charAt(0).toUpperCase()}${s.algorithm.slice(1)} sort` : 'Configuration';
  const parts = [algorithm];
  if (s.gap_ratio !== undefined) parts.push(`gap ratio ${String(s.gap_ratio)}`);
  if (s.seed !== undefined && s.seed !== 42) parts.push(`seed ${String(s.seed)}`);
  return parts.join(', ');
}

/** A README naming each bundled configuration's directory and how to run its program. */
export function earReadmeReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system']);
  const configs = [...text.matchAll(/^- (code\/\S+\/): (.+) \(the ([^)]+)\); files: (.*)$/gm)].map((m) => ({ dir: m[1], name: m[2], role: m[3], files: m[4] ?? '' }));
  const program = /\b([\w-]+\.js)\b/.exec(configs.map((c) => c.files).join(' '))?.[1];
  return [
    '# Fewer comparisons when sorting: the artifact bundle',
    '',
    'An automated search for the Shell-sort gap ratio that needs the fewest element comparisons on a fixed pseudo-random array, against plain insertion sort.',
    '',
    '## Contents',
    '',
    '- `RESULTS.md`: the measured results, generated from `data/science_data.json`.',
    '- `data/`: the science data and each configuration\'s `results.json`.',
    ...configs.map((c) => `- \`${c.dir}\`: ${c.name}, the ${c.role}.`),
    '',
    '## Reproducing',
    '',
    program ? `In a configuration's directory run \`node ${program}\`: it prints its settings and measurements as one JSON line.` : 'Run the program in a configuration\'s directory with its interpreter.',
  ].join('\n');
}

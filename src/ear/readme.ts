import readmeTemplate from '../prompts/transform/ear_readme.md' with { type: 'text' };
import { oneLine } from '../core/errors.ts';
import type { ModelClient } from '../llm/client.ts';
import { parseJsonAnswer } from '../llm/json-answer.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import type { ScienceData } from '../schema/science-data.ts';
import { allowedNumbers, foreignNumbers } from '../science/numbers.ts';

/** A bundled configuration: its node, its name, its role, its directory under code/, the code files and the command the run last ran there. */
export type BundledCode = { node_id: string; name: string; role: string; dir: string; files: string[]; run_command: string | null };

const MAX_README_CHARS = 20000;

/**
 * README.md of the bundle: the model's, when it writes one that quotes no number beyond the
 * experiment's text, the method and the settings (the measured numbers are RESULTS.md's); else the
 * deterministic one, with a note saying why.
 */
export async function bundleReadme(model: ModelClient | string, data: ScienceData, code: readonly BundledCode[], files: readonly string[], notes: string[], signal?: AbortSignal): Promise<{ text: string; by: 'model' | 'deterministic' }> {
  const fallback = () => ({ text: deterministicReadme(data, code), by: 'deterministic' as const });
  if (typeof model === 'string') {
    notes.push(`README.md is deterministic: no model (${model})`);
    return fallback();
  }
  let text: string;
  try {
    const answer = await model.complete({
      role: 'paper',
      messages: [
        {
          role: 'system',
          content: fillOwnPrompt(readmeTemplate, {
            goal: data.experiment_context.goal || '(not given)',
            method: data.experiment_context.method_summary,
            configurations: code.map((c) => `- code/${c.dir}/: ${c.name} (the ${c.role} configuration); files: ${c.files.join(', ') || '(none)'}`).join('\n'),
            files: promptFiles(files),
          }),
        },
        { role: 'user', content: 'Write the README.md.' },
      ],
      meta: { phase: 'paper', skill: 'transform-skill', component: 'transform', op: 'ear_readme' },
      signal,
    });
    text = readmeOf(answer.text);
  } catch (err) {
    if (signal?.aborted) throw err;
    notes.push(`README.md is deterministic: the model gave none (${oneLine(err)})`);
    return fallback();
  }
  if (text === '' || text.length > MAX_README_CHARS) {
    notes.push(`README.md is deterministic: the model's was ${text === '' ? 'empty' : `over ${MAX_README_CHARS} characters`}`);
    return fallback();
  }
  const allowed = allowedNumbers(
    data.configurations.filter((c) => code.some((b) => b.node_id === c.node_id)).map((c) => c.params),
    [data.experiment_context.goal, data.experiment_context.idea ?? '', data.experiment_context.method_summary, ...code.map((c) => c.files.join(' '))],
  );
  const foreign = foreignNumbers(text, allowed);
  if (foreign.length > 0) {
    notes.push(`README.md is deterministic: the model's quotes ${foreign.slice(0, 5).join(', ')}, which neither the experiment, the method nor a setting gives`);
    return fallback();
  }
  return { text: `${text}\n`, by: 'model' };
}

/**
 * The bundle's files for the prompt, each configuration's results.json as one line: node ids
 * differ from run to run, and a prompt without them is asked alike (and replays) whatever they are.
 */
function promptFiles(files: readonly string[]): string {
  const results = files.filter((f) => /^data\/[^/]+\/results\.json$/.test(f));
  const lines = files.filter((f) => !results.includes(f)).map((f) => `- ${f}`);
  if (results.length > 0) lines.push(`- data/<node>/results.json: the settings and measurements of each configuration (${results.length} in all)`);
  return lines.join('\n');
}

/** The model's Markdown, without a code fence around all of it or reasoning before it. */
function readmeOf(answer: string): string {
  const body = answer.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const fenced = /^```(?:markdown|md)?\s*\n([\s\S]*?)\n```$/.exec(body)?.[1];
  if (fenced !== undefined) return fenced.trim();
  // a model asked for JSON elsewhere may answer {"readme": "..."}
  const parsed = body.startsWith('{') ? parseJsonAnswer(body) : null;
  const readme = parsed && 'value' in parsed && parsed.value && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>).readme : undefined;
  return typeof readme === 'string' ? readme.trim() : body;
}

/** The README made from the data alone. */
export function deterministicReadme(data: ScienceData, code: readonly BundledCode[]): string {
  const title = data.experiment_context.idea?.split(':')[0]?.trim() || firstHeading(data.experiment_context.goal) || 'Artifact bundle';
  const lines = [
    `# ${title}`,
    '',
    'The code and data of an automated research run, for reproducing its results.',
    '',
    '## Method',
    '',
    data.experiment_context.method_summary,
    '',
    '## Contents',
    '',
    '- `RESULTS.md`: the measured results, as tables generated from `data/science_data.json`.',
    '- `data/science_data.json`: every configuration with its settings and measurements, and the values a paper quotes, under their anchor keys.',
    '- `data/<node>/results.json`: the settings and measurements of each configuration, as its run recorded them.',
    ...code.map((c) => `- \`code/${c.dir}/\`: the code of the ${c.role} configuration, ${c.name} (node ${c.node_id}): ${c.files.map((f) => `\`${f}\``).join(', ') || 'no files'}.`),
    '',
    '## Running the code',
    '',
    'Each directory under `code/` holds the files of that configuration\'s work directory, less the run\'s records and outputs.',
    ...code.map((c) => (c.run_command ? `For ${c.name}, the run's last command there was \`${c.run_command}\`.` : `For ${c.name}, the run recorded no command.`)),
  ];
  // the experiment's own headings go below this README's
  if (data.experiment_context.goal) lines.push('', '## Experiment', '', data.experiment_context.goal.replace(/^(#+)/gm, '##$1'));
  return `${lines.join('\n')}\n`;
}

function firstHeading(text: string): string | null {
  return /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? null;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlFile } from '../core/config/yaml.ts';
import { InputError } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import type { Backend } from './route.ts';
import type { Usage } from './types.ts';

/** Where a call's price came from; "unknown" and "local" cost 0. */
export type PriceSource = 'override' | 'genai-prices' | 'local' | 'replay' | 'unknown';
export type Price = { costUsd: number; source: PriceSource };

/** One row of a price file: a model-id substring and USD per 1K tokens. */
type Row = { key: string; input: number; output: number };

export const PROVIDER_ID: Readonly<Partial<Record<Backend, string>>> = { providera: 'openai', providerb: 'anthropic' };

/**
 * Prices calls: the override file first (the first key that is a substring of the lower-cased
 * model id, as the reference implementation's model_prices.yaml), then the local daemon and
 * replays at 0, then the @pydantic/genai-prices table, else 0 marked unknown.
 */
export class PriceBook {
  private constructor(private readonly rows: Row[]) {}

  /** SVC_MODEL_PRICES (which must exist), else `<checkpoint>/model_prices.yaml` when present. */
  static load(file: string | null, checkpointDir: string | null): PriceBook {
    const path = file ?? (checkpointDir ? join(checkpointDir, 'model_prices.yaml') : null);
    let text: string | null = null;
    try {
      text = path ? readFileSync(path, 'utf8') : null;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      if (file) throw new InputError(`SVC_MODEL_PRICES names ${file}, which cannot be read (${code})`, 'point it at a YAML file of model: [input, output] USD per 1K tokens');
      if (code !== 'ENOENT') throw new InputError(`${path} cannot be read (${code})`, 'fix its permissions, or remove it to use the maintained price table');
    }
    return new PriceBook(text === null || !path ? [] : parseRows(text, path));
  }

  async price(backend: Backend, model: string, baseUrl: string | null, usage: Usage): Promise<Price> {
    const id = model.toLowerCase();
    const row = this.rows.find((r) => id.includes(r.key));
    if (row) return { costUsd: (usage.promptTokens * row.input + usage.completionTokens * row.output) / 1000, source: 'override' };
    if (backend === 'localllm' || backend === 'replay') return { costUsd: 0, source: backend === 'replay' ? 'replay' : 'local' };
    const tokens = { input_tokens: usage.promptTokens, output_tokens: usage.completionTokens };
    const { calcPrice } = await import('@pydantic/genai-prices');
    const providerId = PROVIDER_ID[backend];
    const found = providerId ? calcPrice(tokens, model, { providerId }) : ((baseUrl ? calcPrice(tokens, model, { providerApiUrl: baseUrl }) : null) ?? calcPrice(tokens, model));
    return found ? { costUsd: found.total_price, source: 'genai-prices' } : { costUsd: 0, source: 'unknown' };
  }
}

function parseRows(text: string, path: string): Row[] {
  const doc = parseYamlFile(text, path);
  if (doc === null || doc === undefined) return [];
  if (!isMapping(doc)) throw new InputError(`${path}: a price file maps model-id substrings to [input, output] USD per 1K tokens`, 'e.g. gpt-4o-mini: [0.00015, 0.0006]');
  return Object.entries(doc).map(([key, v]) => {
    const ok = Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0);
    if (!ok) throw new InputError(`${path}: the price of '${key}' must be [input, output] USD per 1K tokens, two numbers of at least 0`);
    return { key: key.toLowerCase(), input: v[0] as number, output: v[1] as number };
  });
}

import { withoutThinking } from './answer-text.ts';
import { NODE_LABELS, type NodeLabel } from './contract.ts';

/** The one child an expansion asks for. */
export type Expansion = { label: NodeLabel; rawLabel: string; direction: string };

const MAX_DIRECTION = 2000;

/**
 * The child a bfts_expand answer proposes: a JSON array with one {label, direction} (or a lone
 * object), found even inside prose or a code fence; failing that, the answer's text as the
 * direction with a label inferred from its words. An unknown label becomes `other`, the model's
 * word kept as the raw label. Null when the answer says nothing usable.
 */
export function parseExpansion(text: string, parentHasData: boolean): Expansion | null {
  const body = withoutThinking(text);
  if (!body) return null;
  for (const candidate of jsonCandidates(body)) {
    const e = expansionOf(candidate);
    if (e) return e;
  }
  const direction = body.replace(/```[a-z]*|```/gi, '').trim().slice(0, MAX_DIRECTION);
  if (!direction) return null;
  const label = inferLabel(direction, parentHasData);
  return { label, rawLabel: label, direction };
}

function expansionOf(value: unknown): Expansion | null {
  const item = Array.isArray(value) ? value.find((v) => v && typeof v === 'object') : value;
  if (!item || typeof item !== 'object') return null;
  const o = item as Record<string, unknown>;
  const direction = typeof o.direction === 'string' ? o.direction.trim() : '';
  if (!direction) return null;
  const raw = typeof o.label === 'string' ? o.label.trim() : '';
  const known = (NODE_LABELS as readonly string[]).includes(raw.toLowerCase());
  return { label: known ? (raw.toLowerCase() as NodeLabel) : 'other', rawLabel: raw || 'other', direction: direction.slice(0, MAX_DIRECTION) };
}

/** Parsed JSON values found in the text: the whole text, then the first balanced [...] and {...} spans. */
function* jsonCandidates(text: string): Generator<unknown> {
  for (const span of [text, balancedSpan(text, '['), balancedSpan(text, '{')]) {
    if (span === null) continue;
    try {
      yield JSON.parse(span);
    } catch {
      // not JSON: try the next span
    }
  }
}

/** The first span opened by `open` and closed at the same nesting, with brackets inside strings ignored. */
export function balancedSpan(text: string, open: '[' | '{'): string | null {
  const close = open === '[' ? ']' : '}';
  for (let start = text.indexOf(open); start >= 0; start = text.indexOf(open, start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === open) depth++;
      else if (c === close && --depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

/** A label for a free-text direction: a parent without data needs debugging first; else the words decide. */
export function inferLabel(text: string, parentHasData: boolean): NodeLabel {
  if (!parentHasData) return 'debug';
  if (/ablat/i.test(text)) return 'ablation';
  if (/validat|verif|reproduc|robust/i.test(text)) return 'validation';
  if (/\bdebug|\bfix|\bbug|\berror/i.test(text)) return 'debug';
  if (/improv|optimi[sz]|tun(e|ing)|faster|better|increase|reduce/i.test(text)) return 'improve';
  return 'draft';
}

import type { Field } from './fields.ts';
import type { SettingsView } from './types.ts';

/** What a form field holds: text for inputs, a flag for checkboxes. */
export type Entered = string | boolean;

/** A setting's value in the view; `ors.x` is read from the ors block. */
export function valueOf(view: SettingsView, key: string): unknown {
  if (!key.startsWith('ors.')) return view[key];
  return view.ors?.[key.slice(4)];
}

/** The value as its field shows it. */
export function shownValue(field: Field, value: unknown): Entered {
  if (field.kind === 'boolean') return value === true;
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The body that saves the changed fields: numbers as numbers, empty as null (unset); text that is
 * no number goes as typed, so that the server names what is wrong with it.
 */
export function settingsBody(fields: Field[], changed: Record<string, Entered>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const ors: Record<string, unknown> = {};
  for (const field of fields) {
    if (!(field.key in changed)) continue;
    const entered = changed[field.key] as Entered;
    const value = typeof entered === 'boolean' || (field.kind !== 'number' && field.kind !== 'int') ? entered : entered.trim() === '' ? null : Number.isNaN(Number(entered)) ? entered : Number(entered);
    if (field.key.startsWith('ors.')) ors[field.key.slice(4)] = value;
    else body[field.key] = value;
  }
  if (Object.keys(ors).length > 0) body.ors = ors;
  return body;
}

/** Where a value comes from, in words. */
export function sourceText(source: string | undefined): string {
  if (!source || source === 'default') return 'built-in default';
  if (source === 'saved') return 'saved in settings.json';
  if (source === 'workflow') return 'from the workflow';
  return `from ${source}`;
}

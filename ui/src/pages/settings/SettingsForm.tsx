import { type FormEvent, useId, useState } from 'react';
import { postJson } from '../../api.ts';
import { BACKENDS, type Field } from './fields.ts';
import type { SettingsView } from './types.ts';
import { type Entered, settingsBody, shownValue, sourceText, valueOf } from './values.ts';
import { OutcomeNotice } from '../../components/OutcomeNotice.tsx';

type Props = {
  title: string;
  fields: Field[];
  view: SettingsView;
  /** model names offered for model fields */
  models?: string[];
  onSaved: (view: SettingsView) => void;
};

/**
 * A group of settings with one Save: only the fields changed are posted; the server's answer
 * replaces the view, or its error is shown and the entries stay as typed.
 */
export function SettingsForm({ title, fields, view, models = [], onSaved }: Props) {
  const base = useId();
  const [changed, setChanged] = useState<Record<string, Entered>>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const entered = (f: Field): Entered => changed[f.key] ?? shownValue(f, valueOf(view, f.key));
  const set = (f: Field, v: Entered) => {
    const { [f.key]: _, ...rest } = changed;
    setChanged(v === shownValue(f, valueOf(view, f.key)) ? rest : { ...rest, [f.key]: v });
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const next = await postJson<SettingsView>('/api/settings', settingsBody(fields, changed));
      // what the server now holds for each field saved, as its answer gives it
      const saved = fields.filter((f) => f.key in changed).map((f) => `${f.label} = ${String(shownValue(f, valueOf(next, f.key))) || '(unset)'}`);
      setChanged({});
      setOutcome({ ok: true, text: `Saved to settings.json: ${saved.join(', ')}.` });
      onSaved(next);
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  const pending = Object.keys(changed).length;
  return (
    <form className="settings-form card" onSubmit={save} aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`}>{title}</h2>
      <div className="settings-fields">
        {fields.map((f) => (
          <FieldInput key={f.key} id={`${base}-${f.key}`} list={f.suggest && `${base}-${f.suggest}`} field={f} value={entered(f)} source={view._sources[f.key]} edited={f.key in changed} onChange={(v) => set(f, v)} />
        ))}
      </div>
      <datalist id={`${base}-backends`}>
        {BACKENDS.map((b) => (
          <option key={b} value={b} />
        ))}
      </datalist>
      <datalist id={`${base}-models`}>
        {models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <div className="settings-actions">
        <button type="submit" disabled={busy || pending === 0}>
          Save
        </button>
        {pending > 0 && (
          <button type="button" onClick={() => setChanged({})}>
            Undo changes
          </button>
        )}
        <OutcomeNotice outcome={outcome} />
      </div>
    </form>
  );
}

type InputProps = { id: string; list: string | undefined; field: Field; value: Entered; source: string | undefined; edited: boolean; onChange: (v: Entered) => void };

function FieldInput({ id, list, field, value, source, edited, onChange }: InputProps) {
  const note = [field.hint, edited ? 'changed, not saved' : sourceText(source)].filter(Boolean).join(' · ');
  if (field.kind === 'boolean') {
    return (
      <div className="settings-field settings-flag">
        <label htmlFor={id}>
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {field.label}
        </label>
        <span className="meta" id={`${id}-note`}>
          {note}
        </span>
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="settings-field">
      <label htmlFor={id}>{field.label}</label>
      {field.kind === 'choice' ? (
        <select id={id} value={text} aria-describedby={`${id}-note`} onChange={(e) => onChange(e.target.value)}>
          {[...new Set([...(field.choices ?? []), text])].map((c) => (
            <option key={c} value={c}>
              {c === '' ? '(none)' : c}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          // numbers as text: a wrong entry reaches the server, whose message says what is wrong
          inputMode={field.kind === 'text' ? undefined : 'decimal'}
          value={text}
          list={list}
          aria-describedby={`${id}-note`}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <span className="meta" id={`${id}-note`}>
        {note}
      </span>
    </div>
  );
}

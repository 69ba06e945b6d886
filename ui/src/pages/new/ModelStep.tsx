import { useId } from 'react';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import type { Draft } from './draft.ts';
import { Field } from './Field.tsx';
import type { ModelCatalogue } from './types.ts';

type Props = { draft: Draft; onChange: (change: Partial<Draft>) => void };

/** More models than this (a price table's) are offered by typing, not as a list of choices. */
const MAX_LISTED = 30;

type ProviderChoice = { id: string; label: string; models: string[]; note: string };

/** The providers a run can use here, each with the models known for it (GET /api/models). */
function providerChoices(c: ModelCatalogue): ProviderChoice[] {
  const local: ProviderChoice = c.local.reachable
    ? { id: 'localllm', label: 'local model daemon', models: c.local.models.map((m) => m.name), note: `${c.local.models.length} models at ${c.local.url}` }
    : { id: 'localllm', label: 'local model daemon', models: [], note: `not reachable at ${c.local.url}: ${c.local.error}` };
  const hosted = c.providers.map((p) => ({ id: p.id, label: p.id, models: p.models, note: `key ${p.key_variable} set; models from the ${p.models_from}` }));
  const compatible: ProviderChoice[] = c.openai_compatible.base_url
    ? [{ id: 'openai-compatible', label: 'OpenAI-compatible server', models: [], note: `at ${c.openai_compatible.base_url}${c.openai_compatible.key_present ? ', key set' : ''}` }]
    : [];
  return [local, ...hosted, ...compatible];
}

/** The provider and model of the run; left as configured, the run role's choice applies. */
export function ModelStep({ draft, onChange }: Props) {
  const catalogue = useApi<ModelCatalogue>('/api/models');
  const listId = useId();
  if (catalogue.error) return <ErrorMessage message={catalogue.error} retry={catalogue.reload} />;
  if (!catalogue.data) return <Loading what="the models" />;
  const run = catalogue.data.roles.find((r) => r.role === 'run');
  const choices = providerChoices(catalogue.data);
  const provider = choices.find((p) => p.id === draft.provider);
  const known = provider?.models ?? [];
  return (
    <div className="new-form">
      {run && (
        <p className="meta">
          Configured: <strong>{run.backend}</strong> / <strong>{run.model}</strong> ({run.why}).
        </p>
      )}
      <Field label="Provider" help={provider?.note}>
        {(control) => (
          <select {...control} value={draft.provider} onChange={(e) => onChange({ provider: e.target.value, model: '' })}>
            <option value="">as configured{run ? ` (${run.backend})` : ''}</option>
            {choices.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {known.length > 0 && known.length <= MAX_LISTED && (
        <fieldset className="new-models">
          <legend>Models of {provider?.label}</legend>
          {known.map((m) => (
            <label key={m} className="new-choice">
              <input type="radio" name="model" value={m} checked={draft.model === m} onChange={() => onChange({ model: m })} />
              {m}
            </label>
          ))}
        </fieldset>
      )}
      <Field label="Model" help={modelHelp(known.length)}>
        {(control) => (
          <>
            <input {...control} list={listId} value={draft.model} placeholder={run ? `as configured (${run.model})` : 'as configured'} onChange={(e) => onChange({ model: e.target.value })} />
            <datalist id={listId}>
              {known.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </>
        )}
      </Field>
    </div>
  );
}

function modelHelp(known: number): string {
  if (known === 0) return 'type the model id the provider serves';
  return known <= MAX_LISTED ? 'pick one above or type another id' : `type to search its ${known} models`;
}

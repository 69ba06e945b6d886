import { useState } from 'react';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { href, type Route } from '../../route.ts';
import { useApi } from '../../use-api.ts';
import { ContainerSection } from './ContainerSection.tsx';
import { HealthSection } from './HealthSection.tsx';
import { KeysSection } from './KeysSection.tsx';
import { MemorySection } from './MemorySection.tsx';
import { ModelsSection } from './ModelsSection.tsx';
import { ProfilesSection } from './ProfilesSection.tsx';
import { ReviewSection } from './ReviewSection.tsx';
import { SlurmSection } from './SlurmSection.tsx';
import { SshSection } from './SshSection.tsx';
import type { SettingsView } from './types.ts';
import './settings.css';

const SECTIONS = [
  { id: 'models', label: 'Models' },
  { id: 'keys', label: 'API keys' },
  { id: 'memory', label: 'Memory' },
  { id: 'slurm', label: 'Slurm' },
  { id: 'container', label: 'Container' },
  { id: 'ssh', label: 'SSH' },
  { id: 'profiles', label: 'Profiles' },
  { id: 'review', label: 'Review' },
  { id: 'health', label: 'Health' },
];

/** Settings in sections, each a tab with its own address: `#/settings/<section>`. */
export function SettingsPage({ route }: { route: Route }) {
  const settings = useApi<SettingsView>('/api/settings');
  // a save answers with the whole view; it is shown until the next load
  const [saved, setSaved] = useState<SettingsView | null>(null);
  const view = saved ?? settings.data;
  const current = SECTIONS.find((s) => s.id === route.parts[0])?.id ?? 'models';
  const props = { view: view as SettingsView, onSaved: setSaved };
  let body;
  if (current === 'keys') body = <KeysSection />;
  else if (current === 'health') body = <HealthSection />;
  else if (settings.error) body = <ErrorMessage message={settings.error} retry={settings.reload} />;
  else if (!view) body = <Loading what="the settings" />;
  else if (current === 'memory') body = <MemorySection {...props} />;
  else if (current === 'slurm') body = <SlurmSection {...props} />;
  else if (current === 'container') body = <ContainerSection {...props} />;
  else if (current === 'ssh') body = <SshSection {...props} />;
  else if (current === 'profiles') body = <ProfilesSection {...props} />;
  else if (current === 'review') body = <ReviewSection {...props} />;
  else body = <ModelsSection {...props} />;
  return (
    <section className="page settings">
      <h1>Settings</h1>
      <p className="meta">Saved to the workspace's settings.json; API keys to the project's .env. A value saved here wins over the environment and the workflow.</p>
      <Tabs tabs={SECTIONS} current={current} onSelect={(id) => (location.hash = href('settings', id))} label="Settings sections">
        <div className="settings-section">{body}</div>
      </Tabs>
    </section>
  );
}

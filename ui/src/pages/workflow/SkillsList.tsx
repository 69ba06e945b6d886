import { useState } from 'react';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import type { SkillDetail, SkillSummary } from './types.ts';

type Props = {
  skills: SkillSummary[];
  /** a skill's enabled state once saved (drafts included) */
  enabled: (skill: SkillSummary) => boolean;
  onEnabled: (name: string, on: boolean) => void;
  /** the tools a skill will have switched off once saved, or undefined when not edited */
  toolsOff: (name: string) => Set<string> | undefined;
  onToolsOff: (name: string, off: Set<string>) => void;
};

/** Every skill of the workflow with its switch, and its tools' switches on demand. */
export function SkillsList({ skills, enabled, onEnabled, toolsOff, onToolsOff }: Props) {
  return (
    <ul className="workflow-skills">
      {skills.map((s) => (
        <li key={s.name} data-skill={s.name}>
          <label className="workflow-check">
            <input type="checkbox" checked={enabled(s)} onChange={(e) => onEnabled(s.name, e.target.checked)} />
            <strong>{s.name}</strong>
          </label>
          <span className="meta">
            {' '}
            {s.phases.join(', ')} · {s.builtin ? 'built in' : s.path}
            {s.tool_count !== null && ` · ${s.tool_count} tools`}
          </span>
          {s.description && <p className="workflow-skill-text">{s.description}</p>}
          {s.problem && <p className="notice error">{s.problem}</p>}
          {s.tool_count !== null && s.tool_count > 0 && <SkillTools name={s.name} off={toolsOff(s.name)} onOff={(off) => onToolsOff(s.name, off)} />}
        </li>
      ))}
    </ul>
  );
}

/** A fold with the skill's tools; they are fetched when it is first opened. */
function SkillTools({ name, off, onOff }: { name: string; off: Set<string> | undefined; onOff: (off: Set<string>) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Tools of {name}</summary>
      {open && <ToolSwitches name={name} off={off} onOff={onOff} />}
    </details>
  );
}

function ToolSwitches({ name, off, onOff }: { name: string; off: Set<string> | undefined; onOff: (off: Set<string>) => void }) {
  const skill = useApi<SkillDetail>(`/api/skill/${encodeURIComponent(name)}`);
  if (skill.error) return <ErrorMessage message={skill.error} retry={skill.reload} />;
  if (!skill.data) return <Loading what={`the tools of ${name}`} />;
  const tools = skill.data.tools;
  const current = off ?? new Set(tools.filter((t) => t.disabled).map((t) => t.name));
  const toggle = (tool: string, on: boolean) => {
    const next = new Set(current);
    if (on) next.delete(tool);
    else next.add(tool);
    onOff(next);
  };
  return (
    <ul className="workflow-tools">
      {tools.map((t) => (
        <li key={t.name}>
          <label className="workflow-check">
            <input type="checkbox" checked={!current.has(t.name)} onChange={(e) => toggle(t.name, e.target.checked)} />
            <code>{t.name}</code>
          </label>
          <span className="meta workflow-tool-text">{firstSentence(t.description)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Tool descriptions run long; the list shows their first sentence. */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

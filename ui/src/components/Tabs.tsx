import { type KeyboardEvent, type ReactNode, useId } from 'react';

export type Tab = { id: string; label: string };

type Props = { tabs: Tab[]; current: string; onSelect: (id: string) => void; label: string; children: ReactNode };

/** A tab list with one panel (the current tab's); arrow keys move between tabs. */
export function Tabs({ tabs, current, onSelect, label, children }: Props) {
  const base = useId();
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const i = tabs.findIndex((t) => t.id === current);
    const next = tabs[(i + step + tabs.length) % tabs.length];
    if (next) {
      onSelect(next.id);
      document.getElementById(`${base}-${next.id}`)?.focus();
    }
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} onKeyDown={onKey}>
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`${base}-${t.id}`}
            type="button"
            role="tab"
            aria-selected={t.id === current}
            aria-controls={`${base}-panel`}
            tabIndex={t.id === current ? 0 : -1}
            onClick={() => onSelect(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${current}`} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}

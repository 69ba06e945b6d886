type Props = { steps: readonly string[]; current: number; onSelect: (i: number) => void };

/** Where the wizard is: every step by name, the current one marked; any step can be opened. */
export function StepIndicator({ steps, current, onSelect }: Props) {
  return (
    <nav aria-label="Wizard steps">
      <ol className="new-steps">
        {steps.map((name, i) => (
          <li key={name} className={i < current ? 'new-done' : undefined}>
            <button type="button" aria-current={i === current ? 'step' : undefined} onClick={() => onSelect(i)}>
              <span className="new-step-number">{i + 1}</span> {name}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

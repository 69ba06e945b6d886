import { type ReactNode, useId } from 'react';

type Control = { id: string; 'aria-describedby'?: string };

type Props = { label: string; help?: ReactNode; children: (control: Control) => ReactNode };

/** A labelled form control with its help below: the help describes the control, it is not part of its name. */
export function Field({ label, help, children }: Props) {
  const id = useId();
  const helpId = `${id}-help`;
  return (
    <div className="new-field">
      <label htmlFor={id}>{label}</label>
      {children(help ? { id, 'aria-describedby': helpId } : { id })}
      {help && (
        <span id={helpId} className="meta">
          {help}
        </span>
      )}
    </div>
  );
}

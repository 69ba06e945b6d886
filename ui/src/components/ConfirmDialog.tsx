import { type ReactNode, useEffect, useRef } from 'react';

type Props = { title: string; children: ReactNode; confirm: string; onConfirm: () => void; onCancel: () => void };

/** A modal question (the browser's <dialog>: focus stays inside, Escape cancels). */
export function ConfirmDialog({ title, children, confirm, onConfirm, onCancel }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} className="confirm" aria-labelledby="confirm-title" onCancel={onCancel}>
      <h2 id="confirm-title">{title}</h2>
      <div>{children}</div>
      <div className="actions">
        <button type="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          {confirm}
        </button>
      </div>
    </dialog>
  );
}

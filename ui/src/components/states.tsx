import type { ReactNode } from 'react';

/** Shown while the first answer of a page is on its way. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="state loading" role="status">
      Loading {what}…
    </p>
  );
}

/** Shown when an answer has nothing to list: says what is missing and how to get some. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** The API's `{error}` message, as it gave it. */
export function ErrorMessage({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div className="state error" role="alert">
      <p>{message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

import type { ReactNode } from 'react';

/** One row of a `dl.facts`. */
export function Fact({ name, value }: { name: string; value: ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}


import { href, type Route } from '../../route.ts';
import './benchmark.css';
import { JobPage } from './JobPage.tsx';
import { JobsSection } from './JobsSection.tsx';
import { PapersSection } from './PapersSection.tsx';
import { RunSection } from './RunSection.tsx';

const SECTIONS = [
  { id: 'papers', label: 'Papers' },
  { id: 'run', label: 'Run' },
  { id: 'jobs', label: 'Jobs' },
] as const;

/**
 * The reproducibility benchmark: `#/benchmark/papers[/<paper_id>]` the paper registry (a paper id
 * opens its metadata form), `#/benchmark/run` the run form, `#/benchmark/jobs[/<job_id>]` the jobs.
 */
export function BenchmarkPage({ route }: { route: Route }) {
  const [section = 'papers', id] = route.parts;
  let body;
  if (section === 'run') body = <RunSection />;
  else if (section === 'jobs') body = id ? <JobPage jobId={id} /> : <JobsSection />;
  else if (section === 'papers') body = <PapersSection editing={id ?? null} />;
  else
    body = (
      <p className="state empty">
        There is no section “{section}” of the benchmark. <a href={href('benchmark', 'papers')}>Go to the papers</a>.
      </p>
    );
  return (
    <section className="page bench">
      <h1>Benchmark</h1>
      <nav className="bench-sections" aria-label="Benchmark sections">
        {/* 'true', not 'page': the page is Benchmark, the navigation's current link; a section is a part of it */}
        {SECTIONS.map((s) => (
          <a key={s.id} href={href('benchmark', s.id)} aria-current={s.id === section ? 'true' : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
      {body}
    </section>
  );
}

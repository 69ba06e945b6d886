import { fileHref, rawFileUrl } from '../urls.ts';

/** The run's images (the figures the paper draws on), each linked to its place in Files. */
export function Figures({ id, paths }: { id: string; paths: string[] }) {
  return (
    <section className="card results-figures-card" aria-labelledby="results-figures-title">
      <h2 id="results-figures-title">Figures ({paths.length})</h2>
      {paths.length === 0 ? (
        <p className="meta">No images in this run yet: the paper phase's generate_figures stage draws them.</p>
      ) : (
        <ul className="results-figures">
          {paths.map((p) => (
            <li key={p}>
              <figure>
                <img src={rawFileUrl(id, p)} alt={`Figure ${p}`} loading="lazy" />
                <figcaption>
                  <a href={fileHref(id, p)}>{p}</a>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

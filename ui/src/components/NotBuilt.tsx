/** A page of the dashboard that does not exist yet: says so, and where the terminal does the same. */
export function NotBuilt({ title, instead }: { title: string; instead: string }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <div className="state empty">
        <h2>This page is not built yet.</h2>
        <p>{instead}</p>
      </div>
    </section>
  );
}

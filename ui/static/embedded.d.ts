// A file imported `with { type: 'file' }` is its path (inside the compiled binary: under /$bunfs).
declare module '*.svg' {
  const path: string;
  export default path;
}

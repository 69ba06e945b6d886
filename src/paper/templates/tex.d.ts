/** Venue templates, embedded in the binary as text (`import x from './neurips.tex' with { type: 'text' }`). */
declare module '*.tex' {
  const text: string;
  export default text;
}

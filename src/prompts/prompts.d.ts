// Prompt templates are imported `with { type: 'text' }`: Bun gives their content, embedded in the binary.
declare module '*.md' {
  const text: string;
  export default text;
}

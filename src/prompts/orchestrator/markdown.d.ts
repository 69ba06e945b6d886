// Prompt templates imported `with { type: 'text' }`: Bun gives their text (embedded in the binary).
declare module '*.md' {
  const text: string;
  export default text;
}

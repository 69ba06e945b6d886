// Files imported `with { type: 'file' }`: Bun gives their path (inside the compiled binary, an
// embedded path that Bun.file reads).
declare module '*.wasm' {
  const path: string;
  export default path;
}
declare module '*.ttf' {
  const path: string;
  export default path;
}

/** License texts embedded as text (`import x from './MIT.txt' with { type: 'text' }`). */
declare module '*.txt' {
  const text: string;
  export default text;
}

/** `s` as one single-quoted word of sh, bash or zsh. */
export const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The key a script looks a command up by: its path joined by spaces, '' for svc itself. */
export const pathKey = (path: string[]) => path.join(' ');

/** Prompt templates compiled into the binary, by name (`<group>/<name>`). */
export const BUNDLED_PROMPTS: Readonly<Record<string, string>> = {};

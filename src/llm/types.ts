import type { Backend, ModelRole } from './route.ts';

/** A tool call as the model made it; `args` is the parsed arguments (the raw text when they were not JSON). */
export type ToolCall = { id: string; name: string; args: unknown };

/** A picture shown to a vision model: the bytes of a PNG or JPEG file. */
export type ImagePart = { type: 'image'; mediaType: 'image/png' | 'image/jpeg'; data: Uint8Array };

/** What a user says: text, or text and pictures in the order the model is to read them. */
export type UserContent = string | ({ type: 'text'; text: string } | ImagePart)[];

/** One message of a conversation, independent of any provider's wire format. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: UserContent }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool the model may call; `parameters` is a JSON Schema object. */
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };

/** Where a call belongs in the cost ledger. */
export type CallMeta = { phase?: string; skill?: string; node_id?: string; component?: string; op?: string };

export type CompletionRequest = {
  role: ModelRole;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  toolChoice?: 'auto' | 'required' | 'none';
  temperature?: number;
  /** asks the backend for reproducible sampling (OpenAI's `seed`); left out of the request when absent */
  seed?: number;
  maxOutputTokens?: number;
  meta?: CallMeta;
  signal?: AbortSignal;
};

export type Usage = { promptTokens: number; completionTokens: number; totalTokens: number };

export type Completion = {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** stop, length, content-filter, tool-calls, error, other */
  finishReason: string;
  model: string;
  backend: Backend;
  costUsd: number;
};

/** What the cassette keeps of an answer: everything but the price, which depends on the price table. */
export type RecordedCompletion = Omit<Completion, 'costUsd'>;

import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type { ModelChoice } from './route.ts';
import type { ChatMessage, CompletionRequest, RecordedCompletion, ToolSpec } from './types.ts';

/**
 * One request through the SDK, no retries (the caller's loop retries), no tool execution (the
 * caller runs the tools the model asks for). The SDK's warnings stay off: a skill server's
 * stdout and stderr are not the place for them.
 */
export async function sdkComplete(model: LanguageModel, choice: ModelChoice, req: CompletionRequest, signal: AbortSignal): Promise<RecordedCompletion> {
  const { generateText, jsonSchema, tool } = await import('ai');
  globalThis.AI_SDK_LOG_WARNINGS = false;
  const tools: ToolSet | undefined = req.tools?.length ? Object.fromEntries(req.tools.map((t: ToolSpec) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.parameters) })])) : undefined;
  const result = await generateText({
    model,
    messages: req.messages.map(toModelMessage),
    allowSystemInMessages: true,
    tools,
    toolChoice: tools ? req.toolChoice : undefined,
    temperature: req.temperature,
    seed: req.seed,
    maxOutputTokens: req.maxOutputTokens,
    maxRetries: 0,
    abortSignal: signal,
  });
  const prompt = result.usage.inputTokens ?? 0;
  const completion = result.usage.outputTokens ?? 0;
  return {
    text: result.text,
    toolCalls: result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, args: c.input })),
    usage: { promptTokens: prompt, completionTokens: completion, totalTokens: result.usage.totalTokens ?? prompt + completion },
    finishReason: result.finishReason,
    model: choice.model,
    backend: choice.backend,
  };
}

function toModelMessage(m: ChatMessage): ModelMessage {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      if (typeof m.content === 'string') return { role: 'user', content: m.content };
      // every provider adapter turns an image file part into its own form (image_url, an image block)
      return { role: 'user', content: m.content.map((p) => (p.type === 'text' ? p : { type: 'file' as const, data: p.data, mediaType: p.mediaType })) };
    case 'assistant':
      if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: [
          ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
          ...m.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.args })),
        ],
      };
    case 'tool':
      return { role: 'tool', content: [{ type: 'tool-result', toolCallId: m.toolCallId, toolName: m.name, output: { type: 'text', value: m.content } }] };
  }
}

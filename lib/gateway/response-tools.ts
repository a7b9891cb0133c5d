// The client's own function tools as the Responses API carries them: `tools` ({ type: "function", name, … }) and
// `tool_choice`, the input's `function_call` items (an assistant's calls, joined to the assistant message before
// them as chat completions carry them) and `function_call_output` items (the client's results), and the reply's
// calls as `function_call` output items. The turn side is chat completions' (client-tools.ts).

import "server-only";
import { z } from "zod";
import {
  type ClientToolCall,
  type ClientToolOffer,
  functionFields,
  functionToolType,
  type IndexedMessage,
  type ToolName,
  toolOffer,
} from "./client-tools";
import { invalidField } from "./errors";

export const responsesToolSchema = z.object({ type: functionToolType, ...functionFields }).loose();

export const responsesToolChoiceSchema = z.union(
  [z.enum(["none", "auto", "required"]), z.object({ type: z.literal("function"), name: z.string() }).loose()],
  { error: 'must be "none", "auto", "required" or {"type": "function", "name": …}' },
);

const functionCallItem = z
  .object({
    type: z.literal("function_call"),
    call_id: z.string({ error: "must be the call's id" }).min(1, { error: "must not be empty" }),
    name: z.string({ error: "must be the function's name" }),
    arguments: z.string({ error: "must be the arguments as a JSON string" }),
  })
  .loose();

const functionCallOutputItem = z
  .object({
    type: z.literal("function_call_output"),
    call_id: z.string({ error: "must be the call's id" }).min(1, { error: "must not be empty" }),
    output: z.union(
      [z.string(), z.array(z.object({ type: z.literal("input_text"), text: z.string() }).loose())],
      { error: "must be text or a list of input_text parts" },
    ),
  })
  .loose();

/** `tools` and `tool_choice`, checked: names once each, a named choice among them. */
export function responsesToolOffer(
  tools: z.infer<typeof responsesToolSchema>[] | null | undefined,
  choice: z.infer<typeof responsesToolChoiceSchema> | undefined,
): { offer: ClientToolOffer | undefined; names: ToolName[] } {
  const list = tools ?? [];
  const names = list.map((entry, index) => ({ name: entry.name, param: `tools[${index}].name` }));
  const seen = new Set<string>();
  for (const { name, param } of names) {
    if (seen.has(name)) throw invalidField(param, `${name} is named twice.`);
    seen.add(name);
  }
  if (typeof choice === "object" && !seen.has(choice.name)) {
    throw invalidField("tool_choice.name", `${choice.name} is not one of the request's tools.`);
  }
  if (choice === "required" && list.length === 0) {
    throw invalidField("tool_choice", '"required" needs tools: send some, or leave tool_choice out.');
  }
  return { offer: toolOffer(list, typeof choice === "object" ? { name: choice.name } : choice), names };
}

/** Whether an input item is one of the tool items read here. */
export function isToolItem(item: { type?: string }): boolean {
  return item.type === "function_call" || item.type === "function_call_output";
}

/** A function_call item joins the assistant message before it (or starts one); an output is a tool message. */
export function addToolItem(conversation: IndexedMessage[], item: unknown, index: number): void {
  const where = `input[${index}]`;
  const parsed = z.union([functionCallItem, functionCallOutputItem]).safeParse(item);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `${where}.${issue.path.join(".")}` : where;
    throw invalidField(field, issue?.message ?? "is not a function call or its output.");
  }
  const value = parsed.data;
  if (value.type === "function_call_output") {
    const text =
      typeof value.output === "string" ? value.output : value.output.map((part) => part.text).join("\n");
    conversation.push({ role: "tool", text, index, toolCallId: value.call_id });
    return;
  }
  const call: ClientToolCall = { id: value.call_id, name: value.name, arguments: value.arguments };
  const last = conversation.at(-1);
  if (last?.role === "assistant") last.toolCalls = [...(last.toolCalls ?? []), call];
  else conversation.push({ role: "assistant", text: "", index, toolCalls: [call] });
}

/** A reply's call as a Responses output item. */
export function functionCallItemOf(call: ClientToolCall, status: "in_progress" | "completed") {
  return {
    type: "function_call",
    id: `fc_${call.id}`,
    call_id: call.id,
    name: call.name,
    arguments: status === "completed" ? call.arguments : "",
    status,
  };
}

// Drives Conduit's simulator with the official openai client: its strict stream accumulator
// (finalChatCompletion) throws on any deviation from OpenAI's wire format. Prints one JSON line of results.
import OpenAI from "openai";

const baseURL = process.argv[2];
const client = new OpenAI({ baseURL, apiKey: "not-needed" });
const tools = [
  { type: "function", function: { name: "get_current_time", description: "time", parameters: { type: "object", properties: { timezone: { type: "string" } } } } },
  { type: "function", function: { name: "recall", description: "recall", parameters: { type: "object", properties: { key: { type: "string" } } } } },
];

const text = await client.chat.completions
  .stream({ model: "conduit-simulator", messages: [{ role: "user", content: "hello from npm" }] })
  .finalChatCompletion();

const calls = await client.chat.completions
  .stream({ model: "conduit-simulator", messages: [{ role: "user", content: "plan my week" }], tools })
  .finalChatCompletion();

let usage = null, chunks = 0, content = "";
const raw = await client.chat.completions.create({
  model: "conduit-simulator", stream: true, stream_options: { include_usage: true },
  messages: [{ role: "user", content: "hello usage" }],
});
for await (const chunk of raw) {
  chunks++;
  if (chunk.usage) usage = chunk.usage;
  for (const c of chunk.choices) content += c.delta?.content ?? "";
}

const plain = await client.chat.completions.create({ model: "conduit-simulator", messages: [{ role: "user", content: "hi" }] });

console.log(JSON.stringify({
  text: text.choices[0].message.content,
  textFinish: text.choices[0].finish_reason,
  toolCalls: calls.choices[0].message.tool_calls.map((c) => ({ id: c.id, type: c.type, name: c.function.name, arguments: JSON.parse(c.function.arguments) })),
  toolFinish: calls.choices[0].finish_reason,
  usage, chunks, content,
  plain: plain.choices[0].message.content,
}));

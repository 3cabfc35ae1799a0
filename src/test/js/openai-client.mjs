// Drives Conduit's simulator with the official openai npm client. Its strict stream accumulator
// (stream().finalChatCompletion()) throws on any deviation from OpenAI's wire format: a missing role,
// finish_reason or tool-call type, a changed tool-call id. Prints one JSON line of results; any exception
// exits non-zero. Usage: node src/test/js/openai-client.mjs http://localhost:8081/simulator/v1
import OpenAI from "openai";

const baseURL = process.argv[2];
if (!baseURL) {
  console.error("usage: node openai-client.mjs <base URL, e.g. http://localhost:8081/simulator/v1>");
  process.exit(2);
}
const client = new OpenAI({ baseURL, apiKey: "x", maxRetries: 0 });
const model = "conduit-simulator";
const tools = [
  { type: "function", function: { name: "get_current_time", description: "the time", parameters: { type: "object", properties: { timezone: { type: "string" } } } } },
  { type: "function", function: { name: "recall", description: "a memory", parameters: { type: "object", properties: { key: { type: "string" } } } } },
];

async function main() {
  const text = await client.chat.completions
    .stream({ model, messages: [{ role: "user", content: "hello from npm" }] })
    .finalChatCompletion();

  const calls = await client.chat.completions
    .stream({ model, messages: [{ role: "user", content: "plan my week" }], tools })
    .finalChatCompletion();

  let usage = null, chunks = 0, content = "";
  const raw = await client.chat.completions.create({
    model, stream: true, stream_options: { include_usage: true },
    messages: [{ role: "user", content: "hello usage" }],
  });
  for await (const chunk of raw) {
    chunks++;
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) content += c.delta?.content ?? "";
  }

  let error = null;
  try {
    await client.chat.completions.create({ model, messages: [] });
  } catch (e) {
    if (!(e instanceof OpenAI.APIError)) throw e;
    error = { status: e.status, code: e.code, type: e.type, message: e.message };
  }

  const message = calls.choices[0].message;
  return {
    text: text.choices[0].message.content,
    textRole: text.choices[0].message.role,
    textFinish: text.choices[0].finish_reason,
    toolCalls: message.tool_calls.map((c) => ({ id: c.id, type: c.type, name: c.function.name, arguments: JSON.parse(c.function.arguments) })),
    toolFinish: calls.choices[0].finish_reason,
    usage, chunks, content, error,
  };
}

try {
  console.log(JSON.stringify(await main()));
} catch (e) {
  console.error(e?.stack ?? String(e));
  process.exit(1);
}

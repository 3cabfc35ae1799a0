// Drives Conduit's OpenAI-compatible front door (/v1) with the official openai npm client: an assistant used as a
// model, streamed through the strict accumulator (stream().finalChatCompletion(), which throws on a missing role or
// finish_reason) and not streamed; a conversation id that keeps memory in a thread; the model list; an unknown
// model. Prints one JSON line of results; any unexpected exception exits non-zero.
// Usage: node src/test/js/openai-assistant.mjs http://localhost:8081/v1 <conversation id>
import OpenAI from "openai";

const [baseURL, conversation] = process.argv.slice(2);
if (!baseURL || !conversation) {
  console.error("usage: node openai-assistant.mjs <base URL, e.g. http://localhost:8081/v1> <conversation id>");
  process.exit(2);
}
const client = new OpenAI({ baseURL, apiKey: "unused", maxRetries: 0 });
const model = "agent";

async function raw(params, options) {
  const chunks = [];
  const stream = await client.chat.completions.create({ ...params, stream: true }, options);
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function main() {
  const models = (await client.models.list()).data.map((m) => m.id);

  const streamed = await client.chat.completions
    .stream({ model, messages: [{ role: "user", content: "hello from the front door" }] })
    .finalChatCompletion();

  const whole = await client.chat.completions.create({ model, messages: [{ role: "user", content: "hello, not streamed" }] });

  // a server tool runs inside the assistant: the client must see its answer, never a tool call to execute
  const toolChunks = await raw({ model, messages: [{ role: "user", content: "what time is it" }], stream_options: { include_usage: true } });

  // one conversation, two calls: by `user`, then by the header (the same thread)
  const first = await client.chat.completions.create({ model, user: conversation, messages: [{ role: "user", content: "my name is Ada Lovelace" }] });
  const second = await client.chat.completions
    .stream({
      model, stream_options: { include_usage: true },
      messages: [
        { role: "user", content: "this earlier message is not read" },
        { role: "user", content: "do you remember me" },
      ],
    }, { headers: { "X-Conduit-Thread": conversation } })
    .finalChatCompletion();

  let notFound = null;
  try {
    await client.chat.completions.create({ model: "no-such-assistant", messages: [{ role: "user", content: "hi" }] });
  } catch (e) {
    if (!(e instanceof OpenAI.APIError)) throw e;
    notFound = { status: e.status, code: e.code, type: e.type, param: e.param, message: e.message };
  }

  const answer = (c) => ({ id: c.id, object: c.object, model: c.model, content: c.choices[0].message.content, role: c.choices[0].message.role,
    toolCalls: c.choices[0].message.tool_calls ?? null, finish: c.choices[0].finish_reason, usage: c.usage ?? null });
  return {
    models,
    streamed: answer(streamed),
    whole: answer(whole),
    toolChunks,
    first: answer(first),
    second: answer(second),
    notFound,
  };
}

try {
  console.log(JSON.stringify(await main()));
} catch (e) {
  console.error(e?.stack ?? String(e));
  process.exit(1);
}

// Threads made through the API get a title (metadata.title, what the chat page lists them by) from their first human
// message, through the official LangGraph SDK (@langchain/langgraph-sdk) as an app or agent-chat-ui uses it: a run on
// a new thread, a run that creates its thread, a long message cut short, a client's own title kept (set at creation or
// set later), a later message not renaming the thread, a thread with no human message left untitled; and search
// returns values.messages[0], which agent-chat-ui names its history entries by.
// Usage: node src/test/js/thread-titles-sdk.mjs <baseUrl> [SDK package name]. Any failed check exits 1 with
// "FAILED ..."; success prints one JSON line.
import { check, checkCount } from "./checks.mjs";

const [baseUrl, pkg = "@langchain/langgraph-sdk"] = process.argv.slice(2);
const { Client } = await import(pkg);
const client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });
const tag = Math.random().toString(36).slice(2);
const human = (content) => ({ messages: [{ role: "user", content }] });
const title = async (threadId) => (await client.threads.get(threadId)).metadata?.title;

// a thread made first, then its first run
const plain = await client.threads.create({ metadata: { tag } });
check((await title(plain.thread_id)) === undefined, "a new thread has no title yet", plain.metadata);
await client.runs.wait(plain.thread_id, "agent", { input: human("  Please plan\n my week  ") });
check((await title(plain.thread_id)) === "Please plan my week", "the first human message, on one line, is the title",
  await title(plain.thread_id));
await client.runs.wait(plain.thread_id, "agent", { input: human("And what about next week?") });
check((await title(plain.thread_id)) === "Please plan my week", "a later message does not rename the thread",
  await title(plain.thread_id));

// a run that creates its thread, with LangChain's message shape and content parts, and a long message
const created = crypto.randomUUID();
const long = "Explain how a run is stored, claimed by a worker, streamed to its clients and replayed after a reconnect";
await client.runs.wait(created, "agent", {
  ifNotExists: "create",
  input: { messages: [{ type: "human", content: [{ type: "text", text: long }] }] },
});
const cut = await title(created);
check(typeof cut === "string" && cut.length <= 60 && cut.endsWith("…") && long.startsWith(cut.slice(0, -1)),
  "a long message is cut to 60 characters, its start kept", cut);
check(!cut.slice(0, -1).endsWith(" ") && long[cut.length - 1] === " ", "it is cut at a word", cut);

// a client's title is its own: set at creation, or set before the first run
const named = await client.threads.create({ metadata: { tag, title: "My own name" } });
await client.runs.wait(named.thread_id, "agent", { input: human("Please plan my week") });
check((await title(named.thread_id)) === "My own name", "a title set at creation is kept", await title(named.thread_id));
const renamed = await client.threads.create({ metadata: { tag } });
await client.threads.update(renamed.thread_id, { metadata: { title: "Renamed first" } });
await client.runs.wait(renamed.thread_id, "agent", { input: human("Please plan my week") });
check((await title(renamed.thread_id)) === "Renamed first", "a title set before the first run is kept", await title(renamed.thread_id));

// a thread whose state is seeded with no human message stays untitled
const quiet = await client.threads.create({ metadata: { tag } });
await client.threads.updateState(quiet.thread_id, { values: { messages: [{ type: "ai", content: "Hello, how can I help?" }] } });
check((await title(quiet.thread_id)) === undefined, "a thread with no human message has no title", await title(quiet.thread_id));

// what a history list reads: the title, and agent-chat-ui's values.messages[0]
const found = await client.threads.search({ metadata: { tag }, limit: 10 });
const byId = Object.fromEntries(found.map((t) => [t.thread_id, t]));
check(found.length === 4, "search finds the tagged threads", found.map((t) => t.thread_id));
check(byId[plain.thread_id].metadata.title === "Please plan my week", "search returns the title", byId[plain.thread_id].metadata);
const first = byId[plain.thread_id].values?.messages?.[0];
check(first?.type === "human" && first.content.includes("Please plan"), "search returns values.messages[0], the human message", first);

console.log(JSON.stringify({ sdk: pkg, checks: checkCount() }));

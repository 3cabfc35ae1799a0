// Webhooks with LangGraph's SDK as a client uses them: client.runs.create(thread, assistant, {webhook}), joined; and a
// webhook to a host the server does not list, refused with 422 webhook_not_allowed. The receiver is the Java test's.
// Every check that fails exits non-zero with "FAILED what"; success prints one JSON line.
// Usage: node src/test/js/langgraph-sdk-webhook.mjs http://localhost:8081 http://127.0.0.1:PORT/path
import { Client } from "@langchain/langgraph-sdk";
import { check } from "./checks.mjs";

const [baseUrl, webhook] = process.argv.slice(2);
if (!baseUrl || !webhook) {
  console.error("usage: node langgraph-sdk-webhook.mjs <base URL> <webhook URL>");
  process.exit(2);
}
const client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });
const input = { messages: [{ role: "user", content: "what time is it?" }] };

const thread = await client.threads.create();
const run = await client.runs.create(thread.thread_id, "agent", { input, webhook });
check(run.kwargs?.webhook === webhook, `the run keeps its webhook in kwargs: ${JSON.stringify(run.kwargs)}`);
await client.runs.join(thread.thread_id, run.run_id);
const ended = await client.runs.get(thread.thread_id, run.run_id);
check(ended.status === "success", `the run succeeded: ${ended.status}`);

let refused;
try {
  await client.runs.create(thread.thread_id, "agent", { input, webhook: "https://hooks.not-listed.example/x" });
} catch (e) {
  refused = e;
}
check(refused?.status === 422, `a host not listed is refused with 422: ${refused}`);
const detail = refused.message ?? "";
check(detail.includes("webhook_not_allowed") || JSON.stringify(refused).includes("webhook_not_allowed"),
  `the refusal names webhook_not_allowed: ${detail}`);
console.log(JSON.stringify({ run_id: run.run_id, thread_id: thread.thread_id, refused: refused.status }));

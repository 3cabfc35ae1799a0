// The official LangGraph SDK (@langchain/langgraph-sdk) against Conduit with API keys on (conduit.auth.mode=api-key):
// the SDK sends its apiKey as x-api-key, as it does to a LangGraph deployment. The owner's client creates a thread,
// runs on it, searches and uses its store namespace; another user's client finds none of it (404, empty searches);
// a client without a key is refused (401).
// Every check that fails exits non-zero with "FAILED [step] what"; success prints one JSON line.
// Usage: node src/test/js/langgraph-sdk-auth.mjs <base URL> <owner's key> <owner's principal id> <other's key>
import { inspect } from "node:util";
import { Client } from "@langchain/langgraph-sdk";

const [baseUrl, ownerKey, owner, otherKey] = process.argv.slice(2);
if (!otherKey) {
  console.error("usage: node langgraph-sdk-auth.mjs <base URL> <owner's key> <owner's principal id> <other's key>");
  process.exit(2);
}
const options = { apiUrl: baseUrl, callerOptions: { maxRetries: 0 } };
const mine = new Client({ ...options, apiKey: ownerKey });
const theirs = new Client({ ...options, apiKey: otherKey });
const nobody = new Client({ ...options, apiKey: null }); // null: no key, not even one from the environment

let step = "start";
let checks = 0;
function check(ok, what, ...detail) {
  checks++;
  if (!ok) {
    throw new Error(`FAILED [${step}] ${what}${detail.length ? ": " + detail.map((d) => inspect(d, { depth: 5 })).join(" ") : ""}`);
  }
}
async function status(promise) {
  try {
    await promise;
    return 200;
  } catch (e) {
    return e.status ?? `not an HTTP error: ${e}`;
  }
}

try {
  step = "owner's thread and run";
  const thread = await mine.threads.create({ metadata: { purpose: "auth" } });
  check(thread.metadata.owner === owner, "the thread is the caller's", thread.metadata);
  const values = await mine.runs.wait(thread.thread_id, "agent", {
    input: { messages: [{ role: "user", content: "hello" }] },
    config: { configurable: { user_id: "somebody-else" } },
  });
  check(Array.isArray(values.messages) && values.messages.length >= 2, "the run answered", values);
  const [run] = await mine.runs.list(thread.thread_id);
  check(run.kwargs.config.configurable.user_id === owner, "the server names the run's user", run.kwargs.config.configurable);
  const found = await mine.threads.search({ metadata: { purpose: "auth" }, limit: 100 });
  check(found.some((t) => t.thread_id === thread.thread_id), "the owner finds its thread");

  step = "another user";
  check((await status(theirs.threads.get(thread.thread_id))) === 404, "another user's get is 404");
  check((await status(theirs.threads.getState(thread.thread_id))) === 404, "another user's state is 404");
  check((await status(theirs.runs.wait(thread.thread_id, "agent", { input: { messages: [{ role: "user", content: "x" }] } }))) === 404,
    "another user's run is 404");
  check((await status(theirs.threads.delete(thread.thread_id))) === 404, "another user's delete is 404");
  const theirSearch = await theirs.threads.search({ metadata: { purpose: "auth" }, limit: 100 });
  check(!theirSearch.some((t) => t.thread_id === thread.thread_id), "another user's search does not find it", theirSearch.length);

  step = "store";
  await mine.store.putItem(["users", owner, "prefs"], "color", { value: "teal" });
  const item = await mine.store.getItem(["users", owner, "prefs"], "color");
  check(item?.value?.value === "teal", "the owner reads its item", item);
  check((await status(theirs.store.getItem(["users", owner, "prefs"], "color"))) === 404, "another user's read is 404");
  const theirItems = await theirs.store.searchItems(["users"], { limit: 100 });
  check(!theirItems.items.some((i) => i.namespace.includes(owner)), "another user's search finds none of it");

  step = "no key";
  check((await status(nobody.threads.search({ limit: 1 }))) === 401, "a client without a key is refused");
  check((await status(nobody.threads.get(thread.thread_id))) === 401, "a client without a key cannot read the thread");

  step = "owner's delete";
  await mine.threads.delete(thread.thread_id);
  check((await status(mine.threads.get(thread.thread_id))) === 404, "gone");
  console.log(JSON.stringify({ ok: true, checks }));
} catch (e) {
  console.error(e.message);
  process.exit(1);
}

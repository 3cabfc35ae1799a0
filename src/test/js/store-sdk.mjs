// The long-term store through the official LangGraph SDK's client.store (@langchain/langgraph-sdk), as an app uses it:
// put, get, search with a filter and with a query, list namespaces, delete; and the SDK's own refusal of a '.' label.
// Usage: node src/test/js/store-sdk.mjs <baseUrl> [SDK package name]. Any failed check exits 1 with "FAILED ...";
// success prints one JSON line.
import { check, checkCount } from "./checks.mjs";

const [baseUrl, pkg = "@langchain/langgraph-sdk"] = process.argv.slice(2);
const { Client } = await import(pkg);
const client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });

const run = Math.random().toString(36).slice(2);
const alice = ["sdk", run, "alice", "memories"];
const bob = ["sdk", run, "bob", "memories"];

await client.store.putItem(alice, "hobby", { text: "Alice loves hiking in the mountains", kind: "fact", stars: 5 });
await client.store.putItem(alice, "job", { text: "Alice works as a nurse", kind: "fact", stars: 3 });
await client.store.putItem(alice, "wish", { text: "visit the mountains of Japan", kind: "wish", stars: 4 }, { ttl: 60 });
await client.store.putItem(bob, "hobby", { text: "Bob collects stamps", kind: "fact", stars: 2 });

const got = await client.store.getItem(alice, "hobby");
check(got && got.key === "hobby" && got.value.text === "Alice loves hiking in the mountains", "get returns the item", got);
check(JSON.stringify(got.namespace) === JSON.stringify(alice), "the item's namespace is the list of labels", got.namespace);
check(typeof got.createdAt === "string" && typeof got.updatedAt === "string" && !Number.isNaN(Date.parse(got.createdAt)),
  "createdAt and updatedAt are timestamps", got);
check((await client.store.getItem(alice, "nothing")) === null, "a missing item is null");

let found = await client.store.searchItems(["sdk", run], { filter: { kind: "fact" } });
check(found.items.length === 3 && found.items.every((i) => i.value.kind === "fact"), "search by prefix and filter", found.items);
found = await client.store.searchItems(alice, { filter: { stars: { $gte: 4 } } });
check(found.items.map((i) => i.key).sort().join() === "hobby,wish", "a filter with an operator", found.items.map((i) => i.key));
found = await client.store.searchItems(["sdk", run], { query: "mountains hiking" });
check(found.items.length === 2 && found.items[0].key === "hobby" && found.items.every((i) => i.score > 0),
  "a query ranks by relevance and leaves out what does not match", found.items.map((i) => [i.key, i.score]));
found = await client.store.searchItems(["sdk", run], { limit: 1, offset: 1 });
check(found.items.length === 1, "limit and offset page the results", found.items);

const spaces = await client.store.listNamespaces({ prefix: ["sdk", run] });
check(JSON.stringify(spaces.namespaces) === JSON.stringify([alice, bob]), "namespaces under a prefix", spaces);
const shallow = await client.store.listNamespaces({ prefix: ["sdk", run], maxDepth: 3 });
check(JSON.stringify(shallow.namespaces) === JSON.stringify([alice.slice(0, 3), bob.slice(0, 3)]), "namespaces cut to a depth", shallow);

await client.store.deleteItem(alice, "job");
check((await client.store.getItem(alice, "job")) === null, "a deleted item is gone");

let refused = null;
try {
  await client.store.putItem(["bad.label"], "k", { v: 1 });
} catch (e) {
  refused = e;
}
check(refused !== null, "the SDK refuses a label with a '.'");
console.log(JSON.stringify({ checks: checkCount() }));

// The graph drawing through the official LangGraph SDK's client.assistants.getGraph (@langchain/langgraph-sdk), as
// LangGraph Studio reads it: nodes with __start__ and __end__, edges between them (conditional for a router's), and
// with xray the tutor's quiz subgraph drawn inside its node, its node ids prefixed "test_session:".
// Usage: node src/test/js/assistant-graph-sdk.mjs <baseUrl> [SDK package name]. Any failed check exits 1 with
// "FAILED ..."; success prints one JSON line.
import { check, checkCount } from "./checks.mjs";

const [baseUrl, pkg = "@langchain/langgraph-sdk"] = process.argv.slice(2);
const { Client } = await import(pkg);
const client = new Client({ apiUrl: baseUrl, callerOptions: { maxRetries: 0 } });

const edge = (g, source, target) => g.edges.find((e) => e.source === source && e.target === target);

/** Every edge joins two of the graph's nodes, and every node but __end__ has a way on. */
function wellFormed(g, which) {
  const ids = g.nodes.map((n) => n.id);
  check(ids[0] === "__start__" && ids[ids.length - 1] === "__end__", which + ": starts at __start__, ends at __end__", ids);
  check(new Set(ids).size === ids.length, which + ": node ids are unique", ids);
  for (const e of g.edges) {
    check(ids.includes(e.source) && ids.includes(e.target), which + ": an edge joins two nodes", e);
    check(typeof e.conditional === "boolean", which + ": conditional is a boolean", e);
  }
  for (const id of ids.filter((i) => i !== "__end__")) {
    check(g.edges.some((e) => e.source === id), which + ": an edge leaves " + id, g.edges);
  }
  return ids;
}

const [tutor] = await client.assistants.search({ graphId: "tutor" });
check(tutor?.graph_id === "tutor", "assistants.search finds the tutor", tutor);

const plain = await client.assistants.getGraph(tutor.assistant_id);
const plainIds = wellFormed(plain, "tutor");
check(plainIds.includes("test_session") && !plainIds.some((i) => i.startsWith("test_session:")), "without xray the quiz is one node", plainIds);
check(edge(plain, "answer", "test_session")?.conditional === true, "the answer's router leads to the quiz", plain.edges);
check(edge(plain, "think", "answer")?.conditional === false, "think leads to answer by a plain edge", plain.edges);
check(typeof plain.mermaid === "string" && plain.mermaid.includes("test_session"), "the Mermaid drawing is still there", plain.mermaid);

const xray = await client.assistants.getGraph(tutor.assistant_id, { xray: true });
const xrayIds = wellFormed(xray, "tutor with xray");
check(!xrayIds.includes("test_session") && xrayIds.includes("test_session:judge_answer"), "xray draws the quiz's nodes", xrayIds);
check(edge(xray, "answer", "test_session:start_quiz")?.conditional === true, "the router leads into the quiz's first node", xray.edges);
check(edge(xray, "test_session:summarize", "__end__")?.conditional === false, "the quiz's last node leads to __end__", xray.edges);
check(edge(xray, "test_session:judge_answer", "test_session:present_question")?.conditional === true, "the quiz's own router", xray.edges);
check(JSON.stringify(await client.assistants.getGraph(tutor.assistant_id, { xray: 1 })) === JSON.stringify(xray),
  "xray: 1 draws the one level there is", xrayIds);
check(JSON.stringify(await client.assistants.getGraph(tutor.assistant_id, { xray: false })) === JSON.stringify(plain),
  "xray: false draws no subgraph");

const agent = await client.assistants.getGraph("agent");
wellFormed(agent, "agent");
check(edge(agent, "planner", "tool_executor")?.conditional === true && edge(agent, "tool_executor", "verifier")?.conditional === false,
  "the agent's router edges are conditional, its plain edges not", agent.edges);

let refused = null;
try {
  await client.assistants.getGraph(tutor.assistant_id, { xray: 0 });
} catch (e) {
  refused = e;
}
check(refused?.status === 422, "xray: 0 is refused, as LangGraph refuses it", String(refused));
console.log(JSON.stringify({ checks: checkCount(), nodes: plainIds.length, xrayNodes: xrayIds.length }));

// Drives Conduit's MCP server (/mcp) with the MCP TypeScript SDK's own client (@modelcontextprotocol/sdk: Client over
// StreamableHTTPClientTransport): connect (initialize, the initialized notification, the SDK's GET for a server
// stream, which the server declines with 405), ping, list the tools (each assistant), call one with a question, call
// it with bad arguments and call a tool that does not exist (both JSON-RPC errors the SDK throws as McpError).
// Prints one JSON line of results; any unexpected exception exits non-zero.
// Usage: node src/test/js/mcp-client.mjs http://localhost:8081 [api key] [tool] [question]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const [base, apiKey, toolName = "agent", question = "hello from an MCP client"] = process.argv.slice(2);
if (!base) {
  console.error("usage: node mcp-client.mjs <base URL, e.g. http://localhost:8081> [api key] [tool] [question]");
  process.exit(2);
}

const headers = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers } });
const client = new Client({ name: "conduit-test", version: "1.0.0" });

async function refusal(call) {
  try {
    const r = await call();
    return { thrown: false, result: r };
  } catch (e) {
    if (!(e instanceof McpError)) throw e;
    return { thrown: true, code: e.code, message: e.message };
  }
}

function text(result) {
  return result.content.filter((c) => c.type === "text").map((c) => c.text).join("");
}

async function main() {
  await client.connect(transport);
  const server = client.getServerVersion();
  const capabilities = client.getServerCapabilities();
  await client.ping();

  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`no tool ${toolName} among ${tools.map((t) => t.name).join(", ")}`);

  const answered = await client.callTool({ name: toolName, arguments: { input: question } });
  const badArguments = await refusal(() => client.callTool({ name: toolName, arguments: { question: 42 } }));
  const unknownTool = await refusal(() => client.callTool({ name: "no_such_assistant", arguments: { input: "hi" } }));

  await client.close();
  console.log(JSON.stringify({
    server,
    protocolVersion: transport.protocolVersion ?? null,
    sessionId: transport.sessionId ?? null,
    capabilities,
    tools: tools.map((t) => ({ name: t.name, title: t.title ?? null, description: t.description, inputSchema: t.inputSchema })),
    answer: { text: text(answered), isError: answered.isError ?? false },
    badArguments: { thrown: badArguments.thrown, code: badArguments.code ?? null, message: badArguments.message ?? null },
    unknownTool: { thrown: unknownTool.thrown, code: unknownTool.code ?? null, message: unknownTool.message ?? null },
  }));
}

main().catch((e) => {
  console.error(e?.stack ?? String(e));
  process.exit(1);
});

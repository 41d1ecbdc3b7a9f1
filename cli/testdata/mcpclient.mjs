// An MCP client of the official TypeScript SDK, for siteplan's tests:
// it connects to `siteplan mcp` over stdio (mode "stdio": the command
// and its arguments follow) or to a server's /mcp over streamable HTTP
// (mode "http": the URL follows, the token in $SITEPLAN_TOKEN), lists
// the tools, calls each with the arguments of $MCP_CALLS (a JSON object
// of tool name to arguments), reads the resource $MCP_RESOURCE if set,
// and prints what it got as one JSON object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: { ...process.env }, stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(rest[0]), {
    requestInit: { headers: { Authorization: `Bearer ${process.env.SITEPLAN_TOKEN}` } },
  });
const client = new Client({ name: "siteplan-test", version: "1.0.0" });
await client.connect(transport);
const out = { server: client.getServerVersion()?.name, tools: [], calls: {} };
const { tools } = await client.listTools();
out.tools = tools.map((t) => t.name).sort();
const calls = JSON.parse(process.env.MCP_CALLS ?? "{}");
for (const [name, args] of Object.entries(calls)) {
  const res = await client.callTool({ name, arguments: args });
  out.calls[name] = { isError: !!res.isError, text: res.content.map((c) => c.text ?? "").join("\n") };
}
if (process.env.MCP_RESOURCE) {
  const res = await client.readResource({ uri: process.env.MCP_RESOURCE });
  out.resource = res.contents[0]?.text ?? "";
}
await client.close();
process.stdout.write(JSON.stringify(out));

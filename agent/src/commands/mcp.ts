import { loadPolicy } from "../policy/loadPolicy.js";
import { EXIT_OK } from "./exitCodes.js";
import type { McpCommand } from "./mcpCommand.js";

/** Runs `McpCommand` as parsed into `command`; returns the exit code. */
export async function runMcp(command: McpCommand): Promise<number> {
  const { stdin, stdout, env } = command.context;
  const policy = loadPolicy(env);
  // Loaded here, not at the top: only `mcp` needs the SDK, and every other command starts faster without it.
  const [{ StdioServerTransport }, { createAgentMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("../mcp/createAgentMcpServer.js"),
  ]);
  const { server, closeSession } = createAgentMcpServer(policy);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport(stdin, stdout));
  // The client ending stdin is the end of the session; calls still running then are abandoned.
  stdin.once("end", () => void server.close());
  await closed;
  // Approvals still waiting are withdrawn (their reservations released); approved payments finish first.
  await closeSession();
  return EXIT_OK;
}

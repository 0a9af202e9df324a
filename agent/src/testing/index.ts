/**
 * `@svc/agent/testing`: what the end-to-end suites in `e2e/` need to drive the agent: the built CLI as a
 * child process, the CLI in-process, the TUI on a fake terminal, loopback servers, and the ledger and exit
 * codes to assert on. A test-only subpath: it points at the TypeScript sources (vitest and
 * `tsc -p tsconfig.test.json` read them), is left out of `dist/`, and product code never imports it.
 */
export {
  EXIT_APPROVAL_DENIED,
  EXIT_DECLINED,
  EXIT_FAILED,
  EXIT_HTTP_ERROR,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_UNKNOWN,
  EXIT_USAGE,
} from "../commands/exitCodes.js";
export { Ledger } from "../ledger/ledger.js";
export { AGENT_CLI } from "./builtAgent.js";
export { runAgent, startAgent, type AgentProcess } from "./runAgent.js";
export { runCliInProcess, type CliRun } from "./runCliInProcess.js";
export { renderTui, type RenderedTui } from "./renderTui.js";
export { startLossyProxy, type LossyProxy } from "./startLossyProxy.js";
export { startTestServer, type SeenRequest, type TestServer } from "./startTestServer.js";
export { makeTempDir } from "./tempDir.js";
export { waitForFrame, waitForText } from "./waitForFrame.js";

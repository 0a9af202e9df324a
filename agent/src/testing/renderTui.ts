/** The agent's TUI rendered in the test process against a fake terminal, for tests that drive it by keys. */
import { render } from "ink-testing-library";
import { createElement } from "react";

import { loadPolicy } from "../policy/loadPolicy.js";
import { App } from "../ui/components/App.js";
import { createTuiDependencies } from "../ui/tuiDependencies.js";

/** What `render` of ink-testing-library returns: `lastFrame`, `stdin`, `unmount`, ... */
export type RenderedTui = ReturnType<typeof render>;

/** Renders the TUI with the policy `env` describes (as `svc-agent` would load it), named `svc-agent`. */
export function renderTui(env: Record<string, string | undefined>): RenderedTui {
  return render(createElement(App, { dependencies: createTuiDependencies(loadPolicy(env)), binaryName: "svc-agent" }));
}

/**
 * The health of each configured RPC endpoint, and the backoff that keeps a failing one from being hammered.
 *
 * Ours rather than viem's `fallback({ rank })`: `rank` pings every endpoint with `net_listening` on a fixed
 * interval (the client's polling interval, 100 ms here) from a timer that cannot be stopped, orders endpoints by
 * those pings rather than by the failures real requests meet, and has no backoff: a down endpoint keeps being
 * pinged at the same rate forever. This tracker learns from the requests themselves (and from the readiness
 * probe), skips a failed endpoint for a doubling delay, and lets one read at a time probe it when the delay is
 * over. Writes never probe: a transaction goes only to an endpoint that last answered, while one does.
 *
 * It also records whether each endpoint's chain id was checked since it last failed: the failover transport asks
 * an unchecked endpoint for its chain id before it is used, so an endpoint that comes back serving another chain
 * (a provider's misrouted URL) never answers a read or receives a transaction.
 */

/** How long a failed endpoint is skipped: `initialMs` after the first failure, doubling per failure up to `maxMs`. */
export type RpcBackoff = { initialMs: number; maxMs: number };

/** The default backoff: a blip costs a second, a dead provider one request every half minute. */
export const DEFAULT_RPC_BACKOFF: RpcBackoff = { initialMs: 1_000, maxMs: 30_000 };

/** One endpoint as it may be shown anywhere: a label and its scheme and host, never its path or query. */
export type RpcEndpointLabel = { endpoint: string; origin: string };

/** What the tracker knows of one endpoint; `lastError` is an error name, never a message (messages quote URLs). */
export type RpcEndpointSnapshot = RpcEndpointLabel & {
  up: boolean;
  /** Failures since the endpoint last answered. */
  consecutiveFailures: number;
  /** Failed requests since start (transport failures and rate limits; a node's JSON-RPC answer is no failure). */
  errors: number;
  /** Requests that passed the endpoint by while it was backed off. */
  skips: number;
  /** Milliseconds until a read may probe it again; `null` while up. */
  retryInMs: number | null;
  lastError: string | null;
};

/** A change of an endpoint's state, for the log. */
export type RpcEndpointChange = { index: number; snapshot: RpcEndpointSnapshot };

/** The tracker the failover transport and the readiness probe share. */
export type RpcEndpointHealth = {
  size: number;
  /**
   * Whether a request should pass endpoint `index` by. A down endpoint is passed by while any endpoint is up:
   * always by a write, by a read until its delay is over (the first read after it probes, and pushes the next
   * probe a delay further, so concurrent reads do not all probe). With every endpoint down, nothing is skipped.
   */
  shouldSkip: (index: number, write: boolean) => boolean;
  /** The endpoint answered (a JSON-RPC error is an answer too). */
  succeeded: (index: number) => void;
  /** The endpoint answered `eth_chainId` with the configured chain: usable until it next fails. */
  chainChecked: (index: number) => void;
  /** Whether the endpoint's chain id was checked since it last failed. */
  isChainChecked: (index: number) => boolean;
  /** The endpoint failed (unreachable, timed out, rate limited, wrong chain); `errorName` is shown, never a message. */
  failed: (index: number, errorName: string) => void;
  snapshot: () => RpcEndpointSnapshot[];
};

type EndpointState = {
  up: boolean;
  chainChecked: boolean;
  consecutiveFailures: number;
  errors: number;
  skips: number;
  retryAt: number;
  lastError: string | null;
};

/**
 * Creates the tracker for `endpoints`, all assumed up until a request says otherwise.
 *
 * @example
 * const health = createRpcEndpointHealth({ endpoints: [{ endpoint: "rpc#0", origin: "https://a.example" }] });
 * if (!health.shouldSkip(0, false)) health.failed(0, "HttpRequestError");
 */
export function createRpcEndpointHealth(params: {
  endpoints: readonly RpcEndpointLabel[];
  backoff?: RpcBackoff | undefined;
  now?: (() => number) | undefined;
  onChange?: ((change: RpcEndpointChange) => void) | undefined;
}): RpcEndpointHealth {
  const backoff = params.backoff ?? DEFAULT_RPC_BACKOFF;
  const now = params.now ?? Date.now;
  const states: EndpointState[] = params.endpoints.map(() => ({
    up: true,
    chainChecked: false,
    consecutiveFailures: 0,
    errors: 0,
    skips: 0,
    retryAt: 0,
    lastError: null,
  }));
  const delayMs = (failures: number) => Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  const stateOf = (index: number): EndpointState => {
    const state = states[index];
    if (state === undefined) throw new RangeError(`no RPC endpoint ${index}`);
    return state;
  };
  const snapshotOf = (index: number, at: number): RpcEndpointSnapshot => {
    const state = stateOf(index);
    const label = params.endpoints[index] ?? { endpoint: `rpc#${index}`, origin: "" };
    return {
      ...label,
      up: state.up,
      consecutiveFailures: state.consecutiveFailures,
      errors: state.errors,
      skips: state.skips,
      retryInMs: state.up ? null : Math.max(0, state.retryAt - at),
      lastError: state.lastError,
    };
  };

  return {
    size: states.length,
    shouldSkip: (index, write) => {
      const state = stateOf(index);
      if (state.up || !states.some((other) => other.up)) return false;
      const at = now();
      if (write || at < state.retryAt) {
        state.skips += 1;
        return true;
      }
      state.retryAt = at + delayMs(state.consecutiveFailures);
      return false;
    },
    chainChecked: (index) => {
      stateOf(index).chainChecked = true;
    },
    isChainChecked: (index) => stateOf(index).chainChecked,
    succeeded: (index) => {
      const state = stateOf(index);
      state.consecutiveFailures = 0;
      if (state.up) return;
      state.up = true;
      state.retryAt = 0;
      params.onChange?.({ index, snapshot: snapshotOf(index, now()) });
    },
    failed: (index, errorName) => {
      const state = stateOf(index);
      const at = now();
      const wasUp = state.up;
      state.up = false;
      state.chainChecked = false;
      state.errors += 1;
      state.consecutiveFailures += 1;
      state.lastError = errorName;
      state.retryAt = at + delayMs(state.consecutiveFailures);
      if (wasUp) params.onChange?.({ index, snapshot: snapshotOf(index, at) });
    },
    snapshot: () => {
      const at = now();
      return states.map((_, index) => snapshotOf(index, at));
    },
  };
}

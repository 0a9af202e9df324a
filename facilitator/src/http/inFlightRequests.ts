import type { HttpMiddleware } from "./httpState.js";

/**
 * Counts the requests the app is serving so a graceful shutdown can wait for exactly those, rather than for
 * every open socket (an idle keep-alive connection is not work). A request counts from the moment it enters
 * the app until its response is finished or its connection closes.
 */
export class InFlightRequests {
  #count = 0;
  #draining = false;
  #waiters: (() => void)[] = [];

  /** Requests currently being served. */
  get count(): number {
    return this.#count;
  }

  /** The middleware that counts; mount it first so that even failing requests are counted. */
  readonly middleware: HttpMiddleware = async (ctx, next) => {
    this.#count += 1;
    let settled = false;
    const release = (): void => {
      if (settled) return;
      settled = true;
      this.#count -= 1;
      if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    };
    ctx.res.once("close", release);
    await next();
    // Asking the client to drop the connection keeps a draining server from taking new work on old sockets.
    if (this.#draining && !ctx.headerSent) ctx.set("Connection", "close");
  };

  /**
   * Marks the server as shutting down and resolves `true` once no request is in flight, or `false` when
   * `timeoutMs` passes first.
   */
  drain(timeoutMs: number): Promise<boolean> {
    this.#draining = true;
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== wake);
        resolve(false);
      }, timeoutMs);
      this.#waiters.push(wake);
    });
  }
}

const trackers = new WeakMap<object, InFlightRequests>();

/** Attaches `tracker` to `app` so `listenApp` can find it without widening Koa's types. */
export function attachInFlightRequests(app: object, tracker: InFlightRequests): void {
  trackers.set(app, tracker);
}

/** The tracker `createApp` attached to `app`, if any. */
export function inFlightRequestsOf(app: object): InFlightRequests | undefined {
  return trackers.get(app);
}

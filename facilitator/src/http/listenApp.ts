import { createServer, type RequestListener, type Server } from "node:http";

import { ListenError } from "./errors.js";
import { inFlightRequestsOf } from "./inFlightRequests.js";

/** Where {@link listenApp} binds. */
export type ListenAppParameters = {
  host: string;
  /** 0 lets the OS choose a free port; `address` reports the one bound. */
  port: number;
};

/** A bound server and the way to stop it. */
export type ListeningApp = {
  /** `host:port` actually bound (IPv6 hosts in brackets), for the `started` event. */
  address: string;
  server: Server;
  /**
   * Stops accepting connections, closes idle keep-alive connections, waits up to `graceMs` for requests in
   * flight, then destroys whatever is left. Calling it again returns the same promise.
   */
  close: (graceMs: number) => Promise<void>;
};

/** The part of a Koa app `listenApp` needs. */
export type ListenableApp = { callback: () => RequestListener };

/**
 * Serves `app` on `host:port` and resolves once bound (rejects with `ListenError` when binding fails). Close
 * waits for requests the app is serving, tracked by the middleware `createApp` installs, rather than for
 * sockets: an idle keep-alive connection would otherwise hold shutdown for the whole grace period.
 *
 * @example
 * const listening = await listenApp(createApp(deps), { host: "127.0.0.1", port: 4032 });
 * process.once("SIGTERM", () => void listening.close(config.daemon.shutdown_grace_ms));
 */
export async function listenApp(app: ListenableApp, { host, port }: ListenAppParameters): Promise<ListeningApp> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    const onError = (error: unknown): void => reject(new ListenError({ host, port, cause: error }));
    server.once("error", onError);
    server.listen({ host, port }, () => {
      server.off("error", onError);
      resolve();
    });
  });

  const address = boundAddress(server, host, port);
  const inFlight = inFlightRequestsOf(app);
  let closing: Promise<void> | undefined;

  const close = (graceMs: number): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight !== undefined) await inFlight.drain(graceMs);
      else await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      // Whatever is still open is either idle (its request finished) or past the grace period.
      server.closeAllConnections();
      await closed;
    })();
    return closing;
  };

  return { address, server, close };
}

/** `host:port` as bound; a TCP server always reports an object, the fallback only satisfies the type. */
function boundAddress(server: Server, host: string, port: number): string {
  const bound = server.address();
  if (bound === null || typeof bound === "string") return `${host}:${port}`;
  return bound.family === "IPv6" ? `[${bound.address}]:${bound.port}` : `${bound.address}:${bound.port}`;
}

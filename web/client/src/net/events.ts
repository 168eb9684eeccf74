// The client's one event table: every envelope the WebSocket carries, both
// ways, typed by its name. The player page, the display and the GM map send
// and receive through an EventRouter and nowhere else:
//
//   events.send("tokenMoved", m)                   // m must be ClientRequests["tokenMoved"]
//   events.request("takeSeat", {seatId}) .then(…)  // the answer is ClientReplies["takeSeat"]
//   events.on("tokenUpdated", (data) => …)         // data is ServerEvents["tokenUpdated"]
//
// The names and shapes come from the server's description of the socket
// (x-events, x-requests, x-replies in GET /api/openapi.json), generated into
// wire.gen.ts by internal/tools/tsgen: an event the server renames, drops or
// reshapes no longer type-checks here. Handlers still read their data
// defensively, since the page also talks to older servers (net/compat.ts).
import type { ClientReplies, ClientRequests, Ok, ServerEvents } from "../wire.gen";

/**
 * Events contract 6.3 names that this server does not send today (another
 * server may). The client keeps reading them; their data is whatever that
 * server sends, so it is unknown here.
 */
export interface ContractEvents {
  combatantsUpdated: unknown;
  combatantCreated: unknown;
  combatantDeleted: unknown;
  messagesUpdated: unknown;
  messageDeleted: unknown;
  pointerMoved: unknown;
  mapVideoControlUpdated: unknown;
  markerUpdated: unknown;
  markersUpdated: unknown;
  tileUpdated: unknown;
  tilesUpdated: unknown;
  lightUpdated: unknown;
  lightsUpdated: unknown;
  areaEffectUpdated: unknown;
  areaEffectsUpdated: unknown;
  measurementUpdated: unknown;
  measurementsUpdated: unknown;
  drawingsUpdated: unknown;
  markerMoved: unknown;
  tileMoved: unknown;
  areaEffectMoved: unknown;
}

/** The data of every event a page may receive, by name. */
export type InboundEvents = ServerEvents & ContractEvents;
export type EventName = keyof InboundEvents;
export type RequestName = keyof ClientRequests;

/** The answer to a request: its own shape, or {ok} for one answered with nothing else. */
export type Reply<K extends RequestName> = K extends keyof ClientReplies ? ClientReplies[K] : Ok;

type Id = string | number;

/** An envelope from the server, discriminated by its name. */
export type InboundEnvelope = {
  [K in EventName]: { name: K; data: InboundEvents[K]; requestId?: Id; responseId?: Id };
}[EventName];

/** An envelope a client sends, discriminated by its name. */
export type OutboundEnvelope = {
  [K in RequestName]: { name: K; data: ClientRequests[K]; requestId?: string };
}[RequestName];

/** An envelope as it comes off the socket: only its name is known to be a string. */
export interface RawEnvelope {
  name: string;
  data?: unknown;
  requestId?: Id;
  responseId?: Id;
}

/** Handlers by event name: one object lists everything a part of the page reads. */
export type HandlerTable = { [K in EventName]?: (data: InboundEvents[K]) => void };

/** What the router sends through: the socket, when there is one. */
export interface Transport {
  /** Sends one envelope; false when the socket is not open (nothing was sent). */
  send(env: OutboundEnvelope): boolean;
}

export interface RequestOptions {
  /** Rejects with "The server did not answer." after this long; none: waits for the answer. */
  timeoutMs?: number;
}

/** A request the server refused: its error reply's message and kind. */
export class RequestError extends Error {
  constructor(message: string, readonly kind: string, readonly request: string) {
    super(message);
    this.name = "RequestError";
  }
}

/**
 * Runs the handler a table has for name; false when it has none. The entry
 * point for an envelope whose name and data are not checked yet (tests, and
 * the router itself once it has looked the name up).
 */
export function applyTo(table: HandlerTable, name: string, data: unknown): boolean {
  const fn = (table as Record<string, ((data: unknown) => void) | undefined>)[name];
  if (!fn) return false;
  fn(data);
  return true;
}

interface Pending {
  name: string;
  resolve(data: unknown): void;
  reject(err: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

type AnyHandler = (data: unknown, env: RawEnvelope) => void;

export class EventRouter {
  private handlers = new Map<string, AnyHandler[]>();
  private everything: ((env: InboundEnvelope) => void)[] = [];
  private pending = new Map<string, Pending>();
  private nextId = 0;

  /**
   * transport: the socket to send through (null while there is none).
   * onError: a handler threw; the other handlers of the envelope still run.
   */
  constructor(
    private transport: () => Transport | null = () => null,
    private onError: (name: string, err: unknown) => void = (name, err) => console.error(name, err),
  ) {}

  /** Calls fn with each name's data, in the order handlers were added; returns a function that removes it. */
  on<K extends EventName>(name: K, fn: (data: InboundEvents[K], env: InboundEnvelope & { name: K }) => void): () => void {
    const list = this.handlers.get(name) ?? [];
    const h = fn as unknown as AnyHandler;
    list.push(h);
    this.handlers.set(name, list);
    return () => {
      const i = list.indexOf(h);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** Adds every handler of a table (a part of the page that reads many events). */
  onTable(table: HandlerTable): void {
    for (const [name, fn] of Object.entries(table) as [EventName, AnyHandler | undefined][]) {
      if (fn) this.on(name, fn as never);
    }
  }

  /** Calls fn with every envelope that is not the answer to one of our requests, after its named handlers. */
  onAny(fn: (env: InboundEnvelope) => void): void {
    this.everything.push(fn);
  }

  /** Sends an event or a request that wants no answer; false when the socket is not open. */
  send<K extends RequestName>(name: K, data: ClientRequests[K]): boolean {
    return this.transport()?.send({ name, data } as OutboundEnvelope) ?? false;
  }

  /**
   * Sends a request and resolves with the server's answer, or rejects with
   * its error (RequestError). Null when the socket is not open: nothing was
   * sent, and the caller decides whether to wait for it or give up.
   */
  request<K extends RequestName>(name: K, data: ClientRequests[K], options: RequestOptions = {}): Promise<Reply<K>> | null {
    const requestId = `r${++this.nextId}`;
    if (!this.transport()?.send({ name, data, requestId } as OutboundEnvelope)) return null;
    return new Promise<Reply<K>>((resolve, reject) => {
      const p: Pending = { name, resolve: resolve as (d: unknown) => void, reject };
      if (options.timeoutMs !== undefined) {
        p.timer = setTimeout(() => {
          this.pending.delete(requestId);
          reject(new Error("The server did not answer."));
        }, options.timeoutMs);
      }
      this.pending.set(requestId, p);
    });
  }

  /** How many requests wait for their answer. */
  get waiting(): number {
    return this.pending.size;
  }

  /**
   * One envelope from the socket. The answer to one of our requests settles
   * it and goes nowhere else; any other envelope goes to the handlers of its
   * name, then to those of onAny.
   */
  dispatch(env: RawEnvelope): void {
    if (env.responseId !== undefined && env.responseId !== null) {
      const id = String(env.responseId);
      const p = this.pending.get(id);
      if (p) {
        this.pending.delete(id);
        clearTimeout(p.timer);
        if (env.name === "error") {
          const d = env.data as { message?: unknown; kind?: unknown } | null | undefined;
          p.reject(new RequestError(typeof d?.message === "string" ? d.message : "refused", String(d?.kind ?? ""), p.name));
        } else p.resolve(env.data);
        return;
      }
    }
    for (const fn of [...(this.handlers.get(env.name) ?? [])]) {
      try {
        fn(env.data, env);
      } catch (err) {
        this.onError(env.name, err);
      }
    }
    for (const fn of this.everything) {
      try {
        fn(env as InboundEnvelope);
      } catch (err) {
        this.onError(env.name, err);
      }
    }
  }
}

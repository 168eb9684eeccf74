// The WebSocket to the server root (contract 6.1): one JSON envelope per
// message. It reconnects by itself with exponential backoff and jitter,
// so a restarting server is not hammered by every page at the same
// instant; after each (re)connect the owner re-registers and resyncs.
import type { OutboundEnvelope, RawEnvelope } from "./events";

export type ConnectionState = "connecting" | "open" | "reconnecting" | "closed";

export interface SocketHandlers {
  /** The socket opened: send clientUpdated, then fetch the snapshot. */
  onOpen(reconnected: boolean): void;
  /** One envelope off the socket: give it to the page's EventRouter (net/events.ts). */
  onMessage(env: RawEnvelope): void;
  onState(state: ConnectionState, detail: string): void;
  /** The socket closed with this code (before any retry); return true to stop retrying (a kick, a changed join key). */
  onClose?(code: number, reason: string): boolean;
}

const minDelay = 500;
const maxDelay = 10_000;

export class Socket {
  state: ConnectionState = "connecting";
  private ws: WebSocket | null = null;
  private attempts = 0;
  private opened = false;
  private timer: number | undefined;
  private stopped = false;

  constructor(private url: string, private handlers: SocketHandlers) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Closes for good (no reconnect). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close(1000);
    this.setState("closed", "closed");
  }

  /**
   * Sends an envelope (with a requestId when an answer is wanted); false when
   * the socket is not open (the caller may drop it). Pages send through their
   * EventRouter, which types the envelope by its name.
   */
  send(env: OutboundEnvelope): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(env.requestId ? env : { name: env.name, data: env.data }));
    return true;
  }

  private setState(s: ConnectionState, detail: string): void {
    this.state = s;
    this.handlers.onState(s, detail);
  }

  private connect(): void {
    this.setState(this.opened ? "reconnecting" : "connecting", this.attempts ? `attempt ${this.attempts + 1}` : "");
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.retry((err as Error).message);
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const again = this.opened;
      this.opened = true;
      this.attempts = 0;
      this.setState("open", "");
      this.handlers.onOpen(again);
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== "string") return;
      let env: RawEnvelope;
      try {
        env = JSON.parse(ev.data);
      } catch {
        return; // not ours to break on
      }
      if (env && typeof env.name === "string") this.handlers.onMessage(env);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.stopped && this.handlers.onClose?.(ev.code, ev.reason)) {
        this.stopped = true;
        this.setState("closed", ev.reason || `closed (${ev.code})`);
        return;
      }
      if (!this.stopped) this.retry(ev.reason || `closed (${ev.code})`);
    };
  }

  private retry(reason: string): void {
    // Full jitter: a random delay up to the exponential bound.
    const bound = Math.min(maxDelay, minDelay * 2 ** this.attempts);
    const delay = bound / 2 + Math.random() * (bound / 2);
    this.attempts++;
    this.setState(this.opened ? "reconnecting" : "connecting", reason);
    this.timer = window.setTimeout(() => this.connect(), delay);
  }
}

/** ws(s)://<host>/ for the page's own origin. */
export function socketURL(loc: Location = window.location): string {
  return `${loc.protocol === "https:" ? "wss://" : "ws://"}${loc.host}/`;
}

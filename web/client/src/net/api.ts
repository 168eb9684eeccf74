// GET /api: the snapshot the client starts from, and resyncs from after a
// reload or a reconnect (contract 4.1).
import type { Snapshot } from "../types";
import { takeEarlyAPI } from "./early";

export class ApiError extends Error {}

/** The seat token this browser keeps (ui/seat.ts), if any. */
const seatTokenKey = "companion.seatToken";

/**
 * The headers of a read of the public API: JSON, and the seat this
 * browser holds, so that the answer holds what is its own (its whispers
 * in GET /api's messages).
 */
export function apiHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: "application/json" };
  try {
    const seat = localStorage.getItem(seatTokenKey);
    if (seat) headers["X-Companion-Seat"] = seat;
  } catch {
    /* no storage: no seat to name */
  }
  return headers;
}

export async function fetchSnapshot(base = ""): Promise<Snapshot> {
  return readSnapshot(fetch(`${base}/api`, { headers: apiHeaders(), cache: "no-store" }));
}

/** The snapshot index.html's script asked for before the bundle ran (net/early.ts), else a new GET /api. */
export function earlySnapshot(): Promise<Snapshot> {
  const res = takeEarlyAPI();
  return res ? readSnapshot(res) : fetchSnapshot();
}

async function readSnapshot(answer: Promise<Response>): Promise<Snapshot> {
  let res: Response;
  try {
    res = await answer;
  } catch (err) {
    throw new ApiError(`cannot reach the server: ${(err as Error).message}`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(`GET /api answered ${res.status} without JSON`);
  }
  if (!res.ok) {
    const msg = (body as { message?: string } | null)?.message;
    throw new ApiError(msg ? `${msg} (${res.status})` : `GET /api answered ${res.status}`);
  }
  return body as Snapshot;
}

// GET /api: the snapshot the client starts from, and resyncs from after a
// reload or a reconnect (contract 4.1).
import type { Snapshot } from "../types";
import { takeEarlyAPI } from "./early";

export class ApiError extends Error {}

export async function fetchSnapshot(base = ""): Promise<Snapshot> {
  return readSnapshot(fetch(`${base}/api`, { headers: { Accept: "application/json" }, cache: "no-store" }));
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

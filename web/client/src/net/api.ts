// GET /api: the snapshot the client starts from, and resyncs from after a
// reload or a reconnect (contract 4.1).
import type { Snapshot } from "../types";

export class ApiError extends Error {}

export async function fetchSnapshot(base = ""): Promise<Snapshot> {
  let res: Response;
  try {
    res = await fetch(`${base}/api`, { headers: { Accept: "application/json" }, cache: "no-store" });
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

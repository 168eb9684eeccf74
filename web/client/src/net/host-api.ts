// The host API client, the one the console page (src/host) and its GM map
// (src/gm) share: JSON in, JSON out, on the console's own origin, and the
// server's own message as the error when a request fails.

/** A failed host API call: status 0 when the server did not answer. */
export class HostAPIError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HostAPIError";
  }
}

/** The status of a failure: HostAPIError's, else -1 (not an API answer). */
export function errorStatus(err: unknown): number {
  return err instanceof HostAPIError ? err.status : -1;
}

/** The message of anything thrown, for the page to show. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * readAnswer decodes an answer's body: its JSON (null when empty or not
 * JSON) when ok, else a HostAPIError with the server's message (its
 * `message`, or `error`) or, without one, what was asked and the status.
 */
export function readAnswer(method: string, path: string, status: number, ok: boolean, text: string): unknown {
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!ok) {
    const d = data && typeof data === "object" ? (data as { message?: unknown; error?: unknown }) : {};
    const msg = typeof d.message === "string" && d.message ? d.message : typeof d.error === "string" ? d.error : "";
    throw new HostAPIError(status, msg || `${method} ${path} answered ${status}`);
  }
  return data;
}

/**
 * hostAPI calls GET/POST/… /host/api/<path>: a FormData body goes as
 * multipart, anything else as JSON. The answer's JSON, or null for an
 * empty one (204).
 */
export async function hostAPI<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const init: RequestInit = { method, headers, cache: "no-store" };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`/host/api/${path}`, init);
  } catch {
    throw new HostAPIError(0, "The server is not answering.");
  }
  return readAnswer(method, path, res.status, res.ok, await res.text()) as T;
}

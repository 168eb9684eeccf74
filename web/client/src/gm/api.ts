// The host API (same origin as the console): JSON in, JSON out, and the
// server's own message as the error when a request fails.
export async function hostAPI<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: {}, cache: "no-store" };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`/host/api/${path}`, init);
  } catch {
    throw new Error("The server is not answering.");
  }
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const msg = (data as { message?: string } | null)?.message;
    throw new Error(msg || `${method} ${path} answered ${res.status}`);
  }
  return data as T;
}

/** Disables a button while fn runs; the caller's redraw decides its state after. */
export async function whileBusy<T>(button: HTMLButtonElement | null, fn: () => Promise<T>): Promise<T | undefined> {
  if (button?.disabled) return undefined; // already running: a second click does nothing
  if (button) button.disabled = true;
  try {
    return await fn();
  } finally {
    if (button) button.disabled = false;
  }
}

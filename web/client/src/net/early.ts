// What index.html's inline script started before this bundle ran: the
// GET /api answer and the map picture's download and decode (an <img>),
// started from the picture the server named in the page, and from GET
// /api's answer when that names another. Each is taken once; a later
// request (a resync, another map) goes out as usual. A picture the bundle
// did not take (the map changed between the page and GET /api) is let go
// once the first snapshot is drawn (releaseEarly).

interface Early {
  api?: Promise<Response>;
  images?: Record<string, Promise<HTMLImageElement> | null | undefined>;
}

function early(): Early | undefined {
  return (window as unknown as { companionEarly?: Early }).companionEarly;
}

/** The early GET /api's response, once; null when there is none (or it was taken). */
export function takeEarlyAPI(): Promise<Response> | null {
  const e = early();
  const p = e?.api ?? null;
  if (e) delete e.api;
  return p;
}

/**
 * The early load of the image at url (decoded), once; null when there is
 * none. Taken or not, the url is marked (null) so that index.html's script
 * does not start it after the bundle has.
 */
export function takeEarlyImage(url: string): Promise<HTMLImageElement> | null {
  const images = early()?.images;
  const p = images?.[url] ?? null;
  if (images) images[url] = null;
  return p;
}

/**
 * Lets go of what the bundle did not take (the picture of a map no longer
 * shown): called once the first snapshot is drawn, when every early load
 * the page wanted has been taken.
 */
export function releaseEarly(): void {
  const images = early()?.images;
  if (!images) return;
  for (const url of Object.keys(images)) images[url] = null;
}

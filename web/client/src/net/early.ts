// What index.html's inline script started before this bundle ran: the
// GET /api answer and the map image's download (and decode, where the
// browser has createImageBitmap). Each is taken once; a
// later request (a resync, another map) goes out as usual.

interface Early {
  api?: Promise<Response>;
  images?: Record<string, Promise<Blob | ImageBitmap> | null | undefined>;
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
 * The early download of the image at url (decoded, or a blob where the
 * browser cannot decode off the page), once; null when there is none.
 * Taken or not, the url is marked (null) so that index.html's script does
 * not start it after the bundle has.
 */
export function takeEarlyImage(url: string): Promise<Blob | ImageBitmap> | null {
  const images = early()?.images;
  const p = images?.[url] ?? null;
  if (images) images[url] = null;
  return p;
}

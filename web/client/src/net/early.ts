// What index.html's inline script started before this bundle ran: the
// GET /api answer and the map image's download and decode (an <img>).
// Each is taken once; a later request (a resync, another map) goes out as
// usual.
//
// The script also starts, before GET /api answers, the picture this
// device drew last (rememberPicture): a reload or a return visit usually
// finds the same map on the player screen, and its picture then comes
// from the browser's cache while the bundle loads. A guess that proves
// wrong costs one cached image, dropped with the rest (releaseEarly).

interface Early {
  api?: Promise<Response>;
  images?: Record<string, Promise<HTMLImageElement> | null | undefined>;
}

/** The localStorage key of the last picture drawn whole on this device (index.html reads it). */
export const pictureKey = "companion.picture";

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
 * Lets go of what the bundle did not take (a guessed picture of another
 * map): called once the first snapshot is drawn, when every early load the
 * page wanted has been taken.
 */
export function releaseEarly(): void {
  const images = early()?.images;
  if (!images) return;
  for (const url of Object.keys(images)) images[url] = null;
}

/** Remembers url as the picture this device drew last (the next visit starts it early). */
export function rememberPicture(url: string): void {
  try {
    if (localStorage.getItem(pictureKey) !== url) localStorage.setItem(pictureKey, url);
  } catch {
    /* private mode or storage full: the next visit waits for GET /api */
  }
}

/** JSON text of frozen bodies, keyed by the object itself: the GC drops an entry with its body. */
const rendered = new WeakMap<object, string>();

/**
 * JSON.stringify, done once per frozen object. The store hands out reads frozen and keeps them
 * the same object until the state they show changes (store.ts), so the environments read and
 * the OIDC read send text rendered once per state change, not once per request (DESIGN.md:
 * "bodies that only change when the state changes can be rendered once per change"). Anything
 * not frozen, such as an error body with its fresh id, is serialized every time.
 */
export function renderJson(body: unknown): string {
  if (body === null || typeof body !== 'object' || !Object.isFrozen(body)) return JSON.stringify(body);
  let text = rendered.get(body);
  if (text === undefined) {
    rendered.set(body, (text = JSON.stringify(body)));
    if (text.length >= LARGE_BODY_CHARS) keepBytes(text);
  }
  return text;
}

/**
 * Rendered bodies from this many characters up also keep their UTF-8 bytes, sent as they are (a
 * project with 10,000 environments is ~1 MB). Smaller ones go out as strings, joined with the
 * head in one write: for the 1.3 kB environments read that costs less than a second write of
 * bytes (server CPU 1.05x the bare ceiling against 1.56x; bench/RESULTS.md).
 */
export const LARGE_BODY_CHARS = 64 * 1024;
/** Bytes of large bodies kept at most; past it the cache starts again (a state change renders anew). */
const LARGE_BYTES_KEPT = 256 * 1024 * 1024;
const largeBodies = new Map<string, Uint8Array>();
let largeBytes = 0;
const encoder = new TextEncoder();

function keepBytes(text: string): void {
  const bytes = encoder.encode(text);
  if (bytes.length > LARGE_BYTES_KEPT) return;
  if (largeBytes + bytes.length > LARGE_BYTES_KEPT) {
    largeBodies.clear();
    largeBytes = 0;
  }
  largeBodies.set(text, bytes);
  largeBytes += bytes.length;
}

/**
 * The UTF-8 bytes of a large body renderJson made, so an adapter sends them without encoding the
 * text per request; undefined for any other text. The text is the very string renderJson
 * returned, whose hash V8 keeps, so the lookup costs no pass over the text.
 */
export function renderedBytes(text: string): Uint8Array | undefined {
  return largeBodies.get(text);
}

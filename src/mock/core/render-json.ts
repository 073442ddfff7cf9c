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
  if (text === undefined) rendered.set(body, (text = JSON.stringify(body)));
  return text;
}

/** The young generation the proxy keeps to by default: what `--max-semi-space-size=8` gives (two 8 MB semi-spaces). */
export const YOUNG_GENERATION_CAP_MB = 16;

/** How often the size of the young generation is looked at. */
const CHECK_EVERY_MS = 500;

/**
 * Caps V8's young generation of a long-running server process at `capMb`, as
 * `--max-semi-space-size=capMb/2` would at start-up, for a process started without it (npx,
 * `flag-admin proxy`). V8 doubles the young generation whenever the bytes that survived young
 * collections since the last growth exceed its size (Heap::CheckNewSpaceExpansionCriteria), so
 * under a sustained load any survivors at all (the requests in flight) grow it to V8's default
 * cap, two semi-spaces of 32-64 MB, whatever the heap holds: the proxy's RSS then grew 1.7x over
 * 150,000 requests with 13 MB live (bench/proxy.ts, memory). The size cannot be set after start,
 * but the growth factor is read at each growth (SemiSpaceNewSpace::Grow: new capacity = min(max,
 * semi_space_growth_factor x capacity)): once the young generation reaches the cap, the factor is
 * set to 1, which makes a growth keep the size; should V8 shrink it again (the memory reducer, at
 * rest), the factor goes back to V8's 2. Nothing is done when the user set a semi-space size or
 * growth factor of their own (NODE_OPTIONS or node's flags): theirs holds.
 * Returns a function that stops looking (the flag stays as last set).
 */
export function capYoungGeneration(capMb = YOUNG_GENERATION_CAP_MB, options: { execArgv?: readonly string[]; nodeOptions?: string } = {}): () => void {
  const given = [...(options.execArgv ?? process.execArgv), ...(options.nodeOptions ?? process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((flag) => /^--(?:max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor/.test(flag))) return () => {};
  // The CommonJS exports, as the kit takes node:http (bench/RESULTS.md, start-up): an ESM import builds the module's facade first.
  const { getHeapSpaceStatistics, setFlagsFromString } = process.getBuiltinModule('node:v8');
  let capped = false;
  const check = () => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (!young) return;
    const atCap = young.space_size >= capMb * 1024 * 1024;
    if (atCap === capped) return;
    setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
    capped = atCap;
  };
  check();
  const timer = setInterval(check, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

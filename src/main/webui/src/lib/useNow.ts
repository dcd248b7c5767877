import { useEffect, useState } from 'react';

/** How often a relative time ("in 5 minutes") on screen is renewed unless a caller asks otherwise. */
export const CLOCK_TICK_MS = 30_000;

/**
 * The current time (epoch ms), read once when mounted and renewed every `intervalMs`: a component that shows
 * times relative to now re-renders with the clock instead of reading it during render.
 */
export function useNow(intervalMs: number = CLOCK_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

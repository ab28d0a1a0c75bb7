// Helpers for long work that shares the event loop with requests (screening, contact imports).
// A leaf module: importing it pulls in nothing of the server's.

/** Lets other requests run: long work awaits this between chunks so no request holds the loop. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A yield that only happens once `budgetMs` of work has passed since the last one: cheap to call in
 * a tight loop, and other requests wait at most about the budget.
 */
export function timeSlicer(budgetMs = 15) {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < budgetMs) return;
    await yieldToLoop();
    since = performance.now();
  };
}

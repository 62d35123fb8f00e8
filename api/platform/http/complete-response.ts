const COMPLETE = Symbol("complete-response");

/**
 * Marks a response whose headers (security headers included) are final, so the app's response
 * hook does not read them: reading `headers` would make srvx build a Headers object and lose its
 * fast path, which is most of the cost of serving a static file.
 */
export function markComplete<T extends Response>(response: T): T {
  (response as T & { [COMPLETE]?: true })[COMPLETE] = true;
  return response;
}

export function isComplete(response: Response): boolean {
  return (response as Response & { [COMPLETE]?: true })[COMPLETE] === true;
}

/** What was thrown, as text: native code (OpenCV, SQLite) may throw strings or other non-Errors, whose `.message` is undefined. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

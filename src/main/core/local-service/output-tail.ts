/** How many lines of the service's output a failure report quotes. */
const KEPT_LINES = 10;

/**
 * The last lines a local service printed, stdout and stderr in the order they came: what a start
 * that failed or timed out is reported with, since the reason is usually the service's last words.
 */
export class OutputTail {
  private readonly lines: { text: string; error: boolean }[] = [];

  add(text: string, error = false): void {
    if (text.trim() === '') return;
    this.lines.push({ text: text.slice(0, 500), error });
    if (this.lines.length > KEPT_LINES) this.lines.shift();
  }

  /** The kept lines, one a line, or "no output". */
  describe(): string {
    return this.lines.map((l) => l.text).join('\n') || 'no output';
  }

  /** The kept stderr lines only (a running service's last error). */
  errors(): string {
    return this.lines
      .filter((l) => l.error)
      .map((l) => l.text)
      .join('\n');
  }
}

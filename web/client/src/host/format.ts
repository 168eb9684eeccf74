// Small formatting rules the console's cards share. Pure, so Node tests them.

/** A byte count as people read it; "?" when unknown. */
export function bytes(n: number | undefined): string {
  if (n === undefined || !(n >= 0)) return "?";
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1 << 20)).toFixed(1)} MiB`;
}

/** A server time in the reader's locale; the text itself when it is not a time. */
export function when(iso: string | undefined | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
}

/** "1 map", "2 maps". */
export const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * changed remembers the last document drawn under a key: true when this
 * one differs (and is now the one remembered). forget makes the next
 * call draw whatever it gets.
 */
export class Drawn {
  private last = new Map<string, string>();
  changed(key: string, value: unknown): boolean {
    const json = JSON.stringify(value);
    if (this.last.get(key) === json) return false;
    this.last.set(key, json);
    return true;
  }
  forget(key: string): void {
    this.last.delete(key);
  }
}

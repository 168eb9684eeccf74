// A token's position over time: still, jumping, or gliding to a target.
// The glide is timed, not stepped per frame: whatever the frame rate, the
// first frame drawn once the glide's time is up draws the token at its
// target. Stepping by frame deltas (which Pixi's ticker caps at 100 ms)
// made a slow page fall further behind the moves it was sent.

export class Glide {
  /** Where the token is drawn now. */
  x: number;
  y: number;
  targetX: number;
  targetY: number;
  private fromX = 0;
  private fromY = 0;
  private start = 0;
  private end = 0;

  constructor(x: number, y: number) {
    this.x = this.targetX = x;
    this.y = this.targetY = y;
  }

  /** Be at (x, y) now. */
  jumpTo(x: number, y: number): void {
    this.x = this.targetX = x;
    this.y = this.targetY = y;
    this.end = 0;
  }

  /** Glide from where the token is drawn to (x, y), arriving `ms` after `now` (performance.now() ms); `ms` <= 0 jumps. */
  moveTo(x: number, y: number, ms: number, now: number): void {
    if (!(ms > 0)) {
      this.jumpTo(x, y);
      return;
    }
    this.fromX = this.x;
    this.fromY = this.y;
    this.targetX = x;
    this.targetY = y;
    this.start = now;
    this.end = now + ms;
  }

  /** Moves the drawn position to where it is at `now`; true when it changed. */
  step(now: number): boolean {
    if (this.x === this.targetX && this.y === this.targetY) return false;
    const k = this.end > this.start ? Math.min(1, Math.max(0, (now - this.start) / (this.end - this.start))) : 1;
    if (k >= 1) {
      this.x = this.targetX;
      this.y = this.targetY;
    } else {
      this.x = this.fromX + (this.targetX - this.fromX) * k;
      this.y = this.fromY + (this.targetY - this.fromY) * k;
    }
    return true;
  }
}

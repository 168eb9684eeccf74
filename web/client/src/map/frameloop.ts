// The renderer's frame loop. A frame is drawn only when something changed
// (renderer.ts decides); this loop decides how often to ask. While the
// map is busy it runs every animation frame, and it reports the interval
// of frames drawn back to back (quality.ts judges them). When nothing was
// drawn for idleTicks frames in a row it stops asking for animation
// frames and looks four times a second instead: an idle map costs a
// phone a few wake-ups a second, not sixty. Anything that wants a frame
// wakes it at once (wake()).

export interface FrameLoopHooks {
  /** Draws a frame if one is due; true when it drew. */
  frame(now: number): boolean;
  /** Whether something waits to be drawn (looked at while idle). */
  pending(): boolean;
  /** A frame drawn in the animation frame right after another drawn one, intervalMs later. */
  interval(intervalMs: number, now: number): void;
}

export const idleTicks = 30;
export const idlePollMs = 250;

export class FrameLoop {
  private awake = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private quiet = 0;
  private lastDrawn = -1; // when the previous animation frame drew, or -1 when it did not
  private stopped = false;

  constructor(private hooks: FrameLoopHooks) {}

  start(): void {
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Whether the loop runs every animation frame now (false: idle). */
  get running(): boolean {
    return this.awake;
  }

  /** Asks for animation frames again (something changed). */
  wake(): void {
    if (this.awake || this.stopped) return;
    this.awake = true;
    this.quiet = 0;
    this.lastDrawn = -1;
    clearTimeout(this.timer);
    requestAnimationFrame(this.tick);
  }

  private tick = (now: number): void => {
    if (this.stopped) return;
    const drew = this.hooks.frame(now);
    if (drew) {
      if (this.lastDrawn >= 0) this.hooks.interval(now - this.lastDrawn, now);
      this.lastDrawn = now;
      this.quiet = 0;
    } else {
      this.lastDrawn = -1;
      this.quiet++;
    }
    if (this.quiet < idleTicks) {
      requestAnimationFrame(this.tick);
      return;
    }
    this.awake = false;
    this.timer = setTimeout(this.poll, idlePollMs);
  };

  private poll = (): void => {
    if (this.stopped || this.awake) return;
    if (this.hooks.pending()) this.wake();
    else this.timer = setTimeout(this.poll, idlePollMs);
  };
}

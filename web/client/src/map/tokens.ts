// One token on the map: artwork (the token's asset or image) in a circle,
// or a disc coloured by role with the label when there is none; the
// footprint is width x height cells; rotation turns the art; badges show
// elevation; auras are drawn around it; bloodied and defeated tokens look
// it. Position is animated: other players' drags glide, tokenUpdated jumps.
import { Assets, Container, Ellipse, Graphics, Sprite, Text, Texture } from "pixi.js";
import type { Token } from "../types";
import { parseColor } from "./grid";

const roleColors: Record<string, number> = { friendly: 0x2f7de1, hostile: 0xd63c3c, neutral: 0xd9a21b };

export function roleColor(role: string | undefined): number {
  return roleColors[role ?? ""] ?? 0x7a7f8a;
}

/** The URL of a token's artwork, or null. Paths from the server are rooted ("/campaigns/..."). */
export function tokenImageURL(t: Token): string | null {
  const raw = t.asset?.resource || (typeof t.image === "string" ? t.image : "");
  if (!raw) return null;
  if (/^(https?:|data:|blob:)/i.test(raw)) return raw;
  return raw.startsWith("/") ? raw : "/" + raw;
}

export interface TokenLook {
  bloodied: boolean;
  defeated: boolean;
}

export class TokenView extends Container {
  token: Token;
  /** Where the token is drawn now; moves toward target. */
  drawnX: number;
  drawnY: number;
  private targetX: number;
  private targetY: number;
  private speed = 0; // map pixels per ms; 0 = jump
  private art = new Container();
  private disc = new Graphics();
  private ring = new Graphics();
  private labelText: Text;
  private badge: Text;
  private auras = new Graphics();
  private badgeBack = new Graphics();
  private overlay = new Graphics();
  private sprite: Sprite | null = null;
  private imageURL: string | null = null;
  hasImage = false;

  constructor(t: Token, private cell: number) {
    super();
    this.token = t;
    this.drawnX = this.targetX = t.x;
    this.drawnY = this.targetY = t.y;
    this.labelText = new Text({ text: "", style: { fontFamily: "system-ui, sans-serif", fontWeight: "700", fill: 0xffffff, fontSize: 26, stroke: { color: 0x000000, width: 4 } }, resolution: 2 });
    this.labelText.anchor.set(0.5);
    this.badge = new Text({ text: "", style: { fontFamily: "system-ui, sans-serif", fontWeight: "700", fill: 0xffffff, fontSize: 15 }, resolution: 2 });
    this.badge.anchor.set(0.5);
    // Pixi batches a Graphics only below 200 vertices by default; a token's
    // disc and rings are a little more, so each token cost its own draw
    // calls and two shader switches (about 1000 of each for 500 tokens, the
    // main cost of a crowded frame on a CPU renderer). Batched, the whole
    // token layer is a handful of draws. The shapes are the same.
    for (const g of [this.disc, this.ring, this.auras, this.badgeBack, this.overlay]) g.context.batchMode = "batch";
    this.art.addChild(this.disc);
    this.addChild(this.auras, this.art, this.ring, this.overlay, this.labelText, this.badgeBack, this.badge);
    this.eventMode = "static";
    this.cursor = "grab";
    this.update(t, { bloodied: false, defeated: false }, cell);
    this.position.set(t.x, t.y);
  }

  get pixelWidth(): number {
    return Math.max(1, this.token.width ?? 1) * this.cell;
  }
  get pixelHeight(): number {
    return Math.max(1, this.token.height ?? 1) * this.cell;
  }

  /** Redraws from the token's fields; position is left to moveTo/jumpTo. */
  update(t: Token, look: TokenLook, cell: number, pixelsPerUnit = cell / 5): void {
    this.token = t;
    this.cell = cell;
    const w = this.pixelWidth, h = this.pixelHeight;
    const r = Math.min(w, h) / 2;
    const color = roleColor(t.role);
    // A container is hit only through a hit area; the footprint is it.
    this.hitArea = new Ellipse(0, 0, w / 2, h / 2);
    this.disc.clear().ellipse(0, 0, w / 2 - 2, h / 2 - 2).fill({ color }).stroke({ width: 2, color: 0xffffff, alpha: 0.35 });
    this.ring.clear().ellipse(0, 0, w / 2 - 1.5, h / 2 - 1.5).stroke({ width: 3, color, alpha: 1 });
    this.labelText.text = (t.label || t.name?.slice(0, 2) || "").slice(0, 4);
    this.labelText.style.fontSize = Math.max(10, r * [0.8, 0.8, 0.62, 0.48, 0.4][this.labelText.text.length]);
    this.art.rotation = ((t.rotation ?? 0) * Math.PI) / 180;
    this.art.scale.set(t.scale && t.scale > 0 ? Math.min(3, t.scale) : 1);
    // Elevation badge, top right.
    const elev = t.elevation ?? 0;
    this.badge.visible = this.badgeBack.visible = elev !== 0;
    this.badge.text = elev > 0 ? `↑${elev}` : `↓${-elev}`;
    this.badge.style.fontSize = Math.max(10, r * 0.32);
    this.badge.position.set(w / 2 - r * 0.2, -h / 2 + r * 0.2);
    const bw = this.badge.width + 8, bh = this.badge.height + 2;
    this.badgeBack.clear().roundRect(-bw / 2, -bh / 2, bw, bh, bh / 2).fill({ color: 0x15181e, alpha: 0.9 }).stroke({ width: 1.5, color: 0xffffff, alpha: 0.8 });
    this.badgeBack.position.copyFrom(this.badge.position);
    // Auras: discs around the token, radius in grid units from its edge.
    this.auras.clear();
    for (const a of t.auras ?? []) {
      if (a.enabled === false || !(a.radius! > 0)) continue;
      const ar = r + (a.radius ?? 0) * pixelsPerUnit;
      const c = parseColor(a.color, 0xffffff);
      this.auras.circle(0, 0, ar).fill({ color: c, alpha: (a.opacity ?? 0.3) * 0.6 }).stroke({ width: 2, color: c, alpha: Math.min(1, (a.opacity ?? 0.3) + 0.3) });
    }
    // Bloodied: a red rim; defeated: greyed with a cross.
    this.overlay.clear();
    if (look.bloodied && !look.defeated) this.overlay.ellipse(0, 0, w / 2 - 1.5, h / 2 - 1.5).stroke({ width: 5, color: 0xb00010, alpha: 0.95 });
    if (look.defeated) {
      const k = r * 0.6;
      this.overlay.moveTo(-k, -k).lineTo(k, k).moveTo(k, -k).lineTo(-k, k).stroke({ width: Math.max(3, r * 0.15), color: 0x1a0000, alpha: 0.9 });
    }
    this.art.alpha = look.defeated ? 0.45 : 1;
    this.loadImage(tokenImageURL(t));
    this.labelText.visible = !this.hasImage;
  }

  private loadImage(url: string | null): void {
    if (url === this.imageURL) return;
    this.imageURL = url;
    if (this.sprite) {
      this.sprite.destroy();
      this.sprite = null;
      this.hasImage = false;
    }
    if (!url) return;
    Assets.load<Texture>({ src: url, parser: "texture" } as never).then(
      (tex) => {
        if (this.imageURL !== url || this.destroyed) return;
        const s = new Sprite(tex);
        s.anchor.set(0.5);
        const w = this.pixelWidth, h = this.pixelHeight;
        s.scale.set(Math.min(w / tex.width, h / tex.height));
        // Round tokens are cut to a circle; topdown art keeps its outline.
        if (this.token.style !== "topdown") {
          const m = new Graphics().ellipse(0, 0, w / 2 - 2, h / 2 - 2).fill(0xffffff);
          this.art.addChild(m);
          s.mask = m;
        }
        this.art.addChild(s);
        this.sprite = s;
        this.hasImage = true;
        this.labelText.visible = false;
      },
      () => {
        /* keep the disc and label */
      },
    );
  }

  /** Where the token is going (equal to where it is drawn when still). */
  get target(): { x: number; y: number } {
    return { x: this.targetX, y: this.targetY };
  }

  /** Jumps to (x, y) (tokenUpdated, snapshots, my own drag). */
  jumpTo(x: number, y: number): void {
    this.drawnX = this.targetX = x;
    this.drawnY = this.targetY = y;
    this.speed = 0;
    this.position.set(x, y);
  }

  /** Glides to (x, y) within about `ms` (others' drags, block snap-back). */
  moveTo(x: number, y: number, ms: number): void {
    this.targetX = x;
    this.targetY = y;
    const d = Math.hypot(x - this.drawnX, y - this.drawnY);
    this.speed = ms > 0 ? Math.max(d / ms, 0.05) : 0;
    if (this.speed === 0) this.jumpTo(x, y);
  }

  /** Advances an animation by dt ms; true while still moving. */
  step(dt: number): boolean {
    if (this.drawnX === this.targetX && this.drawnY === this.targetY) return false;
    const dx = this.targetX - this.drawnX, dy = this.targetY - this.drawnY;
    const d = Math.hypot(dx, dy);
    const go = this.speed * dt;
    if (go >= d || this.speed === 0) {
      this.drawnX = this.targetX;
      this.drawnY = this.targetY;
    } else {
      this.drawnX += (dx / d) * go;
      this.drawnY += (dy / d) * go;
    }
    this.position.set(this.drawnX, this.drawnY);
    return true;
  }
}

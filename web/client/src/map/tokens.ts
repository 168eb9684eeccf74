// One token on the map: artwork (the token's asset or image) in a circle,
// or a disc coloured by role with the label when there is none; the
// footprint is width x height cells; rotation turns the art; badges show
// elevation; auras are drawn around it; bloodied and defeated tokens look
// it. Position is animated: other players' drags glide, tokenUpdated jumps.
import { Assets, BitmapFont, BitmapText, Container, Ellipse, Graphics, Sprite, Text, type Texture } from "pixi.js";
import type { Token } from "../types";
import { parseColor } from "./grid";
import { Glide } from "./glide";
import { discAndRingTexture, discTexture, ringTexture } from "./token-art";
import { capTexture } from "./textures";

const roleColors: Record<string, number> = { friendly: 0x2f7de1, hostile: 0xd63c3c, neutral: 0xd9a21b };

export function roleColor(role: string | undefined): number {
  return roleColors[role ?? ""] ?? 0x7a7f8a;
}

/** The URL of a token's artwork, or null. Paths from the server are rooted ("/campaigns/..."). */
export function tokenImageURL(t: Token): string | null {
  const raw = t.asset?.resource || (typeof t.image === "string" ? t.image : "");
  if (!raw) return null;
  if (/^(https?:|data:|blob:)/i.test(raw)) return raw;
  return raw.startsWith("/") ? raw : `/${raw}`;
}

/**
 * Token labels are drawn from one shared glyph atlas (a bitmap font made
 * once, at twice the usual label size, scaled per token) instead of a
 * canvas texture per label: 500 labels were 500 textures, which broke the
 * token layer's batches every 16 tokens, and each one was rasterised
 * separately. Glyphs the atlas lacks are added when a label needs them.
 */
const labelFont = "companion-token-label";
const labelFontSize = 52;
let labelFontReady = false;

/**
 * Draws the label glyph atlas, with the digits only (most labels are
 * numbers); the first label that needs a letter adds it. The whole
 * alphabet at once cost a first frame about 40 ms on a CPU renderer, most
 * of it kerning every pair of 63 glyphs.
 */
export function installLabelFont(): void {
  if (!labelFontReady) {
    BitmapFont.install({
      name: labelFont,
      // The look of the former Text labels (26 px at resolution 2, 4 px stroke), at the atlas size.
      style: { fontFamily: "system-ui, sans-serif", fontWeight: "700", fill: 0xffffff, fontSize: labelFontSize, stroke: { color: 0x000000, width: 8 } },
      chars: [["0", "9"], " "],
      padding: 6,
    });
    labelFontReady = true;
  }
}

function labelText(): BitmapText {
  installLabelFont();
  return new BitmapText({ text: "", style: { fontFamily: labelFont, fontSize: 26 } });
}

export interface TokenLook {
  bloodied: boolean;
  defeated: boolean;
}

export class TokenView extends Container {
  token: Token;
  /** Where the token is drawn, and where it glides to. */
  private glide: Glide;
  private jumped = false; // moved by a jump since the last step()
  private art = new Container();
  private disc = new Sprite();
  private ring = new Sprite();
  private labelText: BitmapText;
  /** The elevation badge and its back, made the first time the token has an elevation. */
  private badge: { text: Text; back: Graphics } | null = null;
  private auras = new Graphics();
  private overlay = new Graphics();
  private sprite: Sprite | null = null;
  private imageURL: string | null = null;
  hasImage = false;

  constructor(t: Token, private cell: number) {
    super();
    this.token = t;
    this.glide = new Glide(t.x, t.y);
    this.labelText = labelText();
    this.labelText.anchor.set(0.5);
    // Pixi batches a Graphics only below 200 vertices by default; auras
    // and rims are a little more, so each token cost its own draw calls and
    // shader switches (about 1000 of each for 500 tokens on a CPU renderer).
    // Batched, the whole token layer is a handful of draws. The shapes are
    // the same. (The disc and ring are sprites: see token-art.ts.)
    for (const g of [this.auras, this.overlay]) g.context.batchMode = "batch";
    this.disc.anchor.set(0.5);
    this.ring.anchor.set(0.5);
    this.art.addChild(this.disc);
    this.addChild(this.auras, this.art, this.ring, this.overlay, this.labelText);
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
    // A container is hit only through a hit area; the footprint is it.
    this.hitArea = new Ellipse(0, 0, w / 2, h / 2);

    this.labelText.text = (t.label || t.name?.slice(0, 2) || "").slice(0, 4);
    this.labelText.style.fontSize = Math.max(10, r * [0.8, 0.8, 0.62, 0.48, 0.4][this.labelText.text.length]);
    this.art.rotation = ((t.rotation ?? 0) * Math.PI) / 180;
    this.art.scale.set(t.scale && t.scale > 0 ? Math.min(3, t.scale) : 1);
    // Elevation badge, top right. Most tokens have none: it is made when
    // one first needs it, and laid out only while shown (measuring its text
    // for every token cost a first map of 500 tokens a tenth of a second).
    const elev = t.elevation ?? 0;
    if (this.badge) this.badge.text.visible = this.badge.back.visible = elev !== 0;
    if (elev !== 0) {
      const b = this.badgeParts();
      b.text.text = elev > 0 ? `↑${elev}` : `↓${-elev}`;
      b.text.style.fontSize = Math.max(10, r * 0.32);
      b.text.position.set(w / 2 - r * 0.2, -h / 2 + r * 0.2);
      const bw = b.text.width + 8, bh = b.text.height + 2;
      b.back.clear().roundRect(-bw / 2, -bh / 2, bw, bh, bh / 2).fill({ color: 0x15181e, alpha: 0.9 }).stroke({ width: 1.5, color: 0xffffff, alpha: 0.8 });
      b.back.position.copyFrom(b.text.position);
    }
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
    this.drawBase();
  }

  /** The elevation badge's text while it shows, else "" (the test hook reports it). */
  get badgeText(): string {
    return this.badge?.text.visible ? this.badge.text.text : "";
  }

  /** The badge's text and back, made (above everything else of the token) on first use. */
  private badgeParts(): { text: Text; back: Graphics } {
    if (!this.badge) {
      const text = new Text({ text: "", style: { fontFamily: "system-ui, sans-serif", fontWeight: "700", fill: 0xffffff, fontSize: 15 }, resolution: 2 });
      text.anchor.set(0.5);
      const back = new Graphics();
      back.context.batchMode = "batch";
      this.addChild(back, text);
      this.badge = { text, back };
    }
    return this.badge;
  }

  /**
   * The disc (inside the art: turned, scaled and faded with it) and the
   * ring (above the art). When nothing lies between them and the art is
   * neither scaled nor faded nor turned out of shape, both are one sprite.
   */
  private drawBase(): void {
    const t = this.token, w = this.pixelWidth, h = this.pixelHeight;
    const color = roleColor(t.role);
    const plain = !this.hasImage && this.art.alpha === 1 && this.art.scale.x === 1 && (w === h || this.art.rotation === 0);
    this.disc.texture = plain ? discAndRingTexture(color, w, h) : discTexture(color, w, h);
    this.ring.texture = ringTexture(color, w, h);
    this.ring.visible = !plain;
  }

  private loadImage(url: string | null): void {
    if (url === this.imageURL) return;
    this.imageURL = url;
    if (this.sprite) {
      this.sprite.destroy();
      this.sprite = null;
      this.hasImage = false;
      this.drawBase();
    }
    if (!url) return;
    Assets.load<Texture>({ src: url, parser: "texture" } as never).then(
      (tex) => {
        if (this.imageURL !== url || this.destroyed) return;
        const s = new Sprite(capTexture(tex));
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
        this.drawBase();
      },
      () => {
        /* keep the disc and label */
      },
    );
  }

  /** Where the token is going (equal to where it is drawn when still). */
  get target(): { x: number; y: number } {
    return { x: this.glide.targetX, y: this.glide.targetY };
  }

  /** Where the token is drawn now. */
  get drawnX(): number {
    return this.glide.x;
  }
  get drawnY(): number {
    return this.glide.y;
  }

  /** Jumps to (x, y) (tokenUpdated, snapshots, my own drag). */
  jumpTo(x: number, y: number): void {
    if (x !== this.glide.x || y !== this.glide.y) this.jumped = true;
    this.glide.jumpTo(x, y);
    this.position.set(x, y);
  }

  /** Glides to (x, y), arriving `ms` from now (block snap-back, a drag's end); 0 jumps. */
  moveTo(x: number, y: number, ms: number): void {
    if (!(ms > 0)) {
      this.jumpTo(x, y);
      return;
    }
    this.glide.moveTo(x, y, ms, performance.now());
  }

  /**
   * Advances a glide to time `now` (performance.now() ms); true while still
   * moving, and once after a jump (the renderer judges what moved).
   */
  step(now: number): boolean {
    const jumped = this.jumped;
    this.jumped = false;
    if (!this.glide.step(now)) return jumped;
    this.position.set(this.glide.x, this.glide.y);
    return true;
  }
}

// The Sound card: the primary campaign's audio library (upload, the
// list), its playlists (new, the tracks chosen from the library, order,
// loop, fade, channel), what plays (play, pause, resume, skip, seek,
// stop), and which screens play. docs/host-console.md, "Sound".
import { errorText, hostAPI } from "../net/host-api";
import { busy } from "../ui/busy";
import { $, chosenFile, el, replaceChildren, say } from "./dom";
import { drawn, load, setLoader } from "./console-state";
import type { Playlist, SoundPlayback, SoundState, SoundTrack } from "./types";

/** Seconds as m:ss. */
export function clock(s: number): string {
  const whole = Math.max(0, Math.floor(s));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

let tracks: SoundTrack[] = [];
let playlists: Playlist[] = [];
let state: SoundState | null = null;

async function control(list: string, body: Record<string, unknown>, button: HTMLButtonElement): Promise<void> {
  await busy(button, async () => {
    try {
      state = await hostAPI<SoundState>("POST", `sound/${encodeURIComponent(list)}`, body);
      say("sound-msg", "");
      drawPlaying();
    } catch (err) {
      say("sound-msg", errorText(err), "bad");
    }
  });
}

function button(label: string, onClick: (b: HTMLButtonElement) => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el("button", { type: "button", ...attrs }, label);
  b.onclick = () => onClick(b);
  return b;
}

/** Where a playback stands now, by the console's clock (the server's is the same machine's). */
function positionOf(p: SoundPlayback): number {
  return p.paused ? p.position : (Date.now() - p.startedAt) / 1000;
}

function drawPlaying(): void {
  const box = $("sound-playing");
  const playing = state?.playing ?? [];
  if (!playing.length) {
    replaceChildren(box, [el("li", { className: "muted" }, "Nothing plays.")]);
    return;
  }
  replaceChildren(
    box,
    playing.map((p) => {
      const seek = el("input", { type: "range", min: "0", max: String(p.track.duration || 0), step: "1", value: String(positionOf(p)), "aria-label": `Seek in ${p.track.name}` });
      seek.onchange = () => control(p.playlist, { action: "seek", position: Number(seek.value) }, pause);
      const pause = button(p.paused ? "Resume" : "Pause", (b) => control(p.playlist, { action: p.paused ? "resume" : "pause" }, b), { "data-sound": "pause" });
      return el(
        "li",
        { "data-playlist": p.playlist },
        el("strong", {}, p.name),
        " ",
        el("span", { className: "sound-track" }, `${p.track.name} (${clock(positionOf(p))} / ${clock(p.track.duration)})`),
        el("small", { className: "muted" }, ` ${p.channel}${p.paused ? ", paused" : ""}`),
        el("div", { className: "buttons" }, pause,
          button("Skip", (b) => control(p.playlist, { action: "skip" }, b), { "data-sound": "skip" }),
          button("Stop", (b) => control(p.playlist, { action: "stop" }, b), { "data-sound": "stop" }),
          seek),
      );
    }),
  );
}

function drawLibrary(): void {
  const list = $("sound-tracks");
  if (!tracks.length) {
    replaceChildren(list, [el("li", { className: "muted" }, "No sound files yet: upload one above.")]);
  } else {
    replaceChildren(
      list,
      tracks.map((t) =>
        el("li", { "data-track": t.id },
          el("label", {}, el("input", { type: "checkbox", value: t.id, name: "sound-pick" }), ` ${t.name} `),
          el("small", { className: "muted" }, `${clock(t.duration)} ${t.format}${t.tags?.length ? ` · ${t.tags.join(", ")}` : ""}`)),
      ),
    );
  }
  const lists = $("sound-playlists");
  if (!playlists.length) {
    replaceChildren(lists, [el("li", { className: "muted" }, "No playlists yet: tick tracks and make one.")]);
    return;
  }
  replaceChildren(
    lists,
    playlists.map((p) =>
      el("li", { "data-playlist": p.id },
        el("strong", {}, p.name),
        el("small", { className: "muted" }, ` ${p.tracks?.length ?? 0} tracks, ${p.channel}${p.shuffle ? ", shuffled" : ""}${p.loop ? ", loops" : ""}${p.fade ? `, fade ${p.fade} s` : ""} `),
        button("Play", (b) => control(p.id, { action: "play" }, b), { "data-sound": "play" }),
        button("Delete", (b) =>
          busy(b, async () => {
            try {
              await hostAPI("DELETE", `playlists/${encodeURIComponent(p.id)}`);
              await refresh();
            } catch (err) {
              say("sound-msg", errorText(err), "bad");
            }
          })),
      ),
    ),
  );
}

async function refresh(): Promise<void> {
  drawn.forget("sound");
  await load("sound");
}

async function loadSound(): Promise<void> {
  const [t, p, s] = await Promise.all([
    hostAPI<SoundTrack[]>("GET", "audio"),
    hostAPI<Playlist[]>("GET", "playlists"),
    hostAPI<SoundState>("GET", "sound"),
  ]);
  state = s;
  ($("sound-screens") as HTMLSelectElement).value = s.screens;
  drawPlaying(); // positions move: always
  if (!drawn.changed("sound", { t, p })) return;
  tracks = t;
  playlists = p;
  drawLibrary();
}

/** Moves the shown positions on every second, without redrawing (a seek slider may be in a hand). */
function tickPositions(): void {
  for (const p of state?.playing ?? []) {
    const row = document.querySelector(`#sound-playing li[data-playlist="${CSS.escape(p.playlist)}"] .sound-track`);
    if (row) row.textContent = `${p.track.name} (${clock(positionOf(p))} / ${clock(p.track.duration)})`;
  }
}

export function startSound(): void {
  setLoader("sound", loadSound);
  window.setInterval(tickPositions, 1000);
  const upload = $<HTMLFormElement>("sound-upload");
  upload.onsubmit = (e) => {
    e.preventDefault();
    const file = chosenFile($<HTMLInputElement>("sound-file"));
    if (!file) return;
    const body = new FormData();
    body.append("file", file);
    void busy($<HTMLButtonElement>("sound-upload-button"), async () => {
      try {
        const t = await hostAPI<SoundTrack>("POST", "audio", body);
        say("sound-msg", `${t.name}: ${clock(t.duration)} added.`, "good");
        upload.reset();
        await refresh();
      } catch (err) {
        say("sound-msg", errorText(err), "bad");
      }
    });
  };
  // A module's music and ambience: its sound files join the library.
  const fromModule = $<HTMLFormElement>("sound-module-form");
  const modules = $<HTMLSelectElement>("sound-module");
  const listModules = async () => {
    try {
      const list = await hostAPI<{ id: string; name: string }[]>("GET", "modules");
      const keep = modules.value;
      modules.replaceChildren(...list.map((m) => new Option(m.name || m.id, m.id, false, m.id === keep)));
      fromModule.hidden = list.length === 0;
    } catch {
      fromModule.hidden = true;
    }
  };
  void listModules();
  modules.onfocus = () => void listModules(); // a module installed since
  fromModule.onsubmit = (e) => {
    e.preventDefault();
    if (!modules.value) return;
    void busy($<HTMLButtonElement>("sound-module-button"), async () => {
      try {
        const r = await hostAPI<{ added: SoundTrack[]; skipped: { file: string; reason: string }[] }>("POST", `audio/modules/${encodeURIComponent(modules.value)}`);
        const left = r.skipped.filter((s) => s.reason !== "already in the library");
        say("sound-msg", `${r.added.length} sound file${r.added.length === 1 ? "" : "s"} added from the module${left.length ? `; left out: ${left.map((s) => `${s.file} (${s.reason})`).join(", ")}` : ""}.`, left.length ? "bad" : "good");
        await refresh();
      } catch (err) {
        say("sound-msg", errorText(err), "bad");
      }
    });
  };
  const make = $<HTMLFormElement>("sound-playlist-form");
  make.onsubmit = (e) => {
    e.preventDefault();
    const picked = [...document.querySelectorAll<HTMLInputElement>("input[name=sound-pick]:checked")].map((i) => i.value);
    const body = {
      name: $<HTMLInputElement>("sound-playlist-name").value,
      tracks: picked,
      shuffle: $<HTMLInputElement>("sound-shuffle").checked,
      loop: $<HTMLInputElement>("sound-loop").checked,
      fade: Number($<HTMLInputElement>("sound-fade").value) || 0,
      channel: $<HTMLSelectElement>("sound-channel").value,
    };
    void busy($<HTMLButtonElement>("sound-playlist-button"), async () => {
      try {
        const p = await hostAPI<Playlist>("POST", "playlists", body);
        say("sound-msg", `Playlist ${p.name} made.`, "good");
        make.reset();
        await refresh();
      } catch (err) {
        say("sound-msg", errorText(err), "bad");
      }
    });
  };
  const screens = $<HTMLSelectElement>("sound-screens");
  screens.onchange = async () => {
    try {
      state = await hostAPI<SoundState>("PUT", "sound/screens", { screens: screens.value });
    } catch (err) {
      say("sound-msg", errorText(err), "bad");
    }
  };
}

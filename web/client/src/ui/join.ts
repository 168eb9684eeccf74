// The join screen: a name and a colour (a real colour picker), remembered
// in localStorage, and whether this page is a player display (?display=1
// or the toggle). A returning player with a remembered name joins at once
// and can change it later from the menu.
export interface Profile {
  name: string;
  color: string;
  display: boolean;
}

const storageKey = "companion.player";
const palette = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"];

export function savedProfile(): Profile | null {
  try {
    const p = JSON.parse(localStorage.getItem(storageKey) ?? "null");
    if (p && typeof p.name === "string" && p.name.trim() && /^#[0-9a-f]{6}$/i.test(p.color)) {
      return { name: p.name.trim().slice(0, 40), color: p.color, display: Boolean(p.display) };
    }
  } catch {
    /* private mode or a damaged entry: ask again */
  }
  return null;
}

function lastProfile(): Profile | null {
  try {
    const p = JSON.parse(localStorage.getItem(`${storageKey}.last`) ?? "null");
    return p && typeof p.name === "string" ? p : null;
  } catch {
    return null;
  }
}

function saveProfile(p: Profile): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(p));
  } catch {
    /* not remembered; still joins */
  }
}

/** Shows the join form in root and resolves with the profile once submitted. */
export function askProfile(root: HTMLElement, displayFromURL: boolean): Promise<Profile> {
  const old = savedProfile() ?? lastProfile();
  const color = old?.color ?? palette[Math.floor(Math.random() * palette.length)];
  root.innerHTML = `
    <form class="join" autocomplete="on">
      <h1>Join the game</h1>
      <label>Your name <input name="name" required maxlength="40" autocomplete="nickname" enterkeyhint="go"></label>
      <label class="color">Your colour <input name="color" type="color"></label>
      <label class="check"><input name="display" type="checkbox"> This screen is a player display (no controls, follows the game master)</label>
      <button type="submit">Join</button>
    </form>`;
  const form = root.querySelector("form")!;
  const name = form.elements.namedItem("name") as HTMLInputElement;
  const colorInput = form.elements.namedItem("color") as HTMLInputElement;
  const display = form.elements.namedItem("display") as HTMLInputElement;
  name.value = old?.name ?? "";
  colorInput.value = color;
  display.checked = displayFromURL || (old?.display ?? false);
  name.focus();
  return new Promise((resolve) => {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const p = { name: name.value.trim().slice(0, 40) || "Player", color: colorInput.value, display: display.checked };
      saveProfile(p);
      root.innerHTML = "";
      resolve(p);
    });
  });
}

/** Asks again on the next load, keeping the name and colour as the form's defaults. */
export function forgetProfile(): void {
  try {
    const p = savedProfile();
    if (p) localStorage.setItem(`${storageKey}.last`, JSON.stringify(p));
    localStorage.removeItem(storageKey);
  } catch {
    /* nothing to forget */
  }
}

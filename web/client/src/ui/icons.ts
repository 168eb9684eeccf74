// Small inline SVG icons (fixed, trusted markup): emoji and symbol fonts
// differ between devices and some have none, an SVG draws the same
// everywhere. Each is decorative; the button around it carries the name.
const wrap = (body: string) =>
  `<svg viewBox="0 0 24 24" width="1.2em" height="1.2em" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

export const icons = {
  dice: wrap('<path d="M12 2 21 7v10l-9 5-9-5V7z"/><path d="M12 22V12M21 7l-9 5-9-5"/>'),
  ruler: wrap('<path d="M3 17 17 3l4 4L7 21z"/><path d="M7 13l2 2M10 10l2 2M13 7l2 2"/>'),
  theme: wrap('<circle cx="12" cy="12" r="9"/><path d="M12 3a9 9 0 0 0 0 18z" fill="currentColor"/>'),
  info: wrap('<circle cx="12" cy="12" r="9"/><path d="M12 11v6M12 7.5v.5"/>'),
  send: wrap('<path d="M4 12 20 4l-4 16-4-7z"/>'),
  drop: wrap('<path d="M12 3s6 7 6 11a6 6 0 0 1-12 0c0-4 6-11 6-11z" fill="currentColor"/>'),
  skull: wrap('<path d="M5 11a7 7 0 1 1 14 0v4h-3v4H8v-4H5z"/><circle cx="9.5" cy="11" r="1.5" fill="currentColor"/><circle cx="14.5" cy="11" r="1.5" fill="currentColor"/>'),
  star: wrap('<path d="m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z" fill="currentColor"/>'),
};

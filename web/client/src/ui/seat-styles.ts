// The styles of the seat picker, the character panel, the spectator's note,
// the shut-out page and a display's seat strip, injected by ui/seat.ts so
// they live beside the code that draws them (app.css holds the map's and
// the table's). They use app.css's theme variables.
export const seatStyles = `
.seat-button { font: inherit; font-weight: 600; border: 1px solid var(--line); border-radius: 8px; padding: .25rem .6rem;
  background: var(--bg2); color: var(--fg); cursor: pointer; pointer-events: auto; margin-left: auto; min-width: 0;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 14rem; }
.seat-picker, .shut-out { position: fixed; inset: 0; z-index: 50; display: flex; align-items: center; justify-content: center;
  background: #000a; padding: 1rem; color: var(--fg); }
.shut-out { background: #111318; flex-direction: column; text-align: center; gap: .5rem; }
.shut-out h1 { font-size: 1.5rem; margin: 0; }
.seat-card { background: var(--bg2); border-radius: 12px; padding: 1rem 1.2rem; width: min(26rem, 100%); max-height: 90vh; overflow: auto;
  box-shadow: 0 8px 32px #000a; }
.seat-card h1 { font-size: 1.25rem; margin: 0 0 .6rem; }
.seat-list { list-style: none; margin: 0 0 .8rem; padding: 0; display: grid; gap: .4rem; }
.seat-choice, .seat-actions button, .shut-out button { font: inherit; width: 100%; text-align: left; padding: .6rem .8rem; border-radius: 8px;
  border: 1px solid var(--line); background: var(--bg); color: var(--fg); cursor: pointer; }
.seat-choice:not(.taken) { border-color: var(--accent); font-weight: 600; }
.seat-choice.taken { opacity: .6; cursor: default; }
.seat-actions { display: grid; gap: .4rem; }
.seat-error, .char-error { color: var(--hostile); margin: .4rem 0 0; }
.seat-error:empty { display: none; }
.seat-note { color: var(--neutral); }
.spectator-note { display: none; margin: .5rem; color: var(--muted); font-size: .85rem; }
body.spectator .spectator-note { display: block; }
body.spectator .chat .say, body.spectator .chat .tray { display: none; }
#panel-character { left: .75rem; width: 17rem; top: auto; bottom: .75rem; max-height: 48%; }
#panel-character .panel-body { border-radius: 0 10px 10px 10px; overflow: auto; }
body.panel-character-open #panel-initiative { bottom: calc(48% + 1.5rem); }
.character { padding: .6rem .8rem; display: flex; flex-direction: column; gap: .6rem; }
.character h3 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 .3rem; }
.character h4 { font-size: .8rem; margin: .4rem 0 .2rem; color: var(--muted); }
.character button { font: inherit; border: 1px solid var(--line); border-radius: 6px; background: var(--bg2); color: var(--fg); padding: .3rem .55rem; cursor: pointer; }
.character button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
.character .muted { color: var(--muted); margin: 0; }
.char-head { display: flex; align-items: center; gap: .5rem; }
.char-art { width: 2.2rem; height: 2.2rem; border-radius: 50%; object-fit: cover; }
.char-name { flex: 1; font-size: 1.05rem; }
.char-turn { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.char-initiative.asked { box-shadow: 0 0 0 3px var(--neutral); }
.your-turn { color: var(--friendly); font-weight: 700; }
.hp-line { font-size: 1.1rem; }
.hp-now { font-size: 1.6rem; font-weight: 700; }
.hp-temp { color: var(--accent); font-weight: 600; }
.hp-bar { height: .5rem; border-radius: 4px; background: var(--bg2); overflow: hidden; margin: .3rem 0; }
.hp-fill { height: 100%; background: var(--friendly); }
.char-hp.bloodied .hp-fill { background: var(--neutral); }
.char-hp.defeated .hp-fill { background: var(--hostile); }
.hp-edit, .hp-max-edit { display: flex; gap: .3rem; align-items: center; flex-wrap: wrap; margin-top: .3rem; }
.hp-edit input, .hp-max-edit input { width: 4.5rem; font: inherit; padding: .3rem; border-radius: 6px; border: 1px solid var(--line); background: var(--input); color: var(--fg); }
.saves { display: flex; gap: .3rem; align-items: center; }
.saves span { width: 5.5rem; }
.saves button.on { color: var(--accent); }
.char-effects ul { margin: 0; padding-left: 1.1rem; }
.adv { display: flex; gap: .3rem; margin-bottom: .3rem; }
.adv button[aria-checked=true], .adv button[aria-pressed=true] { background: var(--accent); color: #fff; border-color: var(--accent); }
.action-list { display: flex; flex-wrap: wrap; gap: .3rem; }
.action-attack { border-color: var(--hostile) !important; }
.last-roll { font-weight: 600; margin: .2rem 0; }
.seat-strip { position: absolute; left: .5rem; bottom: .5rem; z-index: 6; display: flex; gap: .4rem; flex-wrap: wrap; align-items: center;
  background: #111318cc; color: #eef0f4; border-radius: 10px; padding: .35rem .6rem; font-size: 1rem; }
.seat-pill { padding: .1rem .5rem; border-radius: 999px; background: #2b313c; }
.seat-pill.taken { background: #2d64d8; }
@media (max-width: 600px) {
  #panel-character { left: 0; right: 0; width: auto; top: auto; bottom: 3rem; height: 70%; max-height: none; }
  body.panel-character-open #panel-initiative { bottom: 3rem; }
  body:not([data-tab=character]) #panel-character { display: none; }
  #panel-character .panel-toggle { display: none; }
  #panel-character:not(.open) .panel-body { display: flex; }
  .seat-button { max-width: 9rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
}
`;

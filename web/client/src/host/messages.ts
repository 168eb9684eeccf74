// The Messages card: the last thirty messages (private rolls and whispers marked)
// and the form to say something or roll, as the game master or as a
// combatant, privately or not. Rules in message-rules.ts.
import { errorText, hostAPI } from "../net/host-api";
import { busy } from "../ui/busy";
import { $, el, replaceChildren, say } from "./dom";
import { drawn, load, setLoader } from "./console-state";
import { messageBody, messageText, privateTag, speaker, speakerNames } from "./message-rules";
import type { HostCampaign as CampaignView, Message } from "./types";

export function drawSpeakers(view: CampaignView): void {
  const sel = $<HTMLSelectElement>("message-as");
  const keep = sel.value;
  replaceChildren(sel, [el("option", { value: "" }, "Game master"), ...speakerNames(view).map((n) => el("option", { value: n, selected: n === keep }, n))]);
}

async function loadMessages(): Promise<void> {
  const list = await hostAPI<Message[] | null>("GET", "messages");
  if (!drawn.changed("messages", list)) return;
  const box = $("message-list");
  replaceChildren(
    box,
    (list ?? []).slice(-30).map((m) =>
      el("li", { className: m.private ? "private" : "" }, m.private ? el("span", { className: "tag" }, privateTag(m)) : null, el("strong", {}, `${speaker(m)}: `), messageText(m)),
    ),
  );
  box.scrollTop = box.scrollHeight;
}

export function startMessages(): void {
  setLoader("messages", loadMessages);
  $("message-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $<HTMLInputElement>("message-text");
    const body = messageBody(text.value, $<HTMLSelectElement>("message-as").value, $<HTMLInputElement>("message-private").checked);
    if (!body) return;
    busy($<HTMLButtonElement>("message-send"), async () => {
      try {
        await hostAPI("POST", "messages", body);
        text.value = "";
        say("messages-msg", body.private ? "Rolled privately: players never see it." : "");
        await load("messages");
      } catch (e) {
        say("messages-msg", errorText(e), "bad");
      }
    });
  });
}

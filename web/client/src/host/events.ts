// The host socket's events as the GM map passes them on to the page
// ("companion:host-event", "companion:host-socket" DOM events: the map is
// another bundle), and the page's own "companion:campaign".
import type { ServerEvents } from "../wire.gen";
import type { HostCampaign as CampaignView } from "./types";

/** The name of an event the server sends (the wire description's x-events). */
export type HostEventName = keyof ServerEvents;

/** An event as the GM map passes it on: its name decides its data. */
export type HostEnvelope = { [K in HostEventName]: { name: K; data?: ServerEvents[K] } }[HostEventName];

/** Calls fn with each event's name and envelope. */
export function onHostEvent(fn: (name: HostEventName, env: HostEnvelope) => void): void {
  window.addEventListener("companion:host-event", (ev) => {
    const env = (ev as CustomEvent<HostEnvelope | null>).detail;
    if (env && typeof env.name === "string") fn(env.name, env);
  });
}

/** Calls fn with the socket's state (open, connecting, …) as it changes. */
export function onSocketState(fn: (state: string) => void): void {
  window.addEventListener("companion:host-socket", (ev) => fn(String((ev as CustomEvent<unknown>).detail)));
}

/** Tells the page's other parts the campaign view drawn. */
export function announceCampaign(view: CampaignView): void {
  window.dispatchEvent(new CustomEvent("companion:campaign", { detail: view }));
}

/** Calls fn with each campaign view drawn. */
export function onCampaign(fn: (view: CampaignView) => void): void {
  window.addEventListener("companion:campaign", (ev) => fn((ev as CustomEvent<CampaignView>).detail ?? {}));
}

import { createContext, type ReactElement, useContext } from "react";

/**
 * Server-rendered markup kept between requests for parts of the frame (sidebar, header) that are a
 * pure function of a few inputs: rendering them with React was ~30% of a signed-in page's CPU.
 *
 * `<Kept inputs={[…]}>` wraps one element. In the browser (no context) it renders the three slots
 * `null, element, null`. On the server it renders `<template start/>, element, <template end/>`
 * the first time its key (id + inputs) is seen, and the markup between the markers is kept; later
 * renders put one placeholder `<template>` in its place and {@link KeptRender.finish} splices the
 * kept markup in. The three-slot shape is the same on both sides, so useId values inside the
 * element (derived from the tree position) are the same in kept, fresh and hydrated markup.
 *
 * Rules for what goes inside: every value the element's markup depends on must be in `inputs`
 * (they form the key), the element must render no hoisted tags (`<link>`, `<meta>`, `<title>`,
 * image preloads: emit those outside, see the logo preload in the root route), no nonce, and it
 * must start and end with an element (text at its edges would change React's text separators).
 */
export function Kept({ id, inputs, children }: { id: string; inputs: unknown[]; children: ReactElement }) {
  const kept = useContext(KeptContext);
  // Static JSX children (not a returned array), so React asks for no keys; three slots on both sides.
  if (!kept) {
    return (
      <>
        {null}
        {children}
        {null}
      </>
    );
  }
  const slot = kept.enter(`${id}\u0000${JSON.stringify(inputs)}`);
  if (slot.isKept) {
    return (
      <>
        <template data-tw-kept={slot.index} />
        {null}
        {null}
      </>
    );
  }
  return (
    <>
      <template data-tw-keep={slot.index} />
      {children}
      <template data-tw-keep-end={slot.index} />
    </>
  );
}

export const KeptContext = createContext<KeptRender | null>(null);

/** Kept markup shared by every render of this server process, least recently used out first. */
export class KeptStore {
  readonly #parts = new Map<string, string>();
  constructor(readonly maxEntries = 256) {}

  get(key: string): string | undefined {
    const html = this.#parts.get(key);
    if (html !== undefined) {
      // Re-inserting moves the key to the end: Map iteration order is the eviction order.
      this.#parts.delete(key);
      this.#parts.set(key, html);
    }
    return html;
  }

  set(key: string, html: string): void {
    this.#parts.delete(key);
    this.#parts.set(key, html);
    while (this.#parts.size > this.maxEntries) {
      const oldest = this.#parts.keys().next().value;
      if (oldest === undefined) break;
      this.#parts.delete(oldest);
    }
  }

  get size(): number {
    return this.#parts.size;
  }
}

/** One server render's use of the store: which slots were kept, which are to be kept. */
export class KeptRender {
  readonly #slots: { key: string; html: string | undefined }[] = [];
  constructor(readonly store: KeptStore | null) {}

  enter(key: string): { index: number; isKept: boolean } {
    // Without a store (turned off) every slot renders fresh, with the same markers.
    const html = this.store?.get(key);
    this.#slots.push({ key, html });
    return { index: this.#slots.length - 1, isKept: html !== undefined };
  }

  get isUsed(): boolean {
    return this.#slots.length > 0;
  }

  /** Splices kept markup into the rendered HTML, keeps the fresh parts and removes the markers. */
  finish(html: string): string {
    let out = html;
    this.#slots.forEach((slot, index) => {
      if (slot.html !== undefined) {
        const marker = `<template data-tw-kept="${index}"></template>`;
        const at = out.indexOf(marker);
        if (at >= 0) out = out.slice(0, at) + slot.html + out.slice(at + marker.length);
        return;
      }
      const start = `<template data-tw-keep="${index}"></template>`;
      const end = `<template data-tw-keep-end="${index}"></template>`;
      const from = out.indexOf(start);
      const to = out.indexOf(end, from);
      // A render that failed half-way (an error screen) may lack the markers: nothing to keep.
      if (from < 0 || to < 0) return;
      const part = out.slice(from + start.length, to);
      this.store?.set(slot.key, part);
      out = out.slice(0, from) + part + out.slice(to + end.length);
    });
    return out;
  }
}

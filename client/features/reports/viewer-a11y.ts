// Perspective's viewer renders its settings panel and grid in shadow DOM without names for some of
// its controls. This names them (and keeps naming them: the viewer re-renders its panel and the grid
// re-renders its cells as they scroll), so the screen passes axe like the rest of the app.

/** Names for the viewer's unnamed inputs, by the field they add to (`for` of their text field). */
const FIELD_INPUTS: Record<string, string> = {
  group_by: "Add a row group column",
  split_by: "Add a split column",
  sort: "Add a sort column",
  filter: "Add a filter column",
};

/** Names for the viewer's unnamed selects, by selector. */
const SELECTS: [selector: string, label: string][] = [
  ["#group_rollup_mode_selector", "Row totals"],
  ["#split_rollup_mode_selector", "Column totals"],
  [".aggregate-selector > select", "Aggregate"],
];

function setIfMissing(element: Element, name: string, value: string) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** Names the settings panel's inputs and selects; marks its drop lists and scroll areas. */
export function labelViewerPanel(root: ShadowRoot): void {
  for (const field of root.querySelectorAll(".psp-text-field__input[for]")) {
    const label = FIELD_INPUTS[field.getAttribute("for") ?? ""];
    // A list of column chips with a text box among them: a group, not a list of items.
    setIfMissing(field, "role", "group");
    if (!label) continue;
    setIfMissing(field, "aria-label", label.replace(/^Add an? /, "").replace(/ column$/, ""));
    for (const input of field.querySelectorAll("input:not([aria-label])"))
      setIfMissing(input, "aria-label", label);
  }
  for (const input of root.querySelectorAll(".column-selector-column input:not([aria-label])")) {
    setIfMissing(input, "aria-label", "Add a value column");
  }
  for (const [selector, label] of SELECTS) {
    for (const select of root.querySelectorAll(selector)) {
      if (!select.hasAttribute("aria-label")) setIfMissing(select, "aria-label", label);
    }
  }
  // Scrollable lists of columns can be reached with the keyboard.
  for (const area of root.querySelectorAll("#sub-columns")) setIfMissing(area, "tabindex", "0");
}

/** Header cells the grid leaves empty (the corner over the row labels) are not headers of anything. */
export function labelGrid(root: ShadowRoot): void {
  for (const cell of root.querySelectorAll("th")) {
    if (!cell.textContent?.trim() && !cell.querySelector("*:not(:empty)")) setIfMissing(cell, "role", "cell");
  }
}

/**
 * Keeps the viewer's panel and its grid named while it lives; returns the function that stops it.
 * The observers only add attributes, never change what Perspective renders.
 */
export function keepViewerLabelled(viewer: HTMLElement): () => void {
  const observers: MutationObserver[] = [];
  const watch = (root: ShadowRoot, label: (root: ShadowRoot) => void) => {
    label(root);
    const observer = new MutationObserver(() => label(root));
    observer.observe(root, { subtree: true, childList: true });
    observers.push(observer);
  };
  const watched = new WeakSet<ShadowRoot>();
  const watchGrids = () => {
    for (const grid of viewer.querySelectorAll("perspective-viewer-datagrid")) {
      const root = grid.shadowRoot;
      if (root && !watched.has(root)) {
        watched.add(root);
        watch(root, labelGrid);
      }
    }
  };
  if (viewer.shadowRoot) watch(viewer.shadowRoot, labelViewerPanel);
  watchGrids();
  const plugins = new MutationObserver(watchGrids);
  plugins.observe(viewer, { childList: true });
  observers.push(plugins);
  return () => {
    for (const observer of observers) observer.disconnect();
  };
}

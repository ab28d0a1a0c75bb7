/**
 * Focuses the page's main heading (or the main region when a screen has none), so keyboard and
 * screen-reader users continue from the top of the content after a navigation, a save or a delete
 * instead of from <body>.
 */
export function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>("main h1") ?? document.getElementById("main");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: false });
}

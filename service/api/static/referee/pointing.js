// Pointing at a game's board on /play, as the boards drawn on a game's picture share it: a target lit (it stands for
// some legal step) or not, pressed (chosen) or not, a transparent area over a part of the picture painted by its
// state, and the pointer and the keyboard wired to the board.

// A target lit or not. A button is disabled when unlit; a part of the picture stops being a button (no role, no
// name, out of the Tab order) so that nothing unlit can be chosen. `data-lit` marks what the roving tabindex moves
// among.
export function light(node, lit) {
  if (node.tagName.toLowerCase() === "button") {
    node.disabled = !lit;
    node.style.borderColor = lit ? "var(--accent)" : "";
  } else if (!lit) {
    node.removeAttribute("tabindex");
    node.removeAttribute("role");
    node.removeAttribute("aria-label");
    node.removeAttribute("aria-pressed");
  } else {
    node.setAttribute("role", "button");
  }
  if (lit) node.dataset.lit = ""; else delete node.dataset.lit;
}

// A target chosen (true), not chosen (false), or not a thing that is chosen at all (null)
export function press(node, on) {
  if (on === null) node.removeAttribute("aria-pressed"); else node.setAttribute("aria-pressed", String(on));
}

// A transparent area over a part of the picture (an SVG rect): its edge dashed when lit, solid in `ink` when
// focused, and filled faintly in `lit` when chosen
export function paintHit(hit, focused, {lit: litColour, ink}) {
  const lit = "lit" in hit.dataset;
  const on = hit.getAttribute("aria-pressed") === "true";
  const focus = focused === undefined ? document.activeElement === hit : focused;
  hit.setAttribute("fill", on ? litColour : "transparent");
  hit.setAttribute("fill-opacity", on ? "0.16" : "1");
  hit.setAttribute("stroke", !lit ? "none" : focus ? ink : litColour);
  hit.setAttribute("stroke-width", focus ? "4" : on ? "3" : "2");
  hit.setAttribute("stroke-dasharray", on || focus ? "none" : "5 4");
}

// The board's pointer and keys: a click, or Enter or Space on a lit target that is not a button (a button clicks
// itself), calls activate(target); Escape calls putBack() when canPutBack(); a focused part of the picture is
// repainted by paint(node, focused). What it returns says whether the last pointing was by the keyboard (the focus
// then comes back to the board after each drawing).
export function wire(root, selector, {activate, putBack, canPutBack, paint}) {
  const state = {keyboard: false};
  root.addEventListener("click", (event) => {
    const node = event.target.closest && event.target.closest(selector);
    if (!node || !root.contains(node) || !("lit" in node.dataset)) return;
    event.preventDefault();
    activate(node);
  });
  root.addEventListener("keydown", (event) => {
    state.keyboard = true;
    if (event.key === "Escape" && canPutBack()) {
      event.preventDefault();
      putBack();
      return;
    }
    const node = event.target.closest && event.target.closest(selector);
    if (!node || node.tagName.toLowerCase() === "button" || !("lit" in node.dataset)) return;
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    activate(node);
  });
  root.addEventListener("pointerdown", () => { state.keyboard = false; });
  root.addEventListener("focusin", (event) => paint(event.target, true));
  root.addEventListener("focusout", (event) => paint(event.target, false));
  return state;
}

// What the referee's pages share (the scoring page, referee.js; the replay page, ../replay/replay.js): making
// elements, drawing an SVG answer, announcing to screen readers, redrawing without losing the focus, copying to the
// clipboard. No framework.

export function el(tag, props, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of [].concat(children || [])) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(child) : child);
  }
  return node;
}

export function svgNode(svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = doc.documentElement;
  return svg && svg.nodeName.toLowerCase() === "svg" ? document.importNode(svg, true) : null;
}

// announce(message) into a live region: cleared first, so that the same sentence twice is read twice
export function announcer(region) {
  return (message) => {
    region.textContent = "";
    window.setTimeout(() => { region.textContent = message; }, 30);
  };
}

// redraw(scopes, draw): draw(), then give the focus back to the control that had it inside one of `scopes` (the
// control with its aria-label, as the drawing replaced it), so that editing by keyboard keeps its place
export function redraw(scopes, draw) {
  const active = document.activeElement;
  const focused = active && scopes.some((scope) => scope.contains(active)) && active.getAttribute("aria-label");
  draw();
  if (!focused) return;
  const again = scopes.flatMap((scope) => [...scope.querySelectorAll("input, select, button, textarea")])
    .find((node) => node.getAttribute("aria-label") === focused);
  if (again && !again.disabled) again.focus();
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    const area = el("textarea", {class: "visually-hidden", "aria-hidden": "true"});
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch (e2) { done = false; }
    area.remove();
    return done;
  }
}

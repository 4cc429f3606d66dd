// What the referee's pages share (the scoring page, referee.js; the replay page, ../replay/replay.js): making
// elements, drawing an SVG answer, announcing to screen readers, redrawing without losing the focus, copying to the
// clipboard, bringing an answer into view with the focus on it, and the cues of a box that scrolls. No framework.

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

// reveal(node): bring a node the page just filled (a verdict, the problems) into view, unless it is already
// wholly in view, and give it the focus, so that a screen reader reads it and a phone shows it (the node has
// tabindex="-1"). At once, not smoothly: the page is where it will stay as soon as the answer is there.
export function reveal(node) {
  if (!node || node.hidden) return;
  const box = node.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) node.scrollIntoView({block: "start", behavior: "instant"});
  node.focus({preventScroll: true});
}

// scrollCues(root, hint): the boxes inside root that scroll (class "board-scroll", or any with data-scroll-cues)
// say so while they do: data-more="left right up down" names the sides where more lies beyond (page.css fades those
// edges), and a hint stands just before the box (p.scroll-hint, its text hint(axis), axis "x", "y" or "xy").
// A box with data-scroll-cues="own" shows its own hint (the edges still fade); "off": no cue at all. Watches the
// boxes as the root's content changes, the window resizes and the boxes scroll.
export function scrollCues(root, hint) {
  const hints = new WeakMap();
  const watched = new WeakSet();
  const sizes = new ResizeObserver(() => schedule());
  let frame = 0;

  function schedule() {
    if (!frame) frame = window.requestAnimationFrame(() => { frame = 0; refresh(); });
  }

  function mark(box) {
    const cues = box.dataset.scrollCues;
    const wide = cues !== "off" && box.scrollWidth - box.clientWidth > 1;
    const tall = cues !== "off" && box.scrollHeight - box.clientHeight > 1;
    const more = [];
    if (wide && box.scrollLeft > 1) more.push("left");
    if (wide && box.scrollLeft < box.scrollWidth - box.clientWidth - 1) more.push("right");
    if (tall && box.scrollTop > 1) more.push("up");
    if (tall && box.scrollTop < box.scrollHeight - box.clientHeight - 1) more.push("down");
    const said = more.join(" ");
    if (said && box.dataset.more !== said) box.dataset.more = said;
    else if (!said && box.hasAttribute("data-more")) box.removeAttribute("data-more");
    const axis = wide && tall ? "xy" : wide ? "x" : tall ? "y" : "";
    let note = hints.get(box);
    if (!axis || cues === "own") {
      if (note && !note.hidden) note.hidden = true;
      return;
    }
    if (!note) {
      note = el("p", {class: "scroll-hint"});
      hints.set(box, note);
    }
    const text = hint(axis);
    if (note.textContent !== text) note.textContent = text;
    if (note.dataset.axis !== axis) note.dataset.axis = axis;
    if (note.hidden) note.hidden = false;
    if (box.previousElementSibling !== note) box.before(note);
  }

  function refresh() {
    for (const box of root.querySelectorAll(".board-scroll, [data-scroll-cues]")) {
      if (!watched.has(box)) {
        watched.add(box);
        sizes.observe(box);
        box.addEventListener("scroll", () => mark(box), {passive: true});
      }
      for (const child of box.children) sizes.observe(child); // (observing again is harmless)
      mark(box);
    }
  }

  new MutationObserver(schedule).observe(root, {childList: true, subtree: true});
  window.addEventListener("resize", schedule);
  schedule();
  return schedule; // to look again at once
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

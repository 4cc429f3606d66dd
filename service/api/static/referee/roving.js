// One Tab stop for a board's items, the arrow keys moving among them as they lie on the screen (WAI-ARIA's roving
// tabindex), shared by the games' editors.

// roving(container, selector, keyOf, preferred): one Tab stop for a set of items (a board, a palette): the current item has tabindex 0,
// the others -1; the arrow keys move the focus to the nearest item that way as they lie on the screen, Home and End
// to the first and the last. settle() after each drawing (the current item kept by its key, else the first
// matching `preferred`, else the first);
// current(key) names the item to be current; focus() settles and focuses it.
export function roving(container, selector, keyOf, preferred) {
  let current = null;
  const items = () => [...container.querySelectorAll(selector)];
  function mark(chosen) {
    for (const item of items()) item.setAttribute("tabindex", item === chosen ? "0" : "-1");
  }
  function settle() {
    const all = items();
    const chosen = all.find((item) => keyOf(item) === current) ||
      (preferred && all.find((item) => item.matches(preferred))) || all[0] || null;
    current = chosen ? keyOf(chosen) : null;
    mark(chosen);
    return chosen;
  }
  function nearest(from, dx, dy) {
    const box = from.getBoundingClientRect();
    const x0 = box.left + box.width / 2, y0 = box.top + box.height / 2;
    let best = null, bestScore = Infinity;
    for (const item of items()) {
      if (item === from) continue;
      const b = item.getBoundingClientRect();
      const x = b.left + b.width / 2 - x0, y = b.top + b.height / 2 - y0;
      const along = x * dx + y * dy, across = Math.abs(x * dy - y * dx);
      if (along < 2 || across > along * 2) continue; // that way: within 63° of the arrow
      const score = along + 2 * across;
      if (score < bestScore) { best = item; bestScore = score; }
    }
    return best;
  }
  container.addEventListener("focusin", (event) => {
    const item = event.target.closest && event.target.closest(selector);
    if (!item || !container.contains(item)) return;
    current = keyOf(item);
    mark(item);
  });
  container.addEventListener("keydown", (event) => {
    const item = event.target.closest && event.target.closest(selector);
    if (!item || event.altKey || event.ctrlKey || event.metaKey) return;
    const arrows = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1]};
    let next = null;
    if (arrows[event.key]) next = nearest(item, ...arrows[event.key]);
    else if (event.key === "Home") next = items()[0];
    else if (event.key === "End") next = items().slice(-1)[0];
    else return;
    event.preventDefault();
    if (next) next.focus();
  });
  return {settle, current: (k) => { current = k; }, key: () => current,
          focus() { const item = settle(); if (item) item.focus(); }};
}

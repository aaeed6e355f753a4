// Availability grid: painted in the browser, saved once with the Save button.
// What is painted is chosen first: «Свободен» ("1"), «Если нужно» ("2") or «Стереть» ("0") — the buttons with
// data-paint-kind (components/availability_grid.py); «Свободен» until another is chosen.
// Mouse and pen: press and drag; every cell between two samples takes the chosen kind, however fast the drag.
// Touch: a swipe only scrolls (touch-action in the CSS); painting is deliberate — tap the first cell of a range,
// then its last cell: every cell between them (the days between, the hours between) takes the chosen kind.
// Tapping the first cell again keeps just that one cell.
(function () {
  if (window.discardGrid) return;
  let painting = false;
  let kind = "1"; // what a drag or a tapped range paints: the pressed data-paint-kind button
  let dirty = false;
  let last = null; // [day, slot] of the previous mouse sample
  let anchor = null; // the first tapped cell of a touch range
  let pointerType = "mouse";
  const cells = () => Array.from(document.querySelectorAll("[data-cell]"));
  const pos = (cell) => cell.dataset.cell.split(",").map(Number);
  const byPos = () => new Map(cells().map((c) => [c.dataset.cell, c]));
  const cellAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest("[data-cell]") : null;
  };
  const mark = () => {
    const note = document.getElementById("grid-unsaved");
    if (note) note.dataset.dirty = dirty ? "1" : "0";
  };
  const QUESTION = "Доступность не сохранена. Уйти со страницы?";
  const ARIA = { "0": "false", "1": "true", "2": "mixed" };
  const set = (cell, on) => {
    if (!cell || cell.dataset.state === "x" || cell.dataset.past === "1") return; // a begun half hour stays
    const next = on === true ? "1" : on === false ? "0" : on;
    if (cell.dataset.state === next) return;
    cell.dataset.state = next;
    cell.setAttribute("aria-checked", ARIA[next]);
    dirty = true;
    mark();
  };
  // Every cell on the straight line between two samples (in day/slot steps): a fast drag skips none.
  const line = (from, to, on) => {
    const map = byPos();
    const steps = Math.max(Math.abs(to[0] - from[0]), Math.abs(to[1] - from[1]), 1);
    for (let i = 0; i <= steps; i++) {
      const d = Math.round(from[0] + ((to[0] - from[0]) * i) / steps);
      const s = Math.round(from[1] + ((to[1] - from[1]) * i) / steps);
      set(map.get(d + "," + s), on);
    }
  };
  const rectangle = (a, b, on) => {
    const [d0, d1] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
    const [s0, s1] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
    cells().forEach((c) => {
      const [d, s] = pos(c);
      if (d >= d0 && d <= d1 && s >= s0 && s <= s1) set(c, on);
    });
  };
  const setAnchor = (cell) => {
    if (anchor) anchor.removeAttribute("data-anchor");
    anchor = cell;
    if (cell) cell.setAttribute("data-anchor", "1");
    const hint = document.getElementById("grid-anchor");
    if (hint) hint.dataset.active = cell ? "1" : "0";
  };
  document.addEventListener("pointerdown", (ev) => {
    pointerType = ev.pointerType || "mouse";
    if (pointerType === "touch") return; // taps arrive as clicks; a swipe must scroll
    const cell = ev.target.closest ? ev.target.closest("[data-cell]") : null;
    if (!cell || cell.dataset.state === "x" || cell.dataset.past === "1") return;
    painting = true;
    last = pos(cell);
    set(cell, kind);
    ev.preventDefault();
  });
  document.addEventListener("pointermove", (ev) => {
    if (!painting || ev.pointerType === "touch") return;
    const samples = ev.getCoalescedEvents ? ev.getCoalescedEvents() : [];
    for (const sample of samples.length ? samples : [ev]) {
      const cell = cellAt(sample.clientX, sample.clientY);
      if (!cell) continue;
      const here = pos(cell);
      line(last || here, here, kind);
      last = here;
    }
  });
  const stop = () => { painting = false; last = null; };
  document.addEventListener("pointerup", stop);
  document.addEventListener("pointercancel", stop);
  document.addEventListener("click", (ev) => {
    const week = ev.target.closest ? ev.target.closest("[data-week-switch]") : null;
    if (week) {
      const grid = document.querySelector(".grid-weeks");
      if (grid) grid.dataset.showWeek = week.dataset.weekSwitch;
      document.querySelectorAll("[data-week-switch]").forEach((b) => {
        b.setAttribute("aria-pressed", b === week ? "true" : "false");
      });
      return;
    }
    const chosen = ev.target.closest ? ev.target.closest("[data-paint-kind]") : null;
    if (chosen) {
      kind = chosen.dataset.paintKind;
      document.querySelectorAll("[data-paint-kind]").forEach((b) => {
        b.setAttribute("aria-pressed", b === chosen ? "true" : "false");
      });
      return;
    }
    const fill = ev.target.closest ? ev.target.closest("[data-fill]") : null;
    if (fill) {
      // data-fill="day,from,to" (day -1 = every day); every cell in range already free clears them instead.
      const [day, from, to] = fill.dataset.fill.split(",").map(Number);
      const range = cells().filter((c) => {
        const [d, s] = pos(c);
        return (day < 0 || d === day) && s >= from && s < to && c.dataset.state !== "x" && c.dataset.past !== "1";
      });
      const on = !range.every((c) => c.dataset.state === "1");
      range.forEach((c) => set(c, on));
      setAnchor(null);
      return;
    }
    const cell = ev.target.closest ? ev.target.closest("[data-cell]") : null;
    if (cell && pointerType === "touch") {
      if (cell.dataset.state === "x" || cell.dataset.past === "1") return;
      if (anchor === null) {
        set(cell, kind);
        setAnchor(cell);
      } else {
        if (cell !== anchor) rectangle(pos(anchor), pos(cell), kind);
        setAnchor(null);
      }
      return;
    }
  }, true);
  // The Save form sends the painted grid in its hidden field: filled here, before the page's own submit handler
  // (a listener on the document in the capture phase runs before React's) reads the form.
  document.addEventListener("submit", (ev) => {
    const field = ev.target && ev.target.id === "grid-save-form" ? ev.target.querySelector("input[name=grid]") : null;
    if (field) field.value = window.discardGrid.serialize();
  }, true);
  // Unsaved painting is asked about by the site's one guard (assets/forms.js), whichever way the page is left.
  // Without grid cells there is nothing to lose.
  if (window.discardUnsaved) window.discardUnsaved.register({
    question: () => {
      if (dirty && !document.querySelector("[data-cell]")) { dirty = false; mark(); }
      return dirty ? QUESTION : "";
    },
    forget: () => { dirty = false; setAnchor(null); mark(); },
  });
  window.discardGrid = {
    serialize: () => cells().map((c) => (c.dataset.state === "1" || c.dataset.state === "2" ? c.dataset.state : "0")).join(""),
    saved: () => { dirty = false; setAnchor(null); mark(); },
    // Fills the grid from a string like serialize() gives (copied from the previous tour) for review; unsaved.
    load: (painted) => { cells().forEach((c, i) => set(c, painted[i] === "1" || painted[i] === "2" ? painted[i] : "0")); },
    isDirty: () => dirty,
  };
})();

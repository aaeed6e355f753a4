// Availability grid: painted in the browser by mouse, pen or touch, saved once with the Save button.
(function () {
  if (window.discardGrid) return;
  let painting = false;
  let value = false;
  let dirty = false;
  const cells = () => Array.from(document.querySelectorAll("[data-cell]"));
  const cellAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest("[data-cell]") : null;
  };
  const mark = () => {
    const note = document.getElementById("grid-unsaved");
    if (note) note.dataset.dirty = dirty ? "1" : "0";
  };
  const set = (cell, on) => {
    if (!cell || cell.dataset.state === "x") return;
    const next = on ? "1" : "0";
    if (cell.dataset.state === next) return;
    cell.dataset.state = next;
    cell.setAttribute("aria-checked", on ? "true" : "false");
    dirty = true;
    mark();
  };
  document.addEventListener("pointerdown", (ev) => {
    const cell = ev.target.closest ? ev.target.closest("[data-cell]") : null;
    if (!cell || cell.dataset.state === "x") return;
    if (cell.hasPointerCapture && cell.hasPointerCapture(ev.pointerId)) cell.releasePointerCapture(ev.pointerId);
    painting = true;
    value = cell.dataset.state !== "1";
    set(cell, value);
    ev.preventDefault();
  });
  document.addEventListener("pointermove", (ev) => {
    if (painting) set(cellAt(ev.clientX, ev.clientY), value);
  });
  const stop = () => { painting = false; };
  document.addEventListener("pointerup", stop);
  document.addEventListener("pointercancel", stop);
  document.addEventListener("click", (ev) => {
    const fill = ev.target.closest ? ev.target.closest("[data-fill]") : null;
    if (fill) {
      // data-fill="day,from,to" (day -1 = every day); every cell in range already free clears them instead.
      const [day, from, to] = fill.dataset.fill.split(",").map(Number);
      const range = cells().filter((c) => {
        const [d, s] = c.dataset.cell.split(",").map(Number);
        return (day < 0 || d === day) && s >= from && s < to && c.dataset.state !== "x";
      });
      const on = !range.every((c) => c.dataset.state === "1");
      range.forEach((c) => set(c, on));
      return;
    }
    const link = ev.target.closest ? ev.target.closest("a[href]") : null;
    if (link && dirty && !window.confirm("Доступность не сохранена. Уйти со страницы?")) {
      ev.preventDefault();
      ev.stopPropagation();
    }
  }, true);
  window.addEventListener("beforeunload", (ev) => {
    if (!dirty) return;
    ev.preventDefault();
    ev.returnValue = "";
  });
  window.discardGrid = {
    serialize: () => cells().map((c) => (c.dataset.state === "1" ? "1" : "0")).join(""),
    saved: () => { dirty = false; mark(); },
    isDirty: () => dirty,
  };
})();

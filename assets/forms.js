// The site's forms in the browser, one script for every page: what was typed and not sent, and a second press.
// Unsaved work is asked about once, whichever way the page is left: a link, the phone menu, logout (elements
// marked data-leaves), the back button, a reload. What can be lost: a form of the site (data-action-form) typed
// into and not yet sent, and whatever a page registers (the availability grid's painting). Leaving through the
// question forgets it all, so the next page never asks again.
// A second press of the same form — nothing typed since, the same fields, within SAME_PRESS_MS — goes with the first
// press's one-time key (action_key), however the page re-rendered meanwhile with a new one: the server answers it
// as it answered the first and changes nothing. A field the page emptied after the first press (a form cleared on
// success) is still the same field: a double tap's second press sees the emptied form, and is the same press.
// (Capture listeners: they run before the form's own handlers.)
(function () {
  if (window.discardUnsaved) return;
  const FORM_QUESTION = "Введённое в форму не сохранено. Уйти со страницы?";
  const KEY_FIELD = "action_key"; // discard_app/state/action.py
  const SAME_PRESS_MS = 10000;
  const sources = []; // {question: () => text or "", forget: () => void}, registered by pages (the grid)
  const typed = new Set(); // forms typed into since they were last sent or emptied
  // The fields of a second press are the first press's, in order, each as it was or emptied.
  const samePress = (before, now) =>
    before.length === now.length && now.every(([k, v], i) => k === before[i][0] && (v === "" || v === before[i][1]));
  const formOf = (el) => (el && el.closest ? el.closest("form[data-action-form]") : null);
  const typing = (ev) => {
    const form = formOf(ev.target);
    if (!form || !ev.isTrusted) return;
    typed.add(form);
    form.discardPress = null; // typed since the last press: the next one is a new action
  };
  document.addEventListener("input", typing, true);
  document.addEventListener("change", typing, true);
  document.addEventListener("submit", (ev) => {
    const form = ev.target;
    typed.delete(form);
    const field = formOf(form) === form ? form.querySelector(`input[name=${KEY_FIELD}]`) : null;
    if (!field) return;
    const data = new FormData(form);
    data.delete(KEY_FIELD);
    const fields = [...data.entries()].map(([k, v]) => [k, typeof v === "string" ? v : v.name]);
    const last = form.discardPress;
    if (last && samePress(last.fields, fields) && Date.now() - last.at < SAME_PRESS_MS) {
      field.value = last.key;
    } else {
      field.value = field.dataset.key;
      form.discardPress = { fields, key: field.value, at: Date.now() };
    }
  }, true);
  document.addEventListener("reset", (ev) => typed.delete(ev.target), true);
  const question = () => {
    for (const source of sources) {
      const asked = source.question();
      if (asked) return asked;
    }
    for (const form of Array.from(typed)) {
      if (form.isConnected) return FORM_QUESTION;
      typed.delete(form); // the page that held it is gone
    }
    return "";
  };
  const forget = () => {
    sources.forEach((source) => source.forget());
    typed.clear();
  };
  const leave = () => {
    const asked = question();
    if (!asked) return true;
    if (!window.confirm(asked)) return false;
    forget();
    return true;
  };
  // A link or a leaving button: asked before the router (or the server's redirect) sees the click; staying stops it.
  document.addEventListener("click", (ev) => {
    const away = ev.target.closest ? ev.target.closest("a[href], [data-leaves]") : null;
    if (away && !leave()) {
      ev.preventDefault();
      ev.stopPropagation();
    }
  }, true);
  // The back (or forward) button inside the site is a same-document traversal: the router follows it on popstate,
  // which fires after the address moved and cannot be stopped. The Navigation API's navigate event comes first and
  // can be cancelled (once per user activation): staying keeps the page, its address and the work. A traversal to
  // another document cannot be cancelled here: beforeunload asks for it.
  if (window.navigation) {
    window.navigation.addEventListener("navigate", (ev) => {
      if (ev.navigationType !== "traverse" || !ev.cancelable) return;
      if (!leave()) ev.preventDefault();
    });
  }
  // Without the Navigation API the router has already left when popstate arrives: the work is gone, and
  // forgetting it keeps the next page from asking about it.
  window.addEventListener("popstate", () => {
    if (!window.navigation && question()) forget();
  });
  window.addEventListener("beforeunload", (ev) => {
    if (!question()) return;
    ev.preventDefault();
    ev.returnValue = "";
  });
  window.discardUnsaved = { register: (source) => sources.push(source), leave };
})();

// Registering players on the tournament's page (templates/tournaments/detail.html). No inline
// script (CSP).
//
// A full page reload after each name wiped what the director typed meanwhile (4 of 12 names
// lost in a quick session). Here each submit takes the names out of the box at once and sends
// them; the box is never swapped: the answer replaces only the results under it (and, out of
// band, the entrants), and the names refused come back into the box ahead of whatever was typed
// since. Submits go one after another, in the order they were made, so none is dropped.
(function () {
  "use strict";
  var queue = Promise.resolve();

  function box() { return document.getElementById("entrant-names"); }

  // Names refused (or a request that never got an answer) go back at the top of the box, each
  // on its own line and the next name on a line of its own: the caret stays where the
  // director is typing (a name typed on never runs into a refused one).
  function putBack(text) {
    var names = box();
    text = (text || "").replace(/^\s+|\s+$/g, "");
    if (!names || !text) { return; }
    var rest = names.value;
    var typing = document.activeElement === names;
    var start = names.selectionStart, end = names.selectionEnd;
    names.value = text + "\n" + rest;
    if (typing) {
      var shift = text.length + 1;
      names.setSelectionRange(start + shift, end + shift);
    }
  }

  // Enter registers; Shift+Enter starts another line (a pasted list keeps its lines).
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!target || target.id !== "entrant-names" || event.key !== "Enter") { return; }
    if (event.shiftKey || event.isComposing || !target.form) { return; }
    event.preventDefault();
    target.form.requestSubmit();
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!window.htmx || !form.matches || !form.matches("form[data-registration]")) { return; }
    event.preventDefault();
    var names = box(), reentry = form.elements.reentry_of, alternate = form.elements.alternate;
    var values = {
      name: names ? names.value : "",
      reentry_of: reentry ? reentry.value : "",
      alternate: alternate && alternate.checked ? "on" : ""
    };
    // Taken out of the box now: whatever is typed from here on is the next submit's.
    if (names) { names.value = ""; names.focus(); }
    if (reentry) { reentry.value = ""; }
    var url = form.getAttribute("action");
    queue = queue.then(function () {
      var answered = false;
      function seen(e) {
        var xhr = e.detail && e.detail.xhr;
        if (e.detail.elt === form && xhr) { answered = xhr.status === 200 || xhr.status === 422; }
      }
      function done() {
        document.removeEventListener("htmx:afterRequest", seen);
        if (!answered) { putBack(values.name); }  // never sent, or a server error: nothing lost
      }
      document.addEventListener("htmx:afterRequest", seen);
      return htmx.ajax("POST", url, {
        source: form, target: "#registration-results", swap: "outerHTML", values: values
      }).then(done, done);
    });
  });

  // The answer: the names refused back into the box, the box marked while any are there, and
  // the page's flash messages (from the last reload, e.g. an earlier "registered") gone, so
  // a refusal never shows beside a stale success line.
  document.addEventListener("htmx:afterSwap", function () {
    var results = document.getElementById("registration-results");
    if (!results || results.dataset.read === "true") { return; }
    results.dataset.read = "true";
    var refused = results.dataset.refused || "";
    putBack(refused);
    var names = box();
    if (names) {
      var invalid = refused !== "" || !!results.querySelector(".errorlist");
      if (invalid) { names.setAttribute("aria-invalid", "true"); } else { names.removeAttribute("aria-invalid"); }
    }
    document.querySelectorAll("body > .messages").forEach(function (list) { list.remove(); });
  });
})();

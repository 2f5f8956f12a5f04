// A text box that narrows a long checkbox list to the rows whose name contains what is
// typed (accents ignored), so choosing players works on a phone. CSP: no inline script.
// Without script the box stays hidden and the whole list is shown.
document.addEventListener("DOMContentLoaded", function () {
  function plain(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  document.querySelectorAll("input[data-filter-list]").forEach(function (input) {
    var list = document.getElementById(input.dataset.filterList);
    if (!list) return;
    var box = input.closest("[data-filter-box]");
    if (box) box.hidden = false;
    var rows = list.querySelectorAll("[data-filter-text]");
    var empty = list.querySelector("[data-filter-empty]");

    function apply() {
      var wanted = plain(input.value);
      var shown = 0;
      rows.forEach(function (row) {
        // A ticked row stays visible: what is chosen is never hidden.
        var checkbox = row.querySelector("input[type=checkbox]");
        var match = !wanted || plain(row.dataset.filterText).indexOf(wanted) !== -1 ||
          (checkbox && checkbox.checked);
        row.hidden = !match;
        if (match) shown += 1;
      });
      if (empty) empty.hidden = shown > 0;
    }

    input.addEventListener("input", apply);
    // Enter in the search box must not send the form.
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") event.preventDefault();
    });
    apply();
  });
});

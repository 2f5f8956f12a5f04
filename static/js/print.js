// "Print" opens the full standings and the browser's print dialog (CSP: no inline script).
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("a[data-print]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      if (new URLSearchParams(location.search).get("all") === "1") {
        event.preventDefault();
        window.print();
      }
    });
  });
  if (new URLSearchParams(location.search).get("print") === "1") window.print();
});

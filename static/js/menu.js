// The site's menu on one row when it fits, behind a "Menu" button when it does not (a
// phone, or a role with many items on a narrow screen). Without script the items wrap
// onto more rows, every one of them in sight: nothing depends on this file.
document.addEventListener("DOMContentLoaded", function () {
  var header = document.querySelector("header.site");
  var button = header && header.querySelector(".menu-toggle");
  var menu = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!menu) return;
  button.hidden = false;

  function open(yes) {
    header.classList.toggle("menu-open", yes);
    button.setAttribute("aria-expanded", yes ? "true" : "false");
  }

  // Collapsed when the items, laid out in full, need more than the brand's row.
  function fit() {
    header.classList.remove("menu-collapsed");
    var top = header.querySelector(".brand").getBoundingClientRect().top;
    var parts = Array.prototype.slice.call(menu.children);
    var lang = header.querySelector("nav.lang");
    if (lang) parts.push(lang);
    var wraps = parts.some(function (el) {
      return el.getBoundingClientRect().top > top + 12;
    });
    header.classList.toggle("menu-collapsed", wraps);
    if (!wraps) open(false);
  }

  button.addEventListener("click", function () {
    open(button.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && header.classList.contains("menu-open")) {
      open(false);
      button.focus();
    }
  });
  var pending = null;
  window.addEventListener("resize", function () {
    if (pending) window.cancelAnimationFrame(pending);
    pending = window.requestAnimationFrame(fit);
  });
  fit();
});

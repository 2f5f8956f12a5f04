// An embed tells the page that frames it how tall it is, so the club's site can size
// the <iframe> to its content (the snippet on the leader's website page listens).
(function () {
  function tell() {
    if (window.parent === window) return;
    window.parent.postMessage({ ranglijstHeight: document.documentElement.scrollHeight }, "*");
  }
  window.addEventListener("load", tell);
  window.addEventListener("resize", tell);
})();

// A form marked data-confirm says what it will do and asks before it is sent, in the
// <dialog> of base.html (CSP: no inline script). Without script the server answers the
// unconfirmed form with its own confirmation page, so nothing depends on this file.
document.addEventListener("DOMContentLoaded", function () {
  var dialog = document.getElementById("confirm-dialog");
  if (!dialog || typeof dialog.showModal !== "function") return;
  var text = dialog.querySelector("[data-confirm-text]");
  var pending = null;

  function hidden(form, name, value) {
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }

  dialog.addEventListener("close", function () {
    var waiting = pending;
    pending = null;
    if (!waiting || dialog.returnValue !== "yes") return;
    var form = waiting.form;
    hidden(form, "confirm", "1");
    if (waiting.submitter && waiting.submitter.name) {
      hidden(form, waiting.submitter.name, waiting.submitter.value);
    }
    form.dataset.confirmed = "1";
    form.submit();
  });

  // The form's own text, or its button's (a result button that changes a result).
  document.querySelectorAll("form[data-confirm], form:has(button[data-confirm])").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.confirmed === "1") return;
      var submitter = event.submitter || null;
      var message = (submitter && submitter.dataset.confirm) || form.dataset.confirm;
      if (!message) return;
      event.preventDefault();
      pending = { form: form, submitter: submitter };
      text.textContent = message;
      dialog.returnValue = "";
      dialog.showModal();
    });
  });
});

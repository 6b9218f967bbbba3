// The lobby: a rules file chosen is read into the form's rules field, which is sent as text.
"use strict";
document.getElementById("rules-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) {
    document.querySelector("textarea[name=rules]").value = await file.text();
  }
});

// A casual table in the browser: the server sends this seat's view as HTML, and the page sends
// back what the person clicks or types. The page keeps no game of its own.
"use strict";
(() => {
  const nameInput = document.getElementById("name");
  const errors = document.getElementById("errors");
  let socket = null;
  let wait = 500;

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  }

  function version() {
    return Number(document.getElementById("view").dataset.version);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + location.pathname + "/ws");
    socket.onopen = () => {
      wait = 500;
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view") {
        const focused = document.activeElement && document.activeElement.closest("#view");
        document.getElementById("view").outerHTML = message.html;
        errors.textContent = "";
        const first = document.querySelector("#view .actions button");
        if (focused && first) {
          first.focus();
        }
      } else if (message.type === "error") {
        errors.textContent = message.message;
      }
    };
    socket.onclose = () => {
      setTimeout(connect, wait * (0.5 + Math.random()));
      wait = Math.min(wait * 2, 10000);
    };
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("#view button");
    if (!button) {
      return;
    }
    const data = button.dataset;
    if (data.action !== undefined) {
      send({ type: "act", version: version(), action: data.action });
    } else if (data.sit !== undefined) {
      send({ type: "sit", seat: Number(data.sit), name: nameInput.value });
    } else if (data.bot !== undefined) {
      const level = document.querySelector(`select[data-bot-for="${data.bot}"]`).value;
      send({ type: "bot", seat: Number(data.bot), level: level });
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey) {
      return;
    }
    if (/^[1-9]$/.test(event.key)) {
      const button = document.querySelectorAll("#view .actions button")[Number(event.key) - 1];
      if (button) {
        event.preventDefault();
        button.click();
      }
    }
  });

  setInterval(() => {
    const clock = document.querySelector("#view .clock");
    if (clock) {
      const left = Math.max(0, Number(clock.dataset.deadlineIn) - 1);
      clock.dataset.deadlineIn = String(left);
      clock.textContent = `Time to play: ${left} s`;
    }
  }, 1000);

  connect();
})();

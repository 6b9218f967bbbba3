// A casual table in the browser: the server sends this seat's view as HTML, and the page sends
// back what the person clicks or types. The page keeps no game of its own.
"use strict";
(() => {
  const nameInput = document.getElementById("name");
  const errors = document.getElementById("errors");
  let socket = null;
  let wait = 500;

  const waiting = [];

  function send(message) {
    // What is done before the connection opens (or while it is made again) is sent once it is.
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    } else {
      waiting.push(message);
    }
  }

  function sameAs(element) {
    for (const name of ["data-action", "data-sit", "data-bot", "data-bot-for"]) {
      if (element.hasAttribute(name)) {
        return `#view [${name}="${CSS.escape(element.getAttribute(name))}"]`;
      }
    }
    return null;
  }

  function version() {
    return Number(document.getElementById("view").dataset.version);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + location.pathname + "/ws");
    socket.onopen = () => {
      wait = 500;
      while (waiting.length > 0) {
        socket.send(JSON.stringify(waiting.shift()));
      }
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "view") {
        const focused = document.activeElement && document.activeElement.closest("#view *");
        const same = focused ? sameAs(focused) : null;
        document.getElementById("view").outerHTML = message.html;
        errors.textContent = "";
        if (focused) {
          // Keep a keyboard user's place: the same control if it is still there, else the
          // first move.
          const next =
            (same && document.querySelector(same)) ||
            document.querySelector("#view .actions button, #view button");
          if (next) {
            next.focus();
          }
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

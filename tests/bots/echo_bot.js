// A bot in JavaScript for the protocol tests: it plays the first legal action, and writes to the
// file named on its command line each line it was sent and that line as JSON.parse read it, so
// that a test can check that no number lost a digit.
"use strict";
const fs = require("fs");
const readline = require("readline");

const out = process.argv[2];
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  fs.appendFileSync(out, JSON.stringify({ sent: line, read: JSON.stringify(message) }) + "\n");
  if (message.type === "hello") {
    process.stdout.write(JSON.stringify({ type: "ready" }) + "\n");
  } else if (message.type === "act") {
    const action = message.observation.legal_actions[0];
    process.stdout.write(JSON.stringify({ type: "action", action: action }) + "\n");
  } else {
    lines.close();
  }
});

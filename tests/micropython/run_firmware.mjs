// Runs the seat-board firmware under MicroPython's WebAssembly port (the real interpreter).
// usage: node run_firmware.mjs DIR ENTRY.py
// Every .py file of DIR is put in MicroPython's file system; ENTRY.py is run. The firmware's
// fake hal calls `halbridge.call(json)`: the call goes to this process's stdout as one line
// "\u0001<json>" and the answer is one line read (synchronously) from stdin, so the test in
// CPython answers with its fake MFRC522 chips. MicroPython's own output goes to stderr.
import fs from "fs";
import path from "path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [dir, entry] = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: 4 * 1024 * 1024,
  stdout: (line) => process.stderr.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
for (const name of fs.readdirSync(dir)) {
  if (name.endsWith(".py")) mp.FS.writeFile("/" + name, fs.readFileSync(path.join(dir, name)));
}
let pending = "";
function readLine() {
  const buf = Buffer.alloc(65536);
  while (!pending.includes("\n")) {
    let n = 0;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      throw e;
    }
    if (n === 0) throw new Error("the test closed the bridge");
    pending += buf.toString("utf8", 0, n);
  }
  const i = pending.indexOf("\n");
  const line = pending.slice(0, i);
  pending = pending.slice(i + 1);
  return line;
}
mp.registerJsModule("halbridge", {
  call: (request) => {
    fs.writeSync(1, "\u0001" + request + "\n");
    return readLine();
  },
});
try {
  mp.runPython(fs.readFileSync(path.join(dir, entry), "utf8"));
} catch (e) {
  process.stderr.write(String(e) + "\n");
  process.exitCode = 3;
}

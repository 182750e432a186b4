#!/usr/bin/env python3
"""Opens an exported replay page in headless Chromium, as a person would (issue 16 point 5).

Usage: browser_check.py PAGE.html OUT_DIR [STEPS]

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: no network
port): loads the page, takes a screenshot, presses the Right arrow key STEPS times (real key
events through Input.dispatchKeyEvent), takes a second screenshot, and checks that the board
changed, that the page's step counter moved by STEPS, and that no script error or console
error was logged. Prints one JSON line; exits 0 on success, 1 on a finding, 2 if Chromium is
missing or does not answer.
"""
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-pipe", "--window-size=1400,1000", "--hide-scrollbars",
]


class Cdp:
    def __init__(self, proc, rfd, wfd):
        self.proc, self.rfd, self.wfd = proc, rfd, wfd
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_msg(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read_msg(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, timeout=30):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == name:
                return self.events.pop(i)
        while True:
            m = self._read_msg(deadline)
            if m.get("method") == name:
                return m
            self.events.append(m)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def main():
    page, out_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    exe = find_chromium()
    if not exe:
        print(json.dumps({"ok": False, "error": "chromium not found: apt-get install chromium (.ci/run does)"}))
        return 2
    os.makedirs(out_dir, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="twilight-chromium-")
    to_chrome_r, to_chrome_w = os.pipe()
    from_chrome_r, from_chrome_w = os.pipe()

    def child_fds():
        # Copy both ends above 4 first: the pipe may itself sit on fd 3 or 4.
        r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)
        os.dup2(r, 3, inheritable=True)
        os.dup2(w, 4, inheritable=True)

    proc = subprocess.Popen(
        [exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        close_fds=False, preexec_fn=child_fds,
    )
    os.close(to_chrome_r)
    os.close(from_chrome_w)
    cdp = Cdp(proc, from_chrome_r, to_chrome_w)
    findings = []
    result = {"page": page}
    try:
        targets = cdp.call("Target.getTargets")["targetInfos"]
        tid = next(t["targetId"] for t in targets if t["type"] == "page")
        sid = cdp.call("Target.attachToTarget", {"targetId": tid, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            cdp.call(f"{domain}.enable", session=sid)
        cdp.call("Page.navigate", {"url": "file://" + page}, session=sid)
        cdp.wait_event("Page.loadEventFired", timeout=60)

        def board():
            r = cdp.call("Runtime.evaluate", {
                "expression": "JSON.stringify([document.body.getAttribute('data-step'),"
                              "(document.querySelector('#board svg')||{outerHTML:''}).outerHTML])",
                "returnByValue": True}, session=sid)
            step, svg = json.loads(r["result"]["value"])
            return step, hashlib.sha256(svg.encode()).hexdigest(), len(svg)

        def shot(name):
            data = base64.b64decode(cdp.call("Page.captureScreenshot", {"format": "png"}, session=sid)["data"])
            path = os.path.join(out_dir, name)
            with open(path, "wb") as f:
                f.write(data)
            return path, hashlib.sha256(data).hexdigest()

        step0, board0, len0 = board()
        shot0, png0 = shot("replay-start.png")
        for _ in range(steps):
            for kind in ("keyDown", "keyUp"):
                cdp.call("Input.dispatchKeyEvent", {
                    "type": kind, "key": "ArrowRight", "code": "ArrowRight",
                    "windowsVirtualKeyCode": 39, "nativeVirtualKeyCode": 39}, session=sid)
        step1, board1, len1 = board()
        shot1, png1 = shot("replay-after-keys.png")
        result.update(step_before=step0, step_after=step1, svg_chars=[len0, len1],
                      screenshots=[shot0, shot1])
        if len0 < 10000:
            findings.append(f"no board drawn at load ({len0} characters of SVG)")
        if board0 == board1:
            findings.append("the board did not change after the key presses")
        if png0 == png1:
            findings.append("the screenshot did not change after the key presses")
        if step0 is None or step1 is None or int(step1) - int(step0) != steps:
            findings.append(f"the step counter went from {step0} to {step1}, not +{steps}")
        # Drain what arrived meanwhile.
        cdp.call("Runtime.evaluate", {"expression": "1"}, session=sid)
        for e in cdp.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                findings.append("script error: " + json.dumps(p.get("exceptionDetails", {}))[:400])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
                findings.append("console " + p["type"] + ": " + json.dumps(p.get("args"))[:400])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                findings.append("log error: " + p["entry"].get("text", "")[:400])
        try:
            cdp.call("Browser.close", timeout=10)
        except Exception:
            pass
    except (TimeoutError, EOFError, StopIteration, BrokenPipeError, RuntimeError) as e:
        proc.kill()
        err = proc.stderr.read().decode(errors="replace")[-2000:]
        print(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}", "stderr": err}))
        return 2
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)
    result["ok"] = not findings
    result["findings"] = findings
    print(json.dumps(result))
    return 0 if not findings else 1


if __name__ == "__main__":
    sys.exit(main())

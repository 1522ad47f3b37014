"""cdp.py — a small driver of headless Chromium over the DevTools protocol,
through --remote-debugging-pipe (file descriptors 3 and 4: no port, no
network, no Python package beyond the standard library). The HTML page
tests (test_html.py) and bench/html_page.py use it.

    with Browser() as b:
        page = b.open("file:///tmp/page.html", width=1400, height=1000)
        page.wait("document.body.dataset.ready === '1'")
        page.eval("tritium.pick(3)")
        page.mouse_move(x, y)
        png = page.screenshot()
        page.errors            # uncaught exceptions and console errors seen so far
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


def find_chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


class CDPError(RuntimeError):
    pass


class Browser:
    def __init__(self, chromium=None, timeout=60):
        self.chromium = chromium or find_chromium()
        if not self.chromium:
            raise FileNotFoundError("chromium")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="tritium-cdp-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        args = [self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--mute-audio", "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"]
        # the pipe ends become the browser's fds 3 (commands in) and 4 (replies out)
        cmd = 'exec "$@" 3<&%d 4>&%d' % (to_chrome_r, from_chrome_w)
        # a sanitizer build's test environment preloads its runtime (tests/meson.build's py_env): not into the browser
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "TSAN_OPTIONS")}
        self.proc = subprocess.Popen(["sh", "-c", cmd, "sh"] + args, pass_fds=(to_chrome_r, from_chrome_w),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, env=env)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self._events = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("no answer from chromium within the timeout")
            ready, _, _ = select.select([self._r], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise CDPError("chromium closed the pipe (exit status %s)" % self.proc.poll())
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None, timeout=None):
        self._id += 1
        mid = self._id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._w, data)
            data = data[n:]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            m = self._read_message(deadline)
            if m.get("id") == mid:
                if "error" in m:
                    raise CDPError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            self._events.append(m)

    def pump(self, seconds=0.0):
        """Read the events that arrived (waiting up to `seconds` for one)."""
        deadline = time.monotonic() + seconds
        while True:
            ready, _, _ = select.select([self._r], [], [], max(0.0, deadline - time.monotonic()))
            if not ready and b"\0" not in self._buf:
                return
            self._events.append(self._read_message(time.monotonic() + self.timeout))
            if time.monotonic() >= deadline and b"\0" not in self._buf:
                return

    def open(self, url, width=1400, height=1000):
        t = self.send("Target.createTarget", {"url": "about:blank"})
        s = self.send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})["sessionId"]
        p = Page(self, s)
        for dom in ("Page", "Runtime", "Log"):
            p.send(dom + ".enable")
        p.send("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        p.navigate(url)
        return p


class Page:
    def __init__(self, browser, session):
        self.b = browser
        self.session = session
        self._seen = 0
        self.errors = []
        self.console = []

    def send(self, method, params=None, timeout=None):
        r = self.b.send(method, params, session=self.session, timeout=timeout)
        self._scan()
        return r

    def _scan(self):
        ev = self.b._events
        while self._seen < len(ev):
            m = ev[self._seen]
            self._seen += 1
            if m.get("sessionId") != self.session:
                continue
            meth, p = m.get("method"), m.get("params", {})
            if meth == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                text = d.get("exception", {}).get("description") or d.get("text")
                self.errors.append("exception: %s (line %s)" % (text, d.get("lineNumber")))
            elif meth == "Runtime.consoleAPICalled":
                args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                self.console.append((p.get("type"), args))
                if p.get("type") in ("error", "assert"):
                    self.errors.append("console.%s: %s" % (p.get("type"), args))
            elif meth == "Log.entryAdded":
                e = p.get("entry", {})
                if e.get("level") == "error":
                    self.errors.append("log: %s %s" % (e.get("text"), e.get("url", "")))

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})

    def eval(self, expr, await_promise=True):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": await_promise})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CDPError("%s: %s" % (expr, d.get("exception", {}).get("description") or d.get("text")))
        return r.get("result", {}).get("value")

    def wait(self, expr, timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.eval(expr):
                    return True
            except CDPError:
                pass
            time.sleep(0.05)
        raise CDPError("timed out waiting for %s" % expr)

    def mouse_move(self, x, y):
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def click(self, x, y):
        for t in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": t, "x": x, "y": y, "button": "left", "clickCount": 1})

    def click_selector(self, sel):
        r = self.eval("(function(){var e=document.querySelector(%s); if(!e) return null; e.scrollIntoView({block:'center'});"
                      "var r=e.getBoundingClientRect(); return {x:r.left+r.width/2, y:r.top+r.height/2};})()" % json.dumps(sel))
        if not r:
            raise CDPError("no element %s" % sel)
        self.click(r["x"], r["y"])

    def screenshot(self, full_page=False):
        params = {"format": "png"}
        if full_page:
            m = self.send("Page.getLayoutMetrics")
            size = m.get("cssContentSize") or m.get("contentSize")
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        return base64.b64decode(self.send("Page.captureScreenshot", params)["data"])

    def flush_events(self, seconds=0.2):
        self.b.pump(seconds)
        self._scan()

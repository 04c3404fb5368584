"""Debian's Firefox ESR and WebKitGTK, driven through their own automation endpoints, behind one
small interface (`Engine`) the cross-engine sweep uses; never a downloaded browser or driver.

Clients: WebKitGTK through WebKitWebDriver (webkit2gtk-driver) with Selenium, the W3C WebDriver
client the WebDriver project itself maintains. Firefox has no WebDriver HTTP endpoint of its own and
Debian ships no geckodriver, so it is driven through Marionette, the remote protocol built into
Firefox (and what geckodriver translates to), with Mozilla's marionette-driver client from PyPI.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

FIREFOX = Path("/usr/bin/firefox-esr")
WEBKIT_DRIVER = Path("/usr/bin/WebKitWebDriver")
XVFB = Path("/usr/bin/Xvfb")
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")  # what WebKitWebDriver starts

# Collects the page's uncaught errors and unhandled rejections in window.__engineErrors. It runs by
# the driver's script execution, never as a script in the page, whose policy refuses inline code.
COLLECT_ERRORS = """
if (!window.__engineErrors) {
  window.__engineErrors = [];
  addEventListener("error", (e) => window.__engineErrors.push("error: " + e.message + " at " + e.filename + ":" + e.lineno));
  addEventListener("unhandledrejection", (e) => window.__engineErrors.push("unhandled rejection: " + (e.reason && e.reason.stack || e.reason)));
}
"""


class Engine:
    """One browser: load a URL, run a script in the page (a function body with `arguments`), and act
    on an element as a reader does (click, keys)."""

    name: str
    ARROW_UP: str
    ENTER: str

    def goto(self, url: str) -> None: ...
    def run(self, script: str, *args): ...
    def element(self, css: str, index: int = 0): ...
    def replace_focused_text(self, keys: str) -> None:
        """Select everything in the focused element (Control+A) and type `keys` over it."""
    def quit(self) -> None: ...


def missing(name: str) -> str | None:
    """Why engine `name` cannot run here, or None."""
    needs = {"firefox": (FIREFOX,), "webkit": (WEBKIT_DRIVER, MINIBROWSER, XVFB)}[name]
    package = {"firefox": "apt-get install firefox-esr", "webkit": "apt-get install webkit2gtk-driver xvfb"}[name]
    absent = [str(p) for p in needs if not p.exists()]
    if absent:
        return f"{', '.join(absent)} not installed ({package}); browsers are never downloaded"
    try:
        __import__({"firefox": "marionette_driver", "webkit": "selenium"}[name])
    except ImportError:
        return "the test tools are not installed (pip install -e '.[test]')"
    return None


GECKO_LOGS = tempfile.mkdtemp(prefix="attention-gecko-")  # Marionette writes gecko-<time>.log in it


class Firefox(Engine):
    """Firefox ESR, headless, through Marionette; `javascript=False` reads pages as a browser with
    JavaScript turned off does."""

    name = "firefox"

    def __init__(self, javascript: bool = True):
        from marionette_driver.keys import Keys
        from marionette_driver.marionette import Marionette

        self.ARROW_UP, self.ENTER = Keys.UP, Keys.ENTER
        prefs = {"javascript.enabled": javascript, "browser.shell.checkDefaultBrowser": False,
                 "dom.serviceWorkers.testing.enabled": True}
        # Firefox's log in a folder of its own (not a gecko.log in the working folder). Never os.devnull:
        # marionette_driver removes the log's path before Firefox starts, and Firefox then wrote
        # /dev/null back as a regular file (the cause of the "/dev/null left a regular file" .ci/run mends).
        self.client = Marionette(bin=str(FIREFOX), port=0, headless=True, prefs=prefs, startup_timeout=60,
                                 gecko_log=GECKO_LOGS)
        self.client.start_session()
        self.client.timeout.script = 120
        self.client.timeout.page_load = 60

    def goto(self, url: str) -> None:
        self.client.navigate(url)

    def run(self, script: str, *args):
        # sandbox=None: in the page's own scope, as Selenium's scripts run, not behind Xray wrappers
        return self.client.execute_script(script, script_args=list(args), sandbox=None)

    def element(self, css: str, index: int = 0):
        from marionette_driver.by import By

        return self.client.find_elements(By.CSS_SELECTOR, css)[index]

    def replace_focused_text(self, keys: str) -> None:
        from marionette_driver.keys import Keys

        seq = self.client.actions.sequence("key", "keyboard")
        seq.key_down(Keys.CONTROL).key_down("a").key_up("a").key_up(Keys.CONTROL).send_keys(keys).perform()
        self.client.actions.release()

    def quit(self) -> None:
        self.client.quit(in_app=False)
        self.client.cleanup()
        self.client.instance.profile.cleanup()  # now, not when the interpreter shuts down


class WebKit(Engine):
    """WebKitGTK's MiniBrowser through WebKitWebDriver, on an Xvfb display the engine starts;
    `javascript=False` turns off the page's scripts (the driver's own still run)."""

    name = "webkit"

    def __init__(self, javascript: bool = True):
        from selenium import webdriver
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.webkitgtk.service import Service

        self.ARROW_UP, self.ENTER = Keys.ARROW_UP, Keys.ENTER
        read, write = os.pipe()  # Xvfb writes the display number it chose
        self.xvfb = subprocess.Popen([str(XVFB), "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                                     pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            display = ":" + f.readline().strip()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        if not javascript:  # Safari's own switch; the markup one leaves lazy images waiting for scripts
            options.add_argument("--enable-javascript=false")
        env = {**os.environ, "DISPLAY": display}
        service = Service(executable_path=str(WEBKIT_DRIVER), env=env)
        try:
            self.driver = webdriver.WebKitGTK(options=options, service=service)
        except BaseException:
            self.xvfb.terminate()
            raise
        self.driver.set_script_timeout(120)
        self.driver.set_page_load_timeout(60)
        self.driver.set_window_size(1200, 800)

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def run(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def element(self, css: str, index: int = 0):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)[index]

    def replace_focused_text(self, keys: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).send_keys(keys).perform()

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.xvfb.terminate()
            self.xvfb.wait(10)


def start(name: str, javascript: bool = True) -> Engine:
    return {"firefox": Firefox, "webkit": WebKit}[name](javascript=javascript)

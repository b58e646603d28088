"""The Dutch experiment notebook (07) in JupyterLab on a 1920x1080 projector.

Open ``notebooks/nl/07-experiment.ipynb``, Run All: every cell runs without an
error, the first output says which data it shows (the class's, or the demo data
set when no class has played on this computer), the swap chance is shown with
its formula in Dutch (a decimal comma), and the key figures are in view.
Screenshots go to ``$MINDWIDGET_SCREENSHOTS`` (default: the test's tmp dir).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab import open_notebook, put_setting, wait_kernel_idle
from playwright.sync_api import Browser, Page, expect

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def projector(chromium: Browser, lab_url: str) -> Iterator[Page]:
    tracker = "@jupyterlab/notebook-extension:tracker"
    put_setting(lab_url, tracker, {"autoStartDefaultKernel": True, "windowingMode": "none"})
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(60_000)
    try:
        yield context.new_page()
    finally:
        context.close()
        put_setting(lab_url, tracker, {"autoStartDefaultKernel": True})


def test_the_dutch_experiment_runs_and_says_whose_data_it_shows(
    projector: Page, lab_url: str, lab_root: Path, tmp_path: Path
) -> None:
    page = projector
    shots = Path(os.environ.get("MINDWIDGET_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    (lab_root / "nl").mkdir(exist_ok=True)
    name = "07-experiment.ipynb"
    # The notebook reads the latest lesson in the class journals when there is one; the
    # browser tests before this one leave journals in the tests' data folder. This test
    # shows the demo set: its kernel gets a data folder of its own, empty.
    notebook = json.loads((ROOT / "notebooks" / "nl" / name).read_text(encoding="utf-8"))
    empty = tmp_path / "no-journals"
    empty.mkdir()
    notebook["cells"].insert(
        0,
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": f"import os\nos.environ['XDG_DATA_HOME'] = {str(empty)!r}",
        },
    )
    (lab_root / "nl" / name).write_text(json.dumps(notebook), encoding="utf-8")
    panel = open_notebook(page, lab_url, f"nl/{name}")
    panel.locator(".jp-Notebook").click(position={"x": 5, "y": 5})
    page.keyboard.press("Escape")
    page.keyboard.press("Control+b")  # the file browser closed, as on a projector
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    prompts = panel.locator(".jp-CodeCell .jp-InputArea-prompt")
    for i in range(prompts.count()):
        expect(prompts.nth(i)).to_have_text(re.compile(r"\[\d+\]:"), timeout=180_000)
    wait_kernel_idle(panel)
    expect(
        panel.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    ).to_have_count(0)
    # which data: the class's own, or the demo set, said in Dutch
    expect(
        panel.get_by_text(re.compile(r"Demo-gegevensset|De gegevens van onze klas")).first
    ).to_be_visible()
    formula = panel.get_by_text(re.compile(r"P\(D < 0\) = Φ")).first
    expect(formula).to_contain_text(re.compile(r"\d+,\d%"))  # a decimal comma
    formula.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(shots / "experiment-formula-jupyterlab-nl-1920x1080.png"))
    check = panel.get_by_text(re.compile(r"^De zwarte streepjes zijn 95%-intervallen")).first
    check.evaluate("el => el.scrollIntoView({block: 'end'})")
    page.screenshot(path=str(shots / "experiment-check-jupyterlab-nl-1920x1080.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    check.evaluate("el => el.scrollIntoView({block: 'end'})")
    page.screenshot(path=str(shots / "experiment-check-jupyterlab-nl-1280x720.png"))
